/**
 * The shape test for what a `system-prompt/assemble` handler returns.
 *
 * @module
 */

import type { PromptAssembly } from "./types.ts";

/** Whether `value` has the arrays and the object an assembly needs. */
export function isAssembly(value: unknown): value is PromptAssembly {
  if (typeof value !== "object" || value === null) return false;
  const { sections, tools, variables } = value as PromptAssembly;
  return Array.isArray(sections) && Array.isArray(tools) &&
    typeof variables === "object" && variables !== null;
}
