// describeValue(): how error messages name the kind of a wrong value.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { describeValue } from "../src/core/_describe.ts";

describe("describeValue()", () => {
  it("names the kind of a value", () => {
    assert.deepEqual(
      [null, undefined, [], {}, 1, "s", () => 0, 1n].map(describeValue),
      [
        "null",
        "undefined",
        "an array",
        "an object",
        "a number",
        "a string",
        "a function",
        "a bigint",
      ],
    );
  });
});
