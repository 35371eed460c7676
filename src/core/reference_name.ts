/**
 * The name grammar shared by variable registration and rendering.
 *
 * @module
 */

/**
 * `NAME` segments (`[A-Za-z_][A-Za-z0-9_]*`) joined by single dots, e.g.
 * `model` or `git.branch`. Anchored and free of nested quantifiers over the
 * same characters, so a test is linear in the name's length.
 */
const REFERENCE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * Whether `name` can be written as a `{{name}}` reference.
 *
 * @param name The candidate name.
 * @returns `true` for `model`, `git.branch`, `_x1`; `false` for `1x`,
 * `a..b`, `a b` and the empty string.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { isReferenceName } from "@dsh/system-prompt";
 *
 * assert.ok(isReferenceName("git.branch"));
 * assert.ok(!isReferenceName("git..branch"));
 * ```
 */
export function isReferenceName(name: string): boolean {
  return REFERENCE_NAME.test(name);
}
