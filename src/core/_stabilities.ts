/**
 * The values a `stability` field may take, checked by sections and items.
 *
 * @module
 */

/** `"static"`, `"session"`, `"step"`. */
export const STABILITIES: readonly unknown[] = ["static", "session", "step"];
