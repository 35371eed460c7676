/**
 * Arbitrary JSON schemas and key permutations, for tests of key order: a
 * listing that only reorders keys at any depth.
 *
 * @module
 */

import fc from "fast-check";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | {
  [key: string]: Json;
};

// The keys JSON schemas use, `__proto__` (an own property in JSON.parse
// output, a prototype setter to a careless copy) and any short string.
const key = fc.oneof(
  fc.constantFrom(
    "type",
    "properties",
    "items",
    "enum",
    "required",
    "description",
    "__proto__",
    "a",
    "b",
  ),
  fc.string({ minLength: 1, maxLength: 6 }),
);
/** Objects like JSON schemas: keys that schemas use, `__proto__` and others, nested. */
export const { schema } = fc.letrec<
  { value: Json; schema: { [key: string]: Json } }
>((
  tie,
) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
    fc.array(tie("value"), { maxLength: 3 }),
    tie("schema"),
  ) as fc.Arbitrary<Json>,
  schema: fc.dictionary(key, tie("value"), { maxKeys: 5 }) as fc.Arbitrary<
    { [key: string]: Json }
  >,
}));

/** `value` with the keys of every object in an order `seed` picks. */
export function permuted(value: Json, seed: number[]): Json {
  let next = 0;
  const pick = (n: number) => (seed[next++ % seed.length] ?? 0) % n;
  const walk = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== "object" || value === null) return value;
    const keys = Object.keys(value);
    const order: string[] = [];
    while (keys.length > 0) order.push(keys.splice(pick(keys.length), 1)[0]!);
    return Object.fromEntries(order.map((key) => [key, walk(value[key]!)]));
  };
  return walk(value);
}
