/**
 * `cacheBlocks`: the rendered system prompt split at stability
 * boundaries, for a host to mark with a provider's prompt-cache
 * breakpoints.
 *
 * @module
 */

import { describeValue, failure } from "../core/errors.ts";
import { explainSequence, type ItemExplanation } from "./explain.ts";
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

const VOLATILITY: Readonly<Record<Stability, number>> = {
  static: 0,
  session: 1,
  step: 2,
};

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
  const maxBreakpoints = checkedMaxBreakpoints(options);
  // The runtime context is its own channel: a broken one does not block this.
  const { text, sections } = explainSequence(assembly, "section");
  const blocks: CacheBlock[] = [];
  let end = 0;
  for (const section of sections) {
    const stability = mostVolatile(section);
    const last = blocks.at(-1);
    if (last?.stability === stability) {
      last.sections.push(section.name);
      last.text += text.slice(end, section.end);
    } else {
      blocks.push({
        separator: text.slice(section.separatorStart, section.start),
        text: text.slice(section.start, section.end),
        sections: [section.name],
        stability,
        cache: false,
      });
    }
    end = section.end;
  }
  let prefix = blocks.findIndex((block) => block.stability === "step");
  if (prefix === -1) prefix = blocks.length;
  for (let i = Math.max(0, prefix - maxBreakpoints); i < prefix; i++) {
    blocks[i]!.cache = true;
  }
  return blocks;
}

/** A part's stability, or its most volatile rendered item's (at any depth). */
function mostVolatile(part: ItemExplanation): Stability {
  return (part.items ?? []).map(mostVolatile).reduce(
    (most, stability) =>
      VOLATILITY[stability] > VOLATILITY[most] ? stability : most,
    part.stability,
  );
}

function checkedMaxBreakpoints(options: CacheBlocksOptions): number {
  const state = (expected: string, value: unknown) =>
    failure(
      "invalid-option",
      "split cache blocks",
      {},
      `${expected}, got ${value}`,
    );
  if (typeof options !== "object" || options === null) {
    throw new TypeError(
      state("options must be an object", describeValue(options)).message,
    );
  }
  const { maxBreakpoints = 3 } = options;
  if (typeof maxBreakpoints !== "number") {
    const got = describeValue(maxBreakpoints);
    throw new TypeError(state("maxBreakpoints must be a number", got).message);
  }
  if (!Number.isInteger(maxBreakpoints) || maxBreakpoints < 0) {
    throw state(
      "maxBreakpoints must be a non-negative integer",
      maxBreakpoints,
    );
  }
  return maxBreakpoints;
}
