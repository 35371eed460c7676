/**
 * `cacheBlocks`: the rendered system prompt split at stability
 * boundaries, for a host to mark with a provider's prompt-cache
 * breakpoints.
 *
 * @module
 */

import { optionError, type OptionFault } from "./_options.ts";
import { unreadable } from "../core/_messages.ts";
import { explainSequence } from "./_sequence.ts";
import type { PromptAssembly, Stability } from "../core/types.ts";

/**
 * A run of consecutive sections with one stability.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type CacheBlock, cacheBlocks } from "@dsh/system-prompt/inspect";
 *
 * const blocks: CacheBlock[] = cacheBlocks({
 *   sections: [{ name: "a", order: 0, text: "A" }],
 *   tools: [],
 *   variables: {},
 * });
 * assert.deepEqual(blocks, [
 *   { separator: "", text: "A", sections: ["a"], stability: "static", cache: true },
 * ]);
 * ```
 */
export interface CacheBlock {
  /**
   * The separator between the previous block and this one (`""` for the
   * first): `blocks.map((b) => b.separator + b.text).join("")` is exactly
   * the rendered prompt.
   */
  separator: string;
  /** The block's part of the prompt, without the separator before it. */
  text: string;
  /** Its sections' names, in order. */
  sections: string[];
  /**
   * The stability of all its sections, each as volatile as its most
   * volatile part (the items of its lists, nested ones included).
   */
  stability: Stability;
  /** Whether to put a cache breakpoint at the end of this block. */
  cache: boolean;
}

/**
 * Options of {@linkcode cacheBlocks}.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { CacheBlocksOptions } from "@dsh/system-prompt/inspect";
 *
 * const options: CacheBlocksOptions = { maxBreakpoints: 2 };
 * assert.equal(options.maxBreakpoints, 2);
 * ```
 */
export interface CacheBlocksOptions {
  /**
   * The most breakpoints to mark in the system prompt: a non-negative
   * integer. Anthropic and Bedrock allow 4 per request, shared with the
   * tools; the default leaves one for a breakpoint after the tools.
   * @default {3}
   */
  maxBreakpoints?: number;
}

/**
 * Splits the rendered system prompt into blocks of consecutive sections
 * with the same stability, and marks where a cache breakpoint pays: at the
 * end of each block before the first `"step"` block (text after something
 * that changes every step is never a cache hit), the last `maxBreakpoints`
 * of them. `blocks.map((b) => b.separator + b.text).join("")` is exactly
 * `renderPrompt(assembly)`, whatever the separators. A section is as
 * volatile as its most volatile item (nested lists included), so a block
 * is never more stable than any part of it. Runtime-context entries are
 * not part of the system prompt and are ignored. For a plan that knows a
 * provider's breakpoint budget, minimum lengths and the tools, use the
 * adapters' `planCache`.
 *
 * @param assembly The assembly.
 * @param options How many breakpoints to mark.
 * @returns The blocks, in prompt order.
 * @throws {TypeError} If `options` is not an object or `maxBreakpoints` not a number.
 * @throws {PromptError} `invalid-option` for a `maxBreakpoints` that is not
 * a non-negative integer; otherwise as `renderPrompt` does.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderPrompt, SystemPrompt } from "@dsh/system-prompt";
 * import { cacheBlocks } from "@dsh/system-prompt/inspect";
 *
 * const prompt = new SystemPrompt<{ cwd?: string; time?: string }>();
 * prompt.section({ name: "persona", order: 0, text: "You are a coding agent." });
 * prompt.section({ name: "tool:bash", order: 105, text: "Check exit codes." });
 * prompt.section({ name: "workspace", order: 500, stability: "session", text: (c) => `In ${c.cwd}.` });
 * prompt.section({ name: "clock", order: 900, stability: "step", text: (c) => `It is ${c.time}.` });
 * const assembly = await prompt.assemble({ cwd: "/repo", time: "09:00" });
 * const blocks = cacheBlocks(assembly);
 * assert.deepEqual(blocks.map((b) => [b.sections, b.cache]), [
 *   [["persona", "tool:bash"], true],
 *   [["workspace"], true],
 *   [["clock"], false],
 * ]);
 * assert.equal(blocks.map((b) => b.separator + b.text).join(""), renderPrompt(assembly));
 * ```
 */
export function cacheBlocks(
  assembly: PromptAssembly,
  options: CacheBlocksOptions = {},
): CacheBlock[] {
  const fail = (fault: OptionFault) => optionError("split cache blocks", fault);
  if (typeof options !== "object" || options === null) {
    throw fail({ state: "options must be an object", got: options });
  }
  let max: unknown;
  try {
    max = options.maxBreakpoints ?? 3;
  } catch (error) {
    throw unreadable(error, {
      action: "split cache blocks",
      what: "its options",
    });
  }
  if (typeof max !== "number") {
    throw fail({ state: "maxBreakpoints must be a number", got: max });
  }
  if (!Number.isInteger(max) || max < 0) {
    const state = "maxBreakpoints must be a non-negative integer";
    throw fail({ state: `${state}, got ${max}` });
  }
  // The runtime context is its own channel: a broken one does not block this.
  const { text, sections } = explainSequence(assembly, "section");
  const blocks: CacheBlock[] = [];
  let from = 0; // where the last block's text starts
  // A section's stability is already its most volatile item's.
  for (const { name, stability, separatorStart, start, end } of sections) {
    if (blocks.at(-1)?.stability !== stability) {
      const separator = text.slice(separatorStart, start);
      // Its text is cut below, as for a section that joins it.
      blocks.push({ separator, text, sections: [], stability, cache: false });
      from = start;
    }
    const block = blocks.at(-1)!;
    block.sections.push(name);
    block.text = text.slice(from, end);
  }
  // Text after a block that changes every step is never a cache hit.
  const step = blocks.findIndex((block) => block.stability === "step");
  const prefix = step === -1 ? blocks.length : step;
  const cached = blocks.slice(Math.max(0, prefix - max), prefix);
  for (const block of cached) block.cache = true;
  return blocks;
}
