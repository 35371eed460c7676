// comparePrompts(): the first change between two steps (section, item, tool
// or runtime context), its offset, the variables that changed, and whether it
// breaks the provider's cached prefix.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type AssembledItem,
  type AssembledSection,
  SystemPrompt,
  type ToolSchema,
} from "../mod.ts";
import { comparePrompts } from "../inspect.ts";
import { assemblyWith as assembly, item } from "./support/assembly.ts";

interface Step {
  date: string;
}

function registry(dateOrder: number) {
  const prompt = new SystemPrompt<Step>();
  prompt.scope("clock").variable("date", (context) => context.date);
  prompt.scope("agent-loop").section({
    name: "persona",
    order: 0,
    text: "You are an agent.",
  });
  prompt.scope("clock").section({
    name: "clock",
    order: dateOrder,
    text: "Today is {{date}}.",
  });
  prompt.scope("bash").section({
    name: "tool:bash",
    order: 105,
    text: "Check exit codes.",
  });
  prompt.tools(() =>
    ["bash", "read"].map((name) => ({ name, description: "", parameters: {} }))
  );
  return prompt;
}

const tool = (name: string, extra: Partial<ToolSchema> = {}): ToolSchema => ({
  name,
  description: `Runs ${name}.`,
  parameters: {},
  ...extra,
});

const tools = (names: string[], extra: Partial<AssembledSection> = {}) => ({
  name: "tools",
  text: "Tools:",
  owner: "loop",
  list: { empty: "Tools: (none)" },
  items: names.map((n) => item(n, `- ${n}`, { owner: n })),
  ...extra,
});

describe("comparePrompts() on a registry's steps", () => {
  it("reports identical assemblies", async () => {
    const prompt = registry(1);
    const comparison = comparePrompts(
      await prompt.assemble({ date: "d1" }),
      await prompt.assemble({ date: "d1" }),
    );
    assert.deepEqual(comparison, {
      identical: true,
      sameText: true,
      changedVariables: [],
      tools: {
        changed: false,
        previous: ["bash", "read"],
        next: ["bash", "read"],
      },
      context: { changed: false },
    });
  });

  it("finds the first differing section, the offset and the changed variables", async () => {
    const prompt = registry(1);
    const comparison = comparePrompts(
      await prompt.assemble({ date: "d1" }),
      await prompt.assemble({ date: "d2" }),
    );
    assert.equal(comparison.identical, false);
    assert.equal(comparison.offset, "You are an agent.\n\nToday is d".length);
    assert.deepEqual(comparison.firstChangedSection, {
      name: "clock",
      owner: "clock",
      index: 1,
      change: "changed",
    });
    assert.deepEqual(comparison.changedVariables, ["date"]);
  });

  it("flags a changed section followed only by unchanged ones as a prefix break", async () => {
    const prompt = registry(1);
    const { prefixBreak } = comparePrompts(
      await prompt.assemble({ date: "d1" }),
      await prompt.assemble({ date: "d2" }),
    );
    assert.deepEqual(prefixBreak, {
      section: "clock",
      owner: "clock",
      unchangedAfter: 1,
      charsAfter: "\n\nCheck exit codes.".length,
      message:
        'The change to section "clock" of "clock" invalidates the provider\'s prefix cache ' +
        "for the 1 section (19 characters) after it, which did not change; give it a " +
        "higher order so that it renders after them, or make it a context entry",
    });
  });

  it("does not flag a change in the last section", async () => {
    const prompt = registry(900);
    const comparison = comparePrompts(
      await prompt.assemble({ date: "d1" }),
      await prompt.assemble({ date: "d2" }),
    );
    assert.equal(comparison.prefixBreak, undefined);
    assert.equal(comparison.firstChangedSection?.name, "clock");
  });
});

