// src/core/names.ts and src/core/_names.ts as the renderer uses them: what a reference can spell,
// the order names sort in, and the close name a "did you mean" suggests.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  boundedEditDistance,
  closestName,
  compareCodePoints,
} from "../src/core/_names.ts";
import { isReferenceName } from "../src/core/names.ts";
import { editDistance } from "./support/edit_distance.ts";

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
        "\\",
      ]
    ) {
      assert.ok(!isReferenceName(name), JSON.stringify(name));
    }
  });
});

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

  it("puts a lone surrogate at its own code point: U+DC00 before U+E000", () => {
    assert.ok(compareCodePoints("\uDC00", "\uE000") < 0);
    assert.ok(compareCodePoints("\uE000", "\uDC00") > 0);
    assert.ok(compareCodePoints("\uD800", "\uE000") < 0);
    assert.ok(compareCodePoints("a\uDC00", "a\uE000") < 0);
    // A pair is above every lone surrogate and every BMP character.
    assert.ok(compareCodePoints("\uE000", "😀") < 0);
    assert.ok(compareCodePoints("\uDBFF", "😀") < 0);
    assert.deepEqual(
      ["😀", "\uE000", "\uDC00", "a", "\uD800"].sort(compareCodePoints),
      ["a", "\uD800", "\uDC00", "\uE000", "😀"],
    );
  });

  it("sorts like the code points of the strings (lone surrogates as themselves)", () => {
    const points = (s: string) => {
      const out: number[] = [];
      for (let i = 0; i < s.length; i++) {
        const c = s.codePointAt(i)!;
        out.push(c);
        if (c > 0xffff) i++;
      }
      return out;
    };
    const byPoints = (a: string, b: string) => {
      const x = points(a);
      const y = points(b);
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        if (x[i] !== y[i]) return x[i]! - y[i]!;
      }
      return x.length - y.length;
    };
    const units = ["a", "\uD83D", "\uDE00", "\uDC00", "\uE000", "😀", "\uFFFF"];
    const all: string[] = [];
    for (const a of units) for (const b of units) all.push(a + b);
    for (const a of all) {
      for (const b of all) {
        assert.equal(
          Math.sign(compareCodePoints(a, b)),
          Math.sign(byPoints(a, b)),
          JSON.stringify([a, b]),
        );
      }
    }
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

  it("finds a near name among 10,000 long names", () => {
    const names = Array.from(
      { length: 10_000 },
      (_, i) => `${"n".repeat(295)}${String(i).padStart(5, "0")}`,
    );
    const typo = names[4_321]!.slice(0, -1) + "x";
    assert.equal(closestName(typo, names), names[4_320]);
  });
});

describe("editDistance() (the reference)", () => {
  it("counts insertions, deletions and substitutions", () => {
    assert.equal(editDistance("", ""), 0);
    assert.equal(editDistance("model", "model"), 0);
    assert.equal(editDistance("modle", "model"), 2);
    assert.equal(editDistance("kitten", "sitting"), 3);
    assert.equal(editDistance("", "abc"), 3);
    assert.equal(boundedEditDistance("kitten", "sitting", { max: 2 }), 3);
  });
});
