/**
 * Assemblies built by hand, for tests of the functions that take one.
 *
 * @module
 */

import type {
  AssembledItem,
  AssembledSection,
  PromptAssembly,
} from "../../mod.ts";

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

/** An item at order 0 (or as `extra` says). */
export function item(
  name: string,
  text: string,
  extra: Partial<AssembledItem> = {},
): AssembledItem {
  return { name, order: 0, text, ...extra };
}

/**
 * An assembly of these sections (orders by position, text `""` unless
 * given), no tools and no variables unless `extra` gives them.
 */
export function assemblyWith(
  sections: (Partial<AssembledSection> & { name: string })[],
  extra: Partial<PromptAssembly> = {},
): PromptAssembly {
  return {
    sections: sections.map((s, i) => ({ order: i, text: "", ...s })),
    tools: [],
    variables: {},
    ...extra,
  };
}
