// Huge inputs: the snapshot that assemble() takes must not spread a list's
// items into one call's arguments (a stack overflow past ~125,000 items).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderPrompt, SystemPrompt } from "../mod.ts";

describe("SystemPrompt.assemble with a very long list", () => {
  it("assembles and renders 200,000 items of one list", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "files", order: 0, text: "Files:", list: {} });
    const count = 200_000;
    for (let i = 0; i < count; i++) {
      prompt.item("files", { name: `f${i}`, order: i, text: "x" });
    }
    const assembly = await prompt.assemble();
    assert.equal(assembly.sections[0]!.items!.length, count);
    assert.equal(renderPrompt(assembly).length, "Files:".length + 2 * count);
  });
});
