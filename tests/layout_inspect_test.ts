// SPEC §7.4: introspection sees the layout (explainPrompt's part is in
// explain_test.ts).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type AssembledItem,
  type AssembledSection,
  type PromptAssembly,
  PromptError,
  renderPrompt,
  SystemPrompt,
} from "../mod.ts";
import { cacheBlocks, checkPrompt, comparePrompts } from "../inspect.ts";

const item = (
  name: string,
  text: string,
  extra: Partial<AssembledItem> = {},
): AssembledItem => ({ name, order: 0, text, ...extra });

function assembly(
  sections: (Partial<AssembledSection> & { name: string })[],
  separator?: string,
  variables: Record<string, string> = {},
): PromptAssembly {
  const result: PromptAssembly = {
    sections: sections.map((s, i) => ({ order: i, text: "", ...s })),
    tools: [],
    variables,
  };
  if (separator !== undefined) result.separator = separator;
  return result;
}

const tools = (names: string[], extra: Partial<AssembledSection> = {}) => ({
  name: "tools",
  text: "Tools:",
  owner: "loop",
  list: { empty: "Tools: (none)" },
  items: names.map((n) => item(n, `- ${n}`, { owner: n })),
  ...extra,
});

describe("comparePrompts() with a layout", () => {
  it("names a removed section as removed, not the section after it", () => {
    const before = assembly([{ name: "a", text: "A" }, {
      name: "b",
      text: "B",
      owner: "p",
    }, {
      name: "c",
      text: "C",
    }]);
    const after = assembly([{ name: "a", text: "A" }, {
      name: "c",
      text: "C",
    }]);
    assert.deepEqual(comparePrompts(before, after).firstChangedSection, {
      name: "b",
      owner: "p",
      index: 1,
      change: "removed",
    });
  });

  it("names a section that renders empty in the next step as removed", () => {
    const before = assembly([
      { name: "a", text: "A" },
      { name: "b", text: "B" },
      {
        name: "c",
        text: "C",
      },
    ]);
    const after = assembly([
      { name: "a", text: "A" },
      { name: "b", text: " " },
      {
        name: "c",
        text: "C",
      },
    ]);
    const comparison = comparePrompts(before, after);
    assert.deepEqual(comparison.firstChangedSection, {
      name: "b",
      index: 1,
      change: "removed",
    });
    assert.equal(comparison.prefixBreak, undefined);
  });

  it("names an added section as added", () => {
    const before = assembly([{ name: "a", text: "A" }, {
      name: "c",
      text: "C",
    }]);
    const after = assembly([
      { name: "a", text: "A" },
      { name: "b", text: "B" },
      {
        name: "c",
        text: "C",
      },
    ]);
    assert.deepEqual(comparePrompts(before, after).firstChangedSection, {
      name: "b",
      index: 1,
      change: "added",
    });
  });

  it("names the first changed item of a list and its owner", () => {
    const step = (date: string) =>
      assembly([{
        name: "env",
        text: "<env>",
        list: {},
        items: [
          item("cwd", "cwd: /r", { owner: "workspace" }),
          item("date", `date: ${date}`, { owner: "clock" }),
        ],
      }, { name: "rules", text: "Be brief." }], "\n");
    const comparison = comparePrompts(step("d1"), step("d2"));
    assert.deepEqual(comparison.firstChangedSection, {
      name: "env",
      index: 0,
      change: "changed",
    });
    assert.deepEqual(comparison.firstChangedItem, {
      name: "date",
      owner: "clock",
      index: 1,
      change: "changed",
    });
    assert.equal(comparison.prefixBreak?.section, "env");
  });

  it("names a removed item as removed", () => {
    const comparison = comparePrompts(
      assembly([tools(["bash", "read", "todo"])]),
      assembly([tools(["bash", "todo"])]),
    );
    assert.deepEqual(comparison.firstChangedItem, {
      name: "read",
      owner: "read",
      index: 1,
      change: "removed",
    });
  });

  it("names no item when the list's heading changed", () => {
    const comparison = comparePrompts(
      assembly([tools(["bash"])]),
      assembly([tools([])]),
    );
    assert.equal(comparison.firstChangedSection?.name, "tools");
    assert.equal(comparison.firstChangedItem, undefined);
  });

  it("keeps the prefix-break rule with custom separators, counting them in charsAfter", () => {
    const step = (time: string) =>
      assembly([
        { name: "clock", text: `It is ${time}.`, owner: "clock" },
        { name: "rules", text: "Be brief.", separator: "\n---\n" },
        { name: "more", text: "Check." },
      ], "\n");
    const { prefixBreak } = comparePrompts(step("9:00"), step("9:05"));
    assert.equal(prefixBreak?.section, "clock");
    assert.equal(prefixBreak?.unchangedAfter, 2);
    assert.equal(prefixBreak?.charsAfter, "\n---\nBe brief.\nCheck.".length);
  });

  it("reports a changed separator before a section as a change of that section", () => {
    const before = assembly([{ name: "a", text: "A" }, {
      name: "b",
      text: "B",
    }]);
    const after = assembly([{ name: "a", text: "A" }, {
      name: "b",
      text: "B",
      separator: "\n",
    }]);
    assert.deepEqual(comparePrompts(before, after).firstChangedSection, {
      name: "b",
      index: 1,
      change: "changed",
    });
  });

  it("never puts offset inside a surrogate pair", () => {
    const step = (emoji: string) =>
      assembly([{ name: "a", text: `x${emoji}y` }]);
    // U+1F600 and U+1F601 share their high surrogate.
    const comparison = comparePrompts(step("\u{1F600}"), step("\u{1F601}"));
    assert.equal(comparison.offset, 1);
  });
});

