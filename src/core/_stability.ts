/**
 * The stability ranking, from the least volatile: what a cache block, an
 * explanation and the field table say about how often a text changes.
 *
 * @module
 */

import type { Stability, ToolStability } from "./types.ts";

/** Every stability, from the least volatile: a stability's rank is its index. */
export const STABILITIES: readonly Stability[] = ["static", "session", "step"];

/** A tool provider's stabilities: a tool never changes per step. */
export const TOOL_STABILITIES: readonly ToolStability[] = ["static", "session"];

/** The rank of a stability in {@linkcode STABILITIES}; anything else is static. */
export function stabilityRank(stability: unknown): number {
  return stability === "step" ? 2 : stability === "session" ? 1 : 0;
}
