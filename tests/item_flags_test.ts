// An item flag (`literal`, `trim`) of the wrong type that a handler left in
// an assembly: the render error names the item, its list and the item's own
// owner (not the list's), as docs/layout.md says of every error about an
// item ("Errors about an item carry `item`, `section` (its list), `owner`").
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
