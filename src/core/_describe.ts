/**
 * How a message shows what user code handed over or threw, without
 * trusting it: a value by its kind, a thrown value by its message.
 *
 * @module
 */

/** A value named by its kind, never by reading it: `a promise`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  try {
    if (Array.isArray(value)) return "an array";
    if (typeof (value as { then?: unknown }).then === "function") {
      return "a promise";
    }
  } catch {
    // Described by its type below.
  }
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}

/** The message of anything thrown, never throwing itself. */
export function messageOf(error: unknown): string {
  try {
    return String(error instanceof Error ? error.message : error);
  } catch {
    return `(${describeValue(error)} that cannot be shown)`;
  }
}
