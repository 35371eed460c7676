import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { boundedEditDistance, closestName } from "../src/core/names.ts";

const editDistance = (a: string, b: string) =>
  boundedEditDistance(a, b, Infinity);

describe("editDistance()", () => {
  it("counts insertions, deletions and substitutions", () => {
    assert.equal(editDistance("", ""), 0);
    assert.equal(editDistance("model", "model"), 0);
    assert.equal(editDistance("modle", "model"), 2);
    assert.equal(editDistance("kitten", "sitting"), 3);
    assert.equal(editDistance("", "abc"), 3);
  });
});

describe("closestName()", () => {
  it("suggests the nearest name within distance 2", () => {
    assert.equal(closestName("modle", ["cwd", "model"]), "model");
    assert.equal(closestName("cdw", ["cwd", "model"]), "cwd");
  });

  it("suggests nothing beyond distance 2", () => {
    assert.equal(closestName("branch", ["cwd", "model"]), undefined);
  });

  it("breaks ties by name, not by order", () => {
    assert.equal(closestName("ab", ["ax", "aa"]), "aa");
    assert.equal(closestName("ab", ["aa", "ax"]), "aa");
  });
});
