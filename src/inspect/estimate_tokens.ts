/**
 * The token estimate `explainPrompt` reports.
 *
 * @module
 */

/** Characters per token assumed by {@linkcode estimateTokens}. */
export const CHARS_PER_TOKEN = 4;

/**
 * An estimate of how many tokens `text` costs: one per 4 characters (UTF-16
 * code units), rounded up. That is the usual rule of thumb for English prose
 * with current BPE tokenizers; code, JSON and non-Latin scripts cost more.
 * It is for comparing parts of one prompt, not for billing: use the model
 * provider's token counter for exact figures.
 *
 * @param text The text.
 * @returns The estimate.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { estimateTokens } from "@dsh/system-prompt/inspect";
 *
 * assert.equal(estimateTokens("Check every exit code."), 6);
 * assert.equal(estimateTokens(""), 0);
 * ```
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
