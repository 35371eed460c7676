// The audit sees the layout: item, separator and flag changes (explain,
// compare, cache blocks and check with a layout have their own test files).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SystemPrompt } from "../mod.ts";

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