describe("cacheBlocks() with a layout", () => {
  it("joins back to exactly renderPrompt's output with custom separators", () => {
    const a = assembly([
      { name: "persona", text: "Hi." },
      { name: "env", text: "cwd", stability: "session", separator: "\n\n\n" },
      { name: "clock", text: "9:00", stability: "step" },
    ], "\n");
    const blocks = cacheBlocks(a);
    assert.deepEqual(blocks.map((b) => [b.separator, b.text]), [
      ["", "Hi."],
      ["\n\n\n", "cwd"],
      ["\n", "9:00"],
    ]);
    assert.equal(
      blocks.map((b) => b.separator + b.text).join(""),
      renderPrompt(a),
    );
  });

  it("makes a block no more stable than its most volatile item", () => {
    const a = assembly([
      { name: "persona", text: "Hi." },
      {
        name: "env",
        text: "<env>",
        list: {},
        items: [item("cwd", "/r"), item("date", "d1", { stability: "step" })],
      },
      { name: "rules", text: "Be brief." },
    ]);
    assert.deepEqual(
      cacheBlocks(a).map((b) => [b.sections, b.stability, b.cache]),
      [
        [["persona"], "static", true],
        [["env"], "step", false],
        [["rules"], "static", false],
      ],
    );
  });

  it("throws a clear error for an option of the wrong type or range", () => {
    const a = assembly([{ name: "a", text: "A" }]);
    for (const bad of [1.5, -1, NaN, Infinity]) {
      assert.throws(() => cacheBlocks(a, { maxBreakpoints: bad }), (error) => {
        assert.ok(error instanceof PromptError);
        assert.equal(error.code, "invalid-option");
        assert.match(
          error.message,
          /^Cannot split cache blocks: maxBreakpoints must be a non-negative integer/,
        );
        return true;
      });
    }
    assert.throws(
      () => cacheBlocks(a, { maxBreakpoints: "2" as never }),
      TypeError,
    );
    assert.throws(() => cacheBlocks(a, null as never), TypeError);
    assert.equal(cacheBlocks(a, { maxBreakpoints: 0 })[0]!.cache, false);
  });
});

