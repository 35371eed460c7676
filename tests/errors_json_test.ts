// PromptError.toJSON keeps every structured field that is set, `item`
// included: errors about a list item (docs/layout.md) name it.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PromptError, renderPrompt } from "../mod.ts";

describe("PromptError.toJSON with an item", () => {
  it("keeps the item field", () => {
    const error = new PromptError("duplicate-item", "x", {
      item: "bash",
      section: "tools",
      owner: "bash",
    });
    assert.deepEqual(error.toJSON(), {
      name: "PromptError",
      code: "duplicate-item",
      message: "x",
      section: "tools",
      item: "bash",
      owner: "bash",
    });
  });

  it("keeps the item of a render error through JSON.stringify", () => {
    let error: unknown;
    try {
      renderPrompt({
        sections: [{
          name: "tools",
          order: 0,
          text: "Tools:",
          list: {},
          items: [{ name: "bash", order: 0, text: "{{nope}}", owner: "bash" }],
        }],
        tools: [],
        variables: {},
      });
    } catch (caught) {
      error = caught;
    }
    assert.ok(error instanceof PromptError);
    assert.equal(JSON.parse(JSON.stringify(error)).item, "bash");
  });
});
