// SPEC §7.4: introspection sees the layout. explainPrompt's part is in
// explain_test.ts; comparePrompts, cacheBlocks and checkPrompt with a layout
// in compare_test.ts, cache_blocks_test.ts and check_test.ts; the audit here.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type AssembledItem,
  type AssembledSection,
  type PromptAssembly,
  SystemPrompt,
} from "../mod.ts";

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
