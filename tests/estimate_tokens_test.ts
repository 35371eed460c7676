import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { estimateTokens } from "../inspect.ts";

describe("estimateTokens()", () => {
  it("counts one token per 4 UTF-16 code units, rounded up", () => {
    assert.deepEqual(["", "a", "abcd", "abcde", "😀😀"].map(estimateTokens), [
      0,
      1,
      1,
      2,
      1,
    ]);
  });
});
