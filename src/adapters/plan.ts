/**
 * `planCache`: which blocks of a request get a cache breakpoint, and why.
 *
 * @module
 */

import {
  type PartSpan,
  type PromptAssembly,
  PromptError,
  type RenderedStep,
  type Stability,
  type StepBlock,
} from "../../mod.ts";
import { estimateTokens } from "../inspect/estimate_tokens.ts";
import { sectionsOf } from "../render/_blocks.ts";
import { stepBlocks } from "./_blocks.ts";
import {
  blockTokens,
  type Counter,
  type ToolEntry,
  toolEntry,
  toolTokens,
} from "./_counts.ts";
import { minimumFor, type ProviderProfile } from "./profiles.ts";
import { IN_PROMPT, rebalance, toolRun } from "./_tool_places.ts";
import { shortfall } from "./_shortfall.ts";

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

/**
 * Plans the cache breakpoints of one request by a provider's documented
 * rules: it never places more than the profile's maximum (less the
 * `reserve` left for messages), never at or after a `"step"` block, never
 * where the profile says nothing would be cached (a prefix, or for
 * Bedrock an increment since the previous breakpoint, under the model's
 * minimum). It picks, in this order while the budget lasts: the end of the
 * stable prefix (every later step reads it), the end of the static part
 * (with session tools, an MCP server's, after static ones: the end of
 * those static tools, `"tools-static"`), the end of the tools, other
 * stability boundaries; and says why each place was chosen or skipped
 * (the static tools' place only where it keeps more cached than another
 * use of the budget). A deferred tool (`deferLoading`, where the profile's
 * API takes it) is not in the prompt: it is counted in no prefix and never
 * marked. For a provider that caches by itself (OpenAI, Gemini) it places
 * none and notes whether the stable prefix reaches the minimum.
 *
 * @param source The assembly, or a step from `render()` (its blocks and
 * tools, no render again).
 * @param profile The provider's rules.
 * @param options The model, a token counter, the reserve and TTL.
 * @returns The plan, frozen.
 * @throws {PromptError} `invalid-option` for a `reserve` that is not a
 * non-negative integer, a TTL the profile does not offer, or a
 * `countTokens` that throws or returns anything but a non-negative finite
 * number; otherwise as `renderPrompt` does.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { BEDROCK, planCache } from "@dsh/system-prompt/adapters";
 *
 * const plan = planCache({
 *   sections: [
 *     { name: "persona", order: 0, text: "You are a coding agent. ".repeat(300) },
 *     { name: "clock", order: 900, text: "It is 09:00.", stability: "step" },
 *   ],
 *   tools: [{ name: "bash", description: "Runs a command. ".repeat(400), parameters: {} }],
 *   variables: {},
 * }, BEDROCK, { model: "anthropic.claude-sonnet-4-5-20250929-v1:0" });
 * assert.deepEqual(plan.choices.map((c) => [c.after, c.chosen, c.reason]), [
 *   ["tools", true, "tools"],
 *   [0, true, "stable-prefix"],
 *   [1, false, "after-step"],
 * ]);
 * ```
 */
export function planCache(
  source: PromptAssembly | RenderedStep,
  profile: ProviderProfile,
  options: PlanCacheOptions = {},
): CachePlan {
  const settings = settingsOf(options, profile);
  const tools = source.tools.map(toolEntry);
  const defers = profile.deferLoading === true;
  return planFrom(stepBlocks(source), tools, settings, defers);
}

/** The options of one request, read once. */
export interface Settings {
  readonly profile: ProviderProfile;
  readonly model: string | undefined;
  readonly count: Counter;
  /** `cache: false`. */
  readonly off: boolean;
  readonly reserve: number;
  readonly ttl: "5m" | "1h";
}

/** Each option read once and checked. */
export function settingsOf(
  options: AdapterOptions,
  fallback: ProviderProfile,
): Settings {
  const { model, profile = fallback, countTokens, cache } = options;
  const { reserve, ttl } = checkedCache(cache, profile);
  if (countTokens !== undefined && typeof countTokens !== "function") {
    throw new PromptError(
      "invalid-option",
      `Cannot plan cache breakpoints: countTokens must be a function, got ${typeof countTokens}`,
    );
  }
  const count = countTokens ?? estimateTokens;
  return { profile, model, count, off: cache === false, reserve, ttl };
}

