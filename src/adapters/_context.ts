/**
 * The runtime context's text, rendered by `renderPrompt`'s rules: the one
 * place to swap in the core's `renderContext` once assemblies carry
 * `contexts`.
 *
 * @module
 */

import {
  type AssembledSection,
  type PromptAssembly,
  renderPrompt,
} from "../../mod.ts";

/** `renderContext(assembly)`: the contexts rendered, `""` when none renders. */
export function contextText(assembly: PromptAssembly): string {
  const { contexts } = assembly as { contexts?: AssembledSection[] };
  if (contexts === undefined || contexts.length === 0) return "";
  return renderPrompt({ ...assembly, sections: contexts });
}
