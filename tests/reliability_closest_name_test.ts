// Issue #11, "suggestions stay fast": the bounded search gives exactly the
// answers of the full one (fast-check), and skips work it cannot use.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { boundedEditDistance, closestName } from "../src/core/names.ts";

const editDistance = (a: string, b: string) =>
  boundedEditDistance(a, b, Infinity);

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
          boundedEditDistance(a, b, max),
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

  it("reads no character of a candidate whose length is more than 2 away", () => {
    let reads = 0;
    const counted = (length: number) =>
      new Proxy(new String("x".repeat(length)), {
        get(target, key) {
          if (key === "charCodeAt") reads++;
          const value = Reflect.get(target, key);
          return typeof value === "function" ? value.bind(target) : value;
        },
      }) as unknown as string;
    assert.equal(
      closestName("x".repeat(300), [counted(303), counted(296)]),
      undefined,
    );
    assert.equal(reads, 0);
  });

  it("finds a near name among 10,000 long names (cost in bench/registry_bench.ts)", () => {
    const names = Array.from(
      { length: 10_000 },
      (_, i) => `${"n".repeat(295)}${String(i).padStart(5, "0")}`,
    );
    const typo = names[4_321]!.slice(0, -1) + "x";
    assert.equal(closestName(typo, names), names[4_320]);
  });
});
