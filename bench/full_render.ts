/**
 * `renderPrompt` with the reuse of earlier renders turned off: what a render
 * costs when every section is built again. The render and scaling groups
 * time this, so that repeating one assembly in a loop does not measure the
 * reuse; the step groups time the default, reuse on, as an agent runs it.
 *
 * @module
 */

import { type PromptAssembly, renderPrompt } from "../mod.ts";
import { useRenderMemo } from "../src/render/_render_text.ts";

/** Renders `assembly` from its parsed texts, reusing no earlier render. */
export function renderFull(assembly: PromptAssembly): string {
  const previous = useRenderMemo(false);
  try {
    return renderPrompt(assembly);
  } finally {
    useRenderMemo(previous);
  }
}
