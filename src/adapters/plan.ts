/**
 * A cache plan: which blocks of a request get a cache breakpoint, and why
 * (`planCache` in `plan_cache.ts` makes one).
 *
 * @module
 */

import type { PartSpan, Stability } from "../../mod.ts";
import type { ProviderProfile } from "./profiles.ts";

/**
 * How an adapter caches. `false` (in {@linkcode AdapterOptions}) places no
 * breakpoint at all.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { CacheOptions } from "@dsh/system-prompt/adapters";
 *
 * const options: CacheOptions = { reserve: 2, ttl: "1h" };
 * assert.equal(options.reserve, 2);
 * ```
 */
export interface CacheOptions {
  /**
   * Breakpoints left for the conversation's messages (the host marks them).
   * @default {1}
   */
  reserve?: number;
  /**
   * The TTL of every breakpoint the plan places. A longer TTL must come
   * before a shorter one, so the host's message breakpoints may not ask
   * for more than this.
   * @default {"5m"}
   */
  ttl?: "5m" | "1h";
}

/**
 * The options every adapter takes.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type AdapterOptions, BEDROCK } from "@dsh/system-prompt/adapters";
 *
 * const options: AdapterOptions = { model: "claude-sonnet-4-5", profile: BEDROCK };
 * assert.equal(options.profile?.provider, "bedrock");
 * ```
 */
export interface AdapterOptions {
  /**
   * The model id: picks the minimum cacheable length from the profile. An
   * unknown or absent model gets the profile's most conservative minimum.
   * @default {undefined}
   */
  model?: string;
  /** The provider's cache rules. @default {the adapter's provider} */
  profile?: ProviderProfile;
  /** Counts a text's tokens. @default {estimateTokens} */
  countTokens?: (text: string) => number;
  /** `false` places no breakpoint. @default {{}} */
  cache?: false | CacheOptions;
}

/**
 * The options of {@linkcode planCache}: an adapter's, without the profile.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { PlanCacheOptions } from "@dsh/system-prompt/adapters";
 *
 * const options: PlanCacheOptions = { cache: false };
 * assert.equal(options.cache, false);
 * ```
 */
export type PlanCacheOptions = Omit<AdapterOptions, "profile">;

/**
 * A run of the system prompt with one stability: the unit a breakpoint can
 * follow. Joined in order, the blocks' texts are the prompt.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { ANTHROPIC, planCache, type SystemBlock } from "@dsh/system-prompt/adapters";
 *
 * const [block]: SystemBlock[] = planCache(
 *   { sections: [{ name: "a", order: 0, text: "Hi." }], tools: [], variables: {} },
 *   ANTHROPIC,
 * ).blocks;
 * assert.deepEqual(block, {
 *   text: "Hi.",
 *   sections: ["a"],
 *   stability: "static",
 *   tokens: 2,
 *   parts: ["a"],
 *   spans: [{ start: 0, end: 3 }],
 * });
 * ```
 */
export interface SystemBlock {
  /** Its text, with the separator before it (none for the first). */
  text: string;
  /** The sections it holds (part of a list, where items differ in stability). */
  sections: string[];
  /** The stability of everything in it. */
  stability: Stability;
  /** Its tokens, by `countTokens`. */
  tokens: number;
  /** Its parts, as in the step's blocks: sections, or a cut list's heading and item paths. */
  parts: readonly string[];
  /** Each part's owner, layer and span in `text`, aligned with `parts`. */
  spans: readonly PartSpan[];
}

/**
 * Why a place got a breakpoint or did not. Chosen: `"stable-prefix"` (the
 * end of all that does not change every step), `"static-prefix"` (the end
 * of the static part, still read after a session-stable block changed),
 * `"tools-static"` (the end of the static tools before the first session
 * tool: still read after a session tool, an MCP server's, changed),
 * `"tools"` (the end of the tools, still read after the system prompt
 * changed), `"boundary"` (another change of stability). Skipped:
 * `"under-minimum"`, `"over-budget"`, `"after-step"`, `"automatic"` (the
 * provider caches by itself), `"disabled"` (`cache: false`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { CacheReason } from "@dsh/system-prompt/adapters";
 *
 * const reason: CacheReason = "under-minimum";
 * assert.equal(reason, "under-minimum");
 * ```
 */
export type CacheReason =
  | "stable-prefix"
  | "static-prefix"
  | "tools-static"
  | "tools"
  | "boundary"
  | "under-minimum"
  | "over-budget"
  | "after-step"
  | "automatic"
  | "disabled";

/**
 * One place a breakpoint could go: after the tools, after the static tools
 * that come before the first session tool, or after a system block.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { ANTHROPIC, type CacheChoice, planCache } from "@dsh/system-prompt/adapters";
 *
 * const [choice]: CacheChoice[] = planCache(
 *   { sections: [{ name: "a", order: 0, text: "Hi." }], tools: [], variables: {} },
 *   ANTHROPIC,
 *   { model: "claude-sonnet-4-5" },
 * ).choices;
 * assert.equal(choice?.reason, "under-minimum");
 * ```
 */
export interface CacheChoice {
  /**
   * `"tools"` (after the last tool), `"tools-static"` (after the last
   * static tool before the first session tool: offered only when session
   * tools follow it), or the index in `blocks` of the block it follows.
   */
  after: "tools" | "tools-static" | number;
  /**
   * For `"tools"` and `"tools-static"`: the index, in the step's tools, of
   * the tool the mark goes on (a deferred tool never gets it: it is not in
   * the prompt).
   */
  tool?: number;
  /** Tokens of the request's prefix up to here, in the provider's order. */
  tokens: number;
  /** Whether the plan puts a breakpoint here. */
  chosen: boolean;
  /** Why. */
  reason: CacheReason;
  /** The reason in words, with the figures. */
  detail: string;
  /** The TTL of a chosen breakpoint. */
  ttl?: "5m" | "1h";
}

/**
 * What {@linkcode planCache} returns.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { OPENAI, type CachePlan, planCache } from "@dsh/system-prompt/adapters";
 *
 * const plan: CachePlan = planCache({ sections: [], tools: [], variables: {} }, OPENAI);
 * assert.equal(plan.minTokens, 1024);
 * ```
 */
export interface CachePlan {
  /** The profile's provider. */
  provider: string;
  /** The minimum cacheable tokens the plan applied. */
  minTokens: number;
  /** The system prompt in blocks: their texts join to `renderPrompt`'s. */
  blocks: SystemBlock[];
  /**
   * Tokens of each tool, in assembly order. A tool the request defers
   * (`deferLoading`, where the provider takes it) is not in the prompt
   * until the model loads it: its tokens are in no choice's prefix.
   */
  toolTokens: number[];
  /** Every place a breakpoint could go, in the provider's prefix order. */
  choices: CacheChoice[];
  /** What else the plan assumed (an unknown model, a prefix under the minimum). */
  notes: string[];
}
