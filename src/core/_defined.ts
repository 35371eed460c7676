/**
 * Optional fields as the public records show them: absent, never present
 * with `undefined` (under `exactOptionalPropertyTypes`, and for a reader
 * of JSON). Used by the registry (change events, registrations) and by
 * the inspection records built from an assembly. Covered by
 * tests/scope_test.ts and tests/explain_test.ts.
 *
 * @module
 */

/**
 * The object without its `undefined` fields, keys in their order: what an
 * optional field of a change event or a registration looks like. (Typed as
 * if every field were set: it only goes where they are optional.)
 */
export function defined<T extends object>(
  of: T,
): { [K in keyof T]: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const key in of) if (of[key] !== undefined) out[key] = of[key];
  return out as never;
}