describe("comparePrompts() on sections", () => {
  it("does not flag a change followed by other changes", () => {
    const step = (a: string, b: string) =>
      assembly([{ name: "a", text: a }, { name: "b", text: b }, {
        name: "c",
        text: "same",
      }]);
    const comparison = comparePrompts(step("1", "1"), step("2", "2"));
    assert.equal(comparison.firstChangedSection?.name, "a");
    assert.equal(comparison.prefixBreak, undefined);
  });

  it("reports added and removed sections and variables", () => {
    const before = assembly([{ name: "a", text: "A" }, {
      name: "b",
      text: "B",
    }], {
      variables: { x: "1", y: "2" },
    });
    const after = assembly([{ name: "a", text: "A" }], {
      variables: { x: "1", z: undefined },
    });
    const comparison = comparePrompts(before, after);
    assert.equal(comparison.offset, 1);
    assert.deepEqual(comparison.firstChangedSection, {
      name: "b",
      index: 1,
      change: "removed",
    });
    assert.deepEqual(comparison.changedVariables, ["y", "z"]);
  });

  it("names a removed section as removed, not the section after it", () => {
    const before = assembly([
      { name: "a", text: "A" },
      { name: "b", text: "B", owner: "p" },
      { name: "c", text: "C" },
    ]);
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
    const step = (b: string) =>
      assembly([{ name: "a", text: "A" }, { name: "b", text: b }, {
        name: "c",
        text: "C",
      }]);
    const comparison = comparePrompts(step("B"), step(" "));
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
      { name: "c", text: "C" },
    ]);
    assert.deepEqual(comparePrompts(before, after).firstChangedSection, {
      name: "b",
      index: 1,
      change: "added",
    });
  });

  it("keeps the prefix-break rule with custom separators, counting them in charsAfter", () => {
    const step = (time: string) =>
      assembly([
        { name: "clock", text: `It is ${time}.`, owner: "clock" },
        { name: "rules", text: "Be brief.", separator: "\n---\n" },
        { name: "more", text: "Check." },
      ], { separator: "\n" });
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

  it("names the layer of a changed section and of a prefix break", () => {
    const step = (persona: string) =>
      assembly([
        { name: "persona", text: persona, owner: "preset", layer: "reviewer" },
        { name: "rules", text: "Be brief." },
      ]);
    const comparison = comparePrompts(step("You review."), step("You audit."));
    assert.deepEqual(comparison.firstChangedSection, {
      name: "persona",
      owner: "preset",
      layer: "reviewer",
      index: 0,
      change: "changed",
    });
    assert.equal(comparison.prefixBreak?.layer, "reviewer");
    assert.match(
      comparison.prefixBreak!.message,
      /^The change to section "persona" of "preset" in layer "reviewer" invalidates/,
    );
  });
});

describe("comparePrompts() on lists", () => {
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
      }, { name: "rules", text: "Be brief." }], { separator: "\n" });
    const comparison = comparePrompts(step("d1"), step("d2"));
    assert.deepEqual(comparison.firstChangedSection, {
      name: "env",
      index: 0,
      change: "changed",
    });
    assert.deepEqual(comparison.firstChangedItem, {
      name: "date",
      owner: "clock",
      list: ["env"],
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
      list: ["tools"],
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

  it("names no item when the list's footer changed", () => {
    const step = (footer: string) =>
      assembly([{ ...tools(["bash"]), list: { footer } }]);
    const comparison = comparePrompts(step("</tools>"), step("</TOOLS>"));
    assert.equal(comparison.firstChangedSection?.name, "tools");
    assert.equal(comparison.firstChangedItem, undefined);
  });

  const memory = (project: AssembledItem[], global = [item("a.md", "G")]) =>
    assembly([{
      name: "memory",
      text: "<memory>",
      owner: "host",
      list: { footer: "</memory>" },
      items: [
        item("global", "# Global", {
          owner: "host",
          list: {},
          items: global.map((i) => ({ ...i, owner: "user" })),
        }),
        item("project", "# Project", {
          owner: "host",
          list: {},
          items: project,
        }),
      ],
    }, { name: "rules", text: "Be brief." }]);

  it("names the changed file of a nested tier, with its owner and list path", () => {
    const comparison = comparePrompts(
      memory([
        item("a.md", "P", { owner: "repo" }),
        item("b.md", "B1", { owner: "team" }),
      ]),
      memory([
        item("a.md", "P", { owner: "repo" }),
        item("b.md", "B2", { owner: "team" }),
      ]),
    );
    assert.deepEqual(comparison.firstChangedSection, {
      name: "memory",
      owner: "host",
      index: 0,
      change: "changed",
    });
    assert.deepEqual(comparison.firstChangedItem, {
      name: "b.md",
      owner: "team",
      list: ["memory", "project"],
      index: 1,
      change: "changed",
    });
  });

  it("stops at a tier whose heading changed", () => {
    const before = memory([item("a.md", "P")]);
    const after = memory([item("a.md", "P")]);
    after.sections[0]!.items![1]!.text = "# Repository";
    assert.deepEqual(comparePrompts(before, after).firstChangedItem, {
      name: "project",
      owner: "host",
      list: ["memory"],
      index: 1,
      change: "changed",
    });
  });

  it("names a tier that lost its last file as removed", () => {
    const comparison = comparePrompts(
      memory([item("a.md", "P")]),
      memory([item("a.md", "P")], []),
    );
    assert.deepEqual(comparison.firstChangedItem, {
      name: "global",
      owner: "host",
      list: ["memory"],
      index: 0,
      change: "removed",
    });
  });
});

