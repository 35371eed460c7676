// The audit records item changes under the right list and item name
// (docs/layout.md), whatever characters those names hold.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SystemPrompt } from "../mod.ts";

describe("assemble({ audit: true }) with item and list names holding NUL", () => {
  it("names the list and the item as they are", async () => {
    const list = "a\0b";
    const prompt = new SystemPrompt();
    prompt.section({ name: list, order: 0, text: "H", list: {} });
    prompt.item(list, { name: "c\0d", order: 0, text: "x" });
    prompt.on("system-prompt/assemble", function edit(assembly) {
      assembly.sections[0]!.items![0]!.text = "y";
    });
    const { audit } = await prompt.assemble({}, { audit: true });
    assert.deepEqual(audit, [
      { handler: "edit", kind: "item", list, name: "c\0d", change: "changed" },
    ]);
  });
});