/** Whether two requests' options are the same values. */
export function sameSettings(a: Settings, b: Settings): boolean {
  return a.profile === b.profile && a.model === b.model &&
    a.count === b.count && a.off === b.off && a.reserve === b.reserve &&
    a.ttl === b.ttl;
}

/** What a plan left for the host's message breakpoints. */
export interface Reserved {
  /** Breakpoints left for the messages: 0 with `cache: false`. */
  readonly slots: number;
  /** The TTL of the plan's breakpoints. */
  readonly ttl: "5m" | "1h";
}
const RESERVED = new WeakMap<CachePlan, Reserved>();

/** What a plan left for the messages; `undefined` for one not planned here. */
export function reservedBy(plan: CachePlan): Reserved | undefined {
  return RESERVED.get(plan);
}

/**
 * The plan for blocks and tools, frozen; `defers`: whether the request
 * sends a deferred tool as deferred (out of the prompt) or in full.
 */
export function planFrom(
  source: readonly StepBlock[],
  tools: readonly ToolEntry[],
  settings: Settings,
  defers: boolean,
): CachePlan {
  const { profile, model, count, ttl, reserve } = settings;
  const { minTokens, matched } = minimumFor(profile, model);
  const blocks = source.map((block): SystemBlock => ({
    text: block.text,
    sections: sectionsOf(block).slice(),
    stability: block.stability,
    tokens: blockTokens(count, block),
    parts: block.parts,
    spans: block.spans,
  }));
  const notes: string[] = [];
  const breakpoints = settings.off ? 0 : profile.breakpoints;
  const slots = Math.min(reserve, breakpoints);
  if (!matched) {
    notes.push(
      `${
        model === undefined
          ? "No model given"
          : `Model "${model}" is not in the table`
      }: the most conservative ${profile.provider} minimum applies, ${minTokens} tokens`,
    );
  }

  // Every place a breakpoint could go, in the provider's prefix order.
  const choices: CacheChoice[] = [];
  let tokens = 0;
  let step: string | undefined;
  const place = (
    after: CacheChoice["after"],
    stability: Stability,
    name: string,
    tool?: number,
  ) => {
    const choice: CacheChoice = {
      after,
      ...(tool === undefined ? {} : { tool }),
      tokens,
      chosen: false,
      reason: "boundary",
      detail: "",
    };
    if (step === undefined && stability === "step") step = name;
    if (step !== undefined) {
      choice.reason = "after-step";
      choice.detail = `at or after "${step}", which changes every step`;
    }
    choices.push(choice);
  };
  const toolCount = (entry: ToolEntry) => toolTokens(count, entry);
  const run = toolRun(tools, { count: toolCount, defers });
  notes.push(...run.notes);
  for (const part of profile.order) {
    if (part === "tools") {
      const before = tokens;
      for (const at of run.places) {
        tokens = before + at.tokens;
        place(at.after, at.stability, "tools", at.tool);
      }
    } else if (part === "system") {
      blocks.forEach((block, i) => {
        tokens += block.tokens;
        place(i, block.stability, block.sections[0]!);
      });
    }
  }
  const plan: CachePlan = {
    provider: profile.provider,
    minTokens,
    blocks,
    toolTokens: run.counts,
    choices,
    notes,
  };
  RESERVED.set(plan, { slots, ttl });
  IN_PROMPT.set(plan, run.inPrompt);
  const open = choices.filter((choice) => choice.reason !== "after-step");
  const stable = open.at(-1)?.tokens ?? 0;
  if (settings.off || profile.breakpoints === 0) {
    for (const choice of open) {
      choice.reason = settings.off ? "disabled" : "automatic";
      choice.detail = settings.off
        ? "cache: false"
        : `${profile.provider} caches a repeated prefix by itself`;
    }
    if (profile.breakpoints === 0) {
      notes.push(
        `The stable prefix is ${stable} tokens: ` +
          (stable >= minTokens
            ? `later steps can read it from cache (minimum ${minTokens})`
            : `under the minimum of ${minTokens}, nothing is cached`),
      );
    }
    return frozen(plan);
  }

  // Candidates by what they keep cached, best first.
  // The tools end is session-stable when a session tool is in the prompt:
  // the static part then ends with the static tools before it.
  const isStatic = (choice: CacheChoice) =>
    choice.after === "tools-static" ||
    (choice.after === "tools"
      ? run.firstSession === -1
      : blocks[choice.after]!.stability === "static");
  const staticEnd = open.findIndex((choice) => !isStatic(choice));
  const staticPrefix = staticEnd === -1 ? undefined : open[staticEnd - 1];
  const ranked: [CacheChoice | undefined, CacheReason][] = [
    [open.at(-1), "stable-prefix"],
    [staticPrefix, staticPrefix?.after === A_RUN ? A_RUN : "static-prefix"],
    [open.find((choice) => choice.after === "tools"), "tools"],
    ...open.slice().reverse().map((
      c,
    ): [CacheChoice, CacheReason] => [c, "boundary"]),
  ];
  const budget = Math.max(0, profile.breakpoints - reserve);
  const chosen: CacheChoice[] = [];
  for (const [choice, reason] of ranked) {
    if (choice === undefined || choice.chosen || choice.detail !== "") continue;
    const short = shortfall([...chosen, choice], { profile, minTokens });
    if (short !== undefined && short.at === choice) {
      choice.reason = "under-minimum";
      choice.detail = short.detail;
    } else if (short !== undefined) {
      continue; // it would starve a chosen one; another candidate may fit
    } else if (chosen.length >= budget) {
      choice.reason = "over-budget";
      choice.detail = `${budget} of ${profile.breakpoints} breakpoints are ` +
        `for tools and system, ${reserve} left for the messages; all spent`;
    } else {
      chosen.push(choice);
      const detail = reason === "tools-static"
        ? run.staticDetail
        : CHOSEN[reason];
      Object.assign(choice, { chosen: true, reason, detail, ttl });
    }
  }
  // The static run's breakpoint, only where it keeps more cached.
  rebalance(chosen, {
    open,
    blocks,
    starves: (set) => shortfall(set, { profile, minTokens }),
    detail: (reason) => CHOSEN[reason]!,
    ttl,
  });
  for (const choice of open) {
    if (choice.detail !== "") continue;
    // Fine alone, but it would cut a chosen increment under the minimum.
    const short = shortfall([...chosen, choice], { profile, minTokens })!;
    choice.reason = "under-minimum";
    choice.detail =
      `it would leave a chosen breakpoint under the minimum (${short.detail})`;
  }
  return frozen(plan);
}

