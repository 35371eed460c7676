// SPEC §7.4: introspection sees the layout (comparePrompts, cacheBlocks and
// checkPrompt with a layout: in compare_test.ts, cache_blocks_test.ts, check_test.ts).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type AssembledItem,
  type AssembledSection,
  type PromptAssembly,
  SystemPrompt,
} from "../mod.ts";
import { explainPrompt } from "../inspect.ts";

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

describe("explainPrompt() with a layout", () => {
  it("gives each item of a list its owner and span, inside its section's span", () => {
    const explained = explainPrompt(
      assembly(
        [{ name: "persona", text: "Hi." }, tools(["bash", "read"])],
        "\n",
      ),
    );
    assert.equal(explained.text, "Hi.\nTools:\n- bash\n- read");
    const list = explained.sections[1]!;
    assert.deepEqual(
      [list.separatorStart, list.start, list.end],
      [3, 4, explained.text.length],
    );
    assert.deepEqual(
      list.items!.map((
        i,
      ) => [i.name, i.owner, i.separatorStart, i.start, i.end]),
      [["bash", "bash", 10, 11, 17], ["read", "read", 17, 18, 24]],
    );
    assert.equal(explained.text.slice(11, 17), "- bash");
  });

  it("reports an empty list's items as [] and its span as the empty text", () => {
    const explained = explainPrompt(assembly([tools([])]));
    assert.equal(explained.text, "Tools: (none)");
    assert.deepEqual(explained.sections[0]!.items, []);
  });

  it("gives no items field to a section that is not a list", () => {
    const explained = explainPrompt(assembly([{ name: "a", text: "A" }]));
    assert.equal("items" in explained.sections[0]!, false);
  });

  it("makes a list as volatile as its most volatile rendered item", () => {
    const clock = item("date", "date", { stability: "step" });
    const explained = explainPrompt(
      assembly([{ ...tools(["bash"]), items: [item("a", "a"), clock] }]),
    );
    assert.equal(explained.sections[0]!.stability, "step");
    assert.deepEqual(explained.sections[0]!.items!.map((i) => i.stability), [
      "static",
      "step",
    ]);
  });

  it("reports the variables of each item, and none for a literal one", () => {
    const explained = explainPrompt(assembly(
      [{
        ...tools([]),
        items: [
          item("a", "{{x}}"),
          item("b", "{{y}}", { literal: true }),
        ],
      }],
      undefined,
      { x: "1" },
    ));
    assert.deepEqual(explained.sections[0]!.items!.map((i) => i.variables), [
      ["x"],
      [],
    ]);
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
