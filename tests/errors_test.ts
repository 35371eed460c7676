// PromptError's fields and cause, and the helpers that word messages:
// describeOwner() and messageOf().
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PromptError } from "../mod.ts";
import { messageOf } from "../src/core/_describe.ts";
import { describeOwner } from "../src/core/_messages.ts";

describe("PromptError", () => {
  it("carries its code, message, name, fields and cause", () => {
    const cause = new Error("inner");
    const error = new PromptError("missing-value", "Cannot render", {
      cause,
      section: "s",
      variable: "v",
      owner: "o",
      reference: "{{v}}",
      line: 2,
      column: 3,
      offset: 9,
    });
    assert.ok(error instanceof Error);
    assert.equal(error.name, "PromptError");
    assert.equal(error.code, "missing-value");
    assert.equal(error.message, "Cannot render");
    assert.equal(error.cause, cause);
    assert.deepEqual(
      [
        error.section,
        error.variable,
        error.owner,
        error.reference,
        error.line,
        error.column,
        error.offset,
      ],
      ["s", "v", "o", "{{v}}", 2, 3, 9],
    );
    assert.equal(error.tool, undefined);
  });

  it("has no cause property unless one is given", () => {
    assert.ok(!("cause" in new PromptError("invalid-section", "x")));
    assert.ok(
      "cause" in new PromptError("invalid-section", "x", { cause: undefined }),
    );
  });
});

describe("describeOwner()", () => {
  it("quotes an owner and names the root registry otherwise", () => {
    assert.equal(describeOwner("bash"), '"bash"');
    assert.equal(describeOwner(undefined), "the root registry");
  });
});

describe("messageOf()", () => {
  it("takes an Error's message and stringifies anything else", () => {
    assert.equal(messageOf(new TypeError("t")), "t");
    assert.equal(messageOf(42), "42");
  });
});
