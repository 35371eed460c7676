/**
 * Names a wrong value in an error message without dumping it.
 *
 * @module
 */

import { isThenable } from "./_is_thenable.ts";

/**
 * `null`, `undefined`, `an array`, `a promise`, `an object`, or
 * `a <typeof>`. Never throws: a revoked proxy or a throwing `then` getter
 * is just `an object`.
 */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  try {
    if (Array.isArray(value)) return "an array";
    if (isThenable(value)) return "a promise";
  } catch {
    // Described by its type below.
  }
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}
