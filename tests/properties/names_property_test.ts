// The bounded search for a "did you mean" gives exactly the answers of the
// full one (fast-check).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { boundedEditDistance, closestName } from "../../src/core/_names.ts";
import { editDistance } from "../support/edit_distance.ts";

const RUNS = { numRuns: 10_000, seed: 20261130 };
// Small alphabets make near misses, the interesting case, common.
const word = fc.string({
  unit: fc.constantFrom("a", "b", "c", "😀"),
  maxLength: 9,
});

/** The unbounded search the bounded one replaced. */
function plainClosest(name: string, candidates: string[], maxDistance = 2) {
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate);
    if (
      distance < bestDistance ||
      (distance === bestDistance && best !== undefined && candidate < best)
    ) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

describe("boundedEditDistance()", () => {
  it("is min(editDistance, max + 1) for every pair and bound", () => {
    fc.assert(
      fc.property(word, word, fc.nat({ max: 4 }), (a, b, max) => {
        assert.equal(
          boundedEditDistance(a, b, { max }),
          Math.min(editDistance(a, b), max + 1),
        );
      }),
      RUNS,
    );
  });
});

describe("closestName() bounded", () => {
  it("suggests exactly what the full search suggests", () => {
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 12 }), (name, names) => {
        assert.equal(closestName(name, names), plainClosest(name, names));
      }),
      RUNS,
    );
  });
});
