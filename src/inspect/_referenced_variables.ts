/**
 * The variables a text references, for explanation and checks.
 *
 * @module
 */

import { compileTemplate } from "../render/_template.ts";

/**
 * The distinct reference names of a section or item text, in first-use
 * order; none for a literal one.
 */
export function referencedVariables(
  text: string,
  part: { literal?: boolean } = {},
): string[] {
  if (part.literal === true || text.indexOf("{{") === -1) return [];
  const { parts } = compileTemplate(text);
  // A set, not `names.includes`: linear in the references of the text.
  const names = new Set<string>();
  for (let k = 1; k < parts.length; k += 2) names.add(parts[k]!);
  return [...names];
}
