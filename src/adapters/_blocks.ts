/**
 * The system prompt of a request's source in blocks of one stability:
 * a step's own `blocks`, or an assembly's prompt rendered and cut.
 *
 * @module
 */

import type { PromptAssembly, RenderedStep, StepBlock } from "../core/types.ts";
import { assemblyBlocks } from "../render/_blocks.ts";

/** Whether a source is a rendered step rather than an assembly. */
export function isStep(
  source: PromptAssembly | RenderedStep,
): source is RenderedStep {
  return typeof source === "object" && source !== null &&
    typeof (source as RenderedStep).prompt === "string" &&
    Array.isArray((source as RenderedStep).blocks);
}

/** A step's `blocks`, or an assembly's prompt rendered once and cut. */
export function stepBlocks(
  source: PromptAssembly | RenderedStep,
): readonly StepBlock[] {
  return isStep(source) ? source.blocks : assemblyBlocks(source).blocks;
}
