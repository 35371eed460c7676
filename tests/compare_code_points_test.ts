import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { compareCodePoints } from "../src/core/names.ts";

describe("compareCodePoints()", () => {
  it("orders by code point where UTF-16 order disagrees", () => {
    assert.ok("😀" < "\uff5e"); // code units: 0xD83D < 0xFF5E
    assert.ok(compareCodePoints("\uff5e", "😀") < 0); // U+FF5E < U+1F600
    assert.ok(compareCodePoints("😀", "\uff5e") > 0);
  });

  it("agrees with < elsewhere, and puts prefixes first", () => {
    const names = ["b", "a", "ab", "tool:bash", "Z", "é", ""];
    const expected = [...names].sort();
    assert.deepEqual([...names].sort(compareCodePoints), expected);
    assert.equal(compareCodePoints("same", "same"), 0);
  });
});
