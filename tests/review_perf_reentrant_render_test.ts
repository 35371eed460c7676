// A value's getter that renders another assembly while a text is being
// interpolated must not change what the interrupted render produces: both
// renders share the template of the same text, and its memo.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type PromptAssembly, renderPrompt } from "../mod.ts";

const TEXT = "{{a}} and {{b}}";

function reentrant(answer: string): {
  outer: PromptAssembly;
  reenter: () => void;
} {
  const inner: PromptAssembly = {
    sections: [{ name: "s", order: 0, text: TEXT }],
    tools: [],
    variables: Object.assign(Object.create(null), { a: "P", b: "Q" }),
  };
  let armed = false;
  const variables = Object.create(null);
  variables.a = "A1";
  Object.defineProperty(variables, "b", {
    enumerable: true,
    get() {
      if (armed) {
        armed = false;
        assert.equal(renderPrompt(inner), "P and Q");
      }
      return answer;
    },
  });
  return {
    outer: {
      sections: [{ name: "s", order: 0, text: TEXT }],
      tools: [],
      variables,
    },
    reenter: () => armed = true,
  };
}

describe("renderPrompt() re-entered from a value's getter", () => {
  it("keeps the values read before the nested render", () => {
    const { outer, reenter } = reentrant("B1");
    assert.equal(renderPrompt(outer), "A1 and B1");
    reenter();
    assert.equal(renderPrompt(outer), "A1 and B1");
    assert.equal(renderPrompt(outer), "A1 and B1");
  });

  it("never returns the nested render's result", () => {
    const { outer, reenter } = reentrant("Q");
    assert.equal(renderPrompt(outer), "A1 and Q");
    reenter();
    assert.equal(renderPrompt(outer), "A1 and Q");
  });
});
