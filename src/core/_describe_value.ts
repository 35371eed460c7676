/**
 * Names a wrong value in an error message without dumping it.
 *
 * @module
 */

/** `null`, `undefined`, `an array`, `an object`, or `a <typeof>`. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}