describe("comparePrompts() on tools", () => {
  it("reports a change in tool names or order even when the text is the same", () => {
    const comparison = comparePrompts(
      assembly([], { tools: [tool("bash"), tool("read")] }),
      assembly([], { tools: [tool("read"), tool("bash")] }),
    );
    assert.equal(comparison.sameText, true);
    assert.equal(comparison.identical, false);
    assert.deepEqual(comparison.tools, {
      changed: true,
      previous: ["bash", "read"],
      next: ["read", "bash"],
      firstChanged: { name: "read", index: 0, change: "changed" },
    });
  });

  it("reports a changed description or parameters: the cache misses from the start", () => {
    const before = assembly([{ name: "a", text: "A" }], {
      tools: [tool("bash"), tool("read")],
    });
    const after = assembly([{ name: "a", text: "A" }], {
      tools: [tool("bash"), tool("read", { parameters: { type: "object" } })],
    });
    const comparison = comparePrompts(before, after);
    assert.deepEqual(comparison.tools.firstChanged, {
      name: "read",
      index: 1,
      change: "changed",
    });
    assert.equal(comparison.sameText, true);
    assert.equal(comparison.identical, false);
  });

  it("reports a removed tool as removed", () => {
    const comparison = comparePrompts(
      assembly([], { tools: [tool("bash"), tool("read")] }),
      assembly([], { tools: [tool("bash")] }),
    );
    assert.deepEqual(comparison.tools.firstChanged, {
      name: "read",
      index: 1,
      change: "removed",
    });
  });

  it("compares schemas with cycles and BigInts without throwing", () => {
    const cyclic = (n: bigint) => {
      const schema: Record<string, unknown> = { type: "object", max: n };
      schema.self = schema;
      return schema;
    };
    const step = (n: bigint) =>
      assembly([], { tools: [tool("t", { parameters: cyclic(n) })] });
    assert.equal(comparePrompts(step(1n), step(1n)).tools.changed, false);
    assert.equal(comparePrompts(step(1n), step(2n)).tools.changed, true);
  });

  it("compares a tool without a description", () => {
    const bare = { name: "mcp", parameters: {} } as unknown as ToolSchema;
    const comparison = comparePrompts(
      assembly([], { tools: [bare] }),
      assembly([], { tools: [tool("mcp")] }),
    );
    assert.equal(comparison.tools.firstChanged?.change, "changed");
  });
});

describe("comparePrompts() on runtime contexts", () => {
  const step = (time: string, todos: string[]) =>
    assembly([{ name: "persona", text: "You are an agent." }], {
      contexts: [
        { name: "clock", order: 0, text: `It is ${time}.`, owner: "clock" },
        {
          name: "todos",
          order: 1,
          text: "Open todos:",
          owner: "todo",
          list: {},
          items: todos.map((t) => item(t, `- ${t}`, { owner: "todo" })),
        },
      ],
    });

  it("reports a context-only change on its own, never as a prefix break", () => {
    const comparison = comparePrompts(step("9:00", ["a"]), step("9:05", ["a"]));
    assert.equal(comparison.identical, false);
    assert.equal(comparison.sameText, true);
    assert.equal(comparison.tools.changed, false);
    assert.equal(comparison.firstChangedSection, undefined);
    assert.equal(comparison.prefixBreak, undefined);
    assert.deepEqual(comparison.context, {
      changed: true,
      offset: "It is 9:0".length,
      firstChangedEntry: {
        name: "clock",
        owner: "clock",
        index: 0,
        change: "changed",
      },
    });
  });

  it("names the first changed item of a context list", () => {
    const { context } = comparePrompts(
      step("9:00", ["a", "b"]),
      step("9:00", ["a", "c"]),
    );
    assert.deepEqual(context.firstChangedItem, {
      name: "b",
      owner: "todo",
      list: ["todos"],
      index: 1,
      change: "removed",
    });
  });

  it("reports a context change beside a change of the system prompt", () => {
    const before = step("9:00", []);
    const after = step("9:05", []);
    after.sections[0]!.text = "You are a reviewer.";
    const comparison = comparePrompts(before, after);
    assert.equal(comparison.firstChangedSection?.name, "persona");
    assert.equal(comparison.context.firstChangedEntry?.name, "clock");
  });
});