describe("checkPrompt() with a layout", () => {
  it("finds no reference in literal text, and does not count it as use", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("loop").variable("cwd", () => "/r");
    prompt.scope("files").section({
      name: "agents-md",
      order: 1,
      text: "{{cwd}} {{ nope }} ${{ secrets.X }}",
      literal: true,
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(diagnostics.map((d) => d.code), ["unused-variable"]);
  });

  it("counts references made by items, and reports their problems with the item", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("loop").variable("model", () => "m-1");
    prompt.section({ name: "tools", order: 100, text: "Tools:", list: {} });
    prompt.scope("a").item("tools", {
      name: "a",
      order: 0,
      text: "- a on {{model}}",
    });
    prompt.scope("b").item("tools", {
      name: "b",
      order: 1,
      text: "- b {{modle}}",
    });
    prompt.scope("c").item("tools", {
      name: "c",
      order: 2,
      text: "- c {{ x y }}",
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.section, d.item, d.owner]),
      [
        ["unknown-variable", "tools", "b", "b"],
        ["malformed-reference", "tools", "c", "c"],
      ],
    );
    assert.equal(
      diagnostics[0]!.message,
      'Item "b" of list "tools" names variable "modle", which is not registered; did you mean "model"?',
    );
    assert.match(
      diagnostics[1]!.message,
      /^Cannot render item "c" of list "tools": /,
    );
  });

  it("reports orphan items and item providers with their owner and item name", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "plain", order: 0, text: "Not a list." });
    prompt.scope("bash").item("plain", {
      name: "bash",
      order: 0,
      text: "- bash",
    });
    prompt.scope("skills").items("skills", () => []);
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(diagnostics, [
      {
        code: "orphan-item",
        severity: "warning",
        message:
          'Item "bash" of "bash" is in list "plain", which is not a live section declaring `list`: it is never rendered',
        item: "bash",
        owner: "bash",
      },
      {
        code: "orphan-item",
        severity: "warning",
        message:
          'An item provider of "skills" contributes to list "skills", which is not a live section declaring `list`: it is never rendered',
        owner: "skills",
      },
    ]);
  });

  it("reports one sentence in two items of different owners, unless dedupe dropped one", async () => {
    for (const dedupe of [false, true]) {
      const prompt = new SystemPrompt();
      prompt.section({
        name: "rules",
        order: 0,
        text: "Rules:",
        list: { dedupe },
      });
      const rule = "- Read every file before you edit it.";
      prompt.scope("read").item("rules", {
        name: "read",
        order: 0,
        text: rule,
      });
      prompt.scope("edit").item("rules", {
        name: "edit",
        order: 1,
        text: rule,
      });
      const codes = (await checkPrompt(prompt)).map((
        d,
      ) => [d.code, d.item, d.owner]);
      assert.deepEqual(
        codes,
        dedupe ? [] : [["duplicate-sentence", "edit", "edit"]],
      );
    }
  });
});

describe("the audit with a layout", () => {
  it("records item, separator and flag changes", async () => {
    const prompt = new SystemPrompt({ separator: "\n" });
    prompt.section({ name: "tools", order: 0, text: "Tools:", list: {} });
    prompt.section({ name: "rules", order: 1, text: "Be brief." });
    prompt.scope("bash").item("tools", {
      name: "bash",
      order: 0,
      text: "- bash",
    });
    prompt.scope("read").item("tools", {
      name: "read",
      order: 1,
      text: "- read",
    });
    prompt.scope("layout").on("system-prompt/assemble", function relayout(a) {
      a.separator = "\n\n";
      a.sections[1]!.literal = true;
      const list = a.sections[0]!;
      list.items = list.items!.filter((i) => i.name !== "read");
      list.items[0]!.text = "- bash (sandboxed)";
      list.items.push({ name: "todo", order: 2, text: "- todo" });
    });
    const { audit } = await prompt.assemble({}, { audit: true });
    const entry = (
      kind: string,
      name: string,
      change: string,
      list?: string,
    ) => ({
      handler: "relayout",
      owner: "layout",
      kind,
      name,
      change,
      ...(list === undefined ? {} : { list }),
    });
    assert.deepEqual(audit, [
      entry("section", "rules", "changed"),
      entry("item", "bash", "changed", "tools"),
      entry("item", "todo", "added", "tools"),
      entry("item", "read", "removed", "tools"),
      entry("layout", "separator", "changed"),
    ]);
  });
});