const A_RUN: CacheReason = "tools-static";
const CHOSEN: Readonly<Partial<Record<CacheReason, string>>> = {
  "stable-prefix": "the end of everything that does not change every step",
  "static-prefix":
    "the end of the static part: read again after a session change",
  tools: "the end of the tools: read again after a system-prompt change",
  boundary: "a change of stability",
};

function checkedCache(
  cache: AdapterOptions["cache"],
  profile: ProviderProfile,
): { reserve: number; ttl: "5m" | "1h" } {
  const { reserve = 1, ttl = "5m" } = cache === false ? {} : cache ?? {};
  if (!Number.isInteger(reserve) || reserve < 0) {
    throw new PromptError(
      "invalid-option",
      `Cannot plan cache breakpoints: reserve must be a non-negative integer, got ${reserve}`,
    );
  }
  if (profile.breakpoints > 0 && !profile.ttls.includes(ttl)) {
    throw new PromptError(
      "invalid-option",
      `Cannot plan cache breakpoints: ${profile.provider} offers no TTL "${ttl}"`,
    );
  }
  return { reserve, ttl };
}

/** A plan shared by requests cannot be edited through one of them. */
function frozen(plan: CachePlan): CachePlan {
  for (const block of plan.blocks) Object.freeze(block.sections);
  for (const list of [plan.blocks, plan.choices]) list.forEach(Object.freeze);
  Object.freeze(plan.blocks);
  Object.freeze(plan.choices);
  Object.freeze(plan.toolTokens);
  Object.freeze(plan.notes);
  return Object.freeze(plan);
}
