/**
 * `cacheBlocks`: the rendered prompt split at stable boundaries, for a
 * host to mark with a provider's prompt-cache breakpoints.
 *
 * @module
 */

import { explainPrompt } from "./explain.ts";
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
 * assert.deepEqual(blocks, [{ text: "A", sections: ["a"], stability: "static", cache: true }]);
 * ```
 */
export interface CacheBlock {
  /** The block's part of the prompt (without the blank line between blocks). */
  text: string;
  /** Its sections' names, in order. */
  sections: string[];
  /** The stability all its sections declared. */
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
   * The most breakpoints to mark. Anthropic allows 4 per request, shared
   * with tools and messages.
   * @default {4}
   */
  maxBreakpoints?: number;
}

/**
 * Splits the rendered prompt into blocks of consecutive sections with the
 * same declared stability, and marks where a cache breakpoint pays: at the
 * end of each block before the first `"step"` block (text after something
 * that changes every step is never a cache hit), the last `maxBreakpoints`
 * of them. `blocks.map((b) => b.text).join("\n\n")` is exactly
 * `renderPrompt(assembly)`.
 *
 * @param assembly The assembly.
 * @param options How many breakpoints to mark.
 * @returns The blocks, in prompt order.
 * @throws {PromptError} As `renderPrompt` does.
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
 * assert.equal(blocks.map((b) => b.text).join("\n\n"), renderPrompt(assembly));
 * ```
 */
export function cacheBlocks(
  assembly: PromptAssembly,
  options: CacheBlocksOptions = {},
): CacheBlock[] {
  const maxBreakpoints = options.maxBreakpoints ?? 4;
  const { text, sections } = explainPrompt(assembly);
  const blocks: (CacheBlock & { start: number; end: number })[] = [];
  for (const section of sections) {
    const last = blocks.at(-1);
    if (last !== undefined && last.stability === section.stability) {
      last.sections.push(section.name);
      last.end = section.end;
    } else {
      blocks.push({
        text: "",
        sections: [section.name],
        stability: section.stability,
        cache: false,
        start: section.start,
        end: section.end,
      });
    }
  }
  let prefix = blocks.findIndex((block) => block.stability === "step");
  if (prefix === -1) prefix = blocks.length;
  for (let i = Math.max(0, prefix - maxBreakpoints); i < prefix; i++) {
    blocks[i]!.cache = true;
  }
  return blocks.map(({ start, end, sections, stability, cache }) => ({
    text: text.slice(start, end),
    sections,
    stability,
    cache,
  }));
}
