// Found by the review.
//
// docs/layout.md: "Errors about an item carry `item` (its name), `section` (its
// list) and `owner`." An item flag of the wrong type left by a handler is
// reported by `badFlag` in src/render/_render_text.ts through
// `invalidLayout(section.name, section.owner, …)`: the error has no `item`
// and names the list's owner instead of the item's.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type PromptAssembly, PromptError, renderPrompt } from "../mod.ts";

function listWithItem(flags: Record<string, unknown>): PromptAssembly {
  return {
    sections: [{
      name: "tools",
      order: 100,
      text: "Tools:",
      owner: "agent-loop",
      list: {},
      items: [{
        name: "bash",
        order: 0,
        text: "- bash",
        owner: "bash",
        ...flags,
      }],
    }],
    tools: [],
    variables: {},
  };
}

describe("renderPrompt: an item flag of the wrong type names the item", () => {
  for (const flag of ["literal", "trim"]) {
    it(`carries item, its list and the item's owner for ${flag}: "yes"`, () => {
      assert.throws(
        () => renderPrompt(listWithItem({ [flag]: "yes" })),
        (error) => {
          assert.ok(error instanceof PromptError);
          assert.equal(error.item, "bash");
          assert.equal(error.section, "tools");
          assert.equal(error.owner, "bash");
          return true;
        },
      );
    });
  }
});
