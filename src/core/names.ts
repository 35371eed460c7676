/**
 * Names: what a `{{reference}}` can spell.
 *
 * @module
 */

const REFERENCE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * Whether a `{{reference}}` can spell the name: letters, digits and
 * underscores, not starting with a digit, in segments joined by `.`.
 *
 * @param name The name.
 * @returns `true` for `model`, `git.branch`; `false` for `1x`, `a..b`, `a-b`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { isReferenceName } from "@dsh/system-prompt";
 *
 * assert.equal(isReferenceName("git.branch"), true);
 * assert.equal(isReferenceName("a..b"), false);
 * ```
 */
export function isReferenceName(name: string): boolean {
  return REFERENCE_NAME.test(name);
}
