import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { isReferenceName } from "../mod.ts";

describe("isReferenceName()", () => {
  it("accepts NAME segments joined by dots", () => {
    for (const name of ["model", "git.branch", "_x1", "A.b_2.C", "__proto__"]) {
      assert.ok(isReferenceName(name), name);
    }
  });

  it("rejects anything else", () => {
    for (
      const name of [
        "",
        "1x",
        "a b",
        "a..b",
        ".a",
        "a.",
        "a-b",
        "é",
        " a",
        "a\n",
      ]
    ) {
      assert.ok(!isReferenceName(name), JSON.stringify(name));
    }
  });
});
