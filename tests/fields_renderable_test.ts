// The renderer's own field check and the field table give one verdict: the
// renderer keeps a copy of the rules for speed, and this test is what keeps
// the copy true when the table gains a rule.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  isRenderable,
  isValidPart,
  LIST_FIELDS,
  PART_FIELDS,
} from "../src/core/_fields.ts";

const anyValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.string({ maxLength: 3 }),
  fc.constantFrom("static", "session", "step", ""),
  fc.integer(),
  fc.constant(NaN),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.constant(() => ""),
);
// The table's fields, with a section's `complete` and what the library sets.
const FIELDS = [
  ...PART_FIELDS.filter((field) => field !== "list"),
  "complete",
  "owner",
  "layer",
];
const LAYOUT = LIST_FIELDS;

/** A part that is mostly valid, with a few fields of any kind. */
const part = fc.record({
  base: fc.record({
    name: fc.constantFrom("a", "b"),
    order: fc.integer(),
    text: fc.string({ maxLength: 3 }),
  }),
  wild: fc.dictionary(fc.constantFrom(...FIELDS), anyValue, { maxKeys: 2 }),
  shadows: fc.option(
    fc.oneof(
      anyValue,
      fc.dictionary(fc.constantFrom("owner", "layer"), anyValue),
    ),
    { nil: undefined },
  ),
  list: fc.option(
    fc.oneof(anyValue, fc.dictionary(fc.constantFrom(...LAYOUT), anyValue)),
    { nil: undefined },
  ),
  items: fc.option(anyValue, { nil: undefined }),
}).map(({ base, wild, shadows, list, items }) => ({
  ...base,
  ...wild,
  ...(shadows === undefined ? {} : { shadows }),
  ...(list === undefined ? {} : { list }),
  ...(items === undefined ? {} : { items }),
}));

/** The fields `check` reads of a valid section with a list, shadows and items, in order. */
function reads(check: (part: unknown, kind: "section") => boolean): string[] {
  const read: string[] = [];
  const watched = (prefix: string, target: object): object =>
    new Proxy(target, {
      get(object, key, receiver) {
        read.push(prefix + String(key));
        return Reflect.get(object, key, receiver);
      },
    });
  const part = {
    name: "a",
    order: 0,
    text: "",
    shadows: watched("shadows.", {}),
    list: watched("list.", {}),
    items: [],
  };
  assert.equal(check(watched("", part), "section"), true);
  return read;
}

describe("the renderer's field check", () => {
  it("reads the fields of the field table, in its order", () => {
    assert.deepEqual(reads(isRenderable), reads(isValidPart));
  });

  it("gives the field table's verdict on any part (property)", () => {
    fc.assert(
      fc.property(part, fc.constantFrom("section", "item"), (p, kind) => {
        assert.equal(
          isRenderable(p, kind),
          isValidPart(p, kind),
          JSON.stringify(p),
        );
      }),
      { numRuns: 5000 },
    );
  });
});
