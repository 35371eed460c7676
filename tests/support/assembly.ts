/**
 * Assemblies built by hand, for tests of the functions that take one.
 *
 * @module
 */

import type { PromptAssembly } from "../../src/core/types.ts";

/**
 * An assembly with one section per text (`s0`, `s1`, … at orders 0, 1, …),
 * no tools, and `variables` copied into a null-prototype object, as the
 * registry builds it. Values of the wrong type are let through on purpose:
 * tests of bad input need them.
 */
export function assemblyOf(
  texts: readonly unknown[],
  variables: Record<string, unknown> = {},
): PromptAssembly {
  return {
    sections: texts.map((text, i) => ({
      name: `s${i}`,
      order: i,
      text: text as string,
    })),
    tools: [],
    variables: Object.assign(Object.create(null), variables),
  };
}
