/**
 * How `planCache` plans: the options read once into settings, the
 * breakpoints chosen over a step's blocks and tools, and the reserve each
 * plan leaves for the messages.
 *
 * @module
 */

import type { Stability, StepBlock } from "../../mod.ts";
import type {
  AdapterOptions,
  CacheChoice,
  CachePlan,
  CacheReason,
  SystemBlock,
} from "./plan.ts";
import { estimateTokens } from "../inspect/estimate_tokens.ts";
import { sectionsOf } from "../render/_blocks.ts";
import {
  blockTokens,
  type Counter,
  type ToolEntry,
  toolTokens,
} from "./_counts.ts";
import { minimumFor } from "./_minimum.ts";
import type { ProviderProfile } from "./profiles.ts";
import { IN_PROMPT, rebalance, toolRun } from "./_tool_places.ts";
import { shortfall } from "./_shortfall.ts";
import { describeValue } from "../core/_describe.ts";
import { failure } from "../core/_messages.ts";

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
    throw failure({
      code: "invalid-option",
      action: "plan cache breakpoints",
      problem: `countTokens must be a function, got ${
        describeValue(countTokens)
      }`,
    });
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

/** A step block as a plan shows it, by the counter that counted it last. */
const SYSTEM_BLOCKS = new WeakMap<
  StepBlock,
  { count: Counter; block: SystemBlock }
>();

/**
 * A step block as a plan shows it: frozen, so that the plans of steps that
 * share the block (a step where another block changed) share it too.
 */
function systemBlock(block: StepBlock, count: Counter): SystemBlock {
  const known = SYSTEM_BLOCKS.get(block);
  if (known !== undefined && known.count === count) return known.block;
  const shown: SystemBlock = {
    text: block.text,
    sections: sectionsOf(block).slice(),
    stability: block.stability,
    tokens: blockTokens(count, block),
    parts: block.parts,
    spans: block.spans,
  };
  Object.freeze(shown.sections);
  Object.freeze(shown);
  SYSTEM_BLOCKS.set(block, { count, block: shown });
  return shown;
}

/** The tools' places of an entries list, by counter and deferral. */
const TOOL_RUNS = new WeakMap<
  readonly ToolEntry[],
  { count: Counter; defers: boolean; run: ReturnType<typeof toolRun> }
>();

/**
 * The tools' places, counted once per entries list (the same list while a
 * step's tools stay the same), counter and deferral; frozen, since plans
 * share it.
 */
function toolRunOf(
  tools: readonly ToolEntry[],
  count: Counter,
  defers: boolean,
): ReturnType<typeof toolRun> {
  const known = TOOL_RUNS.get(tools);
  if (known?.count === count && known.defers === defers) return known.run;
  const run = toolRun(tools, {
    count: (entry) => toolTokens(count, entry),
    defers,
  });
  for (const list of [run.places, run.notes, run.counts, run.inPrompt]) {
    Object.freeze(list);
  }
  TOOL_RUNS.set(tools, { count, defers, run });
  return run;
}

/**
 * The plan for blocks and tools, frozen; `defers`: whether the request
 * sends a deferred tool as deferred (out of the prompt) or in full.
 */
export function planFrom(
  source: readonly StepBlock[],
  { tools, settings, defers }: {
    tools: readonly ToolEntry[];
    settings: Settings;
    defers: boolean;
  },
): CachePlan {
  const { profile, model, count, ttl, reserve } = settings;
  const { minTokens, matched } = minimumFor(profile, model);
  const blocks = source.map((block) => systemBlock(block, count));
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
  const run = toolRunOf(tools, count, defers);
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
    throw failure({
      code: "invalid-option",
      action: "plan cache breakpoints",
      problem: `reserve must be a non-negative integer, got ${reserve}`,
    });
  }
  if (profile.breakpoints > 0 && !profile.ttls.includes(ttl)) {
    throw failure({
      code: "invalid-option",
      action: "plan cache breakpoints",
      problem: `${profile.provider} offers no TTL "${ttl}"`,
    });
  }
  return { reserve, ttl };
}

/**
 * A plan shared by requests cannot be edited through one of them (its
 * blocks and tool counts are frozen where they are made, and shared).
 */
function frozen(plan: CachePlan): CachePlan {
  plan.choices.forEach(Object.freeze);
  Object.freeze(plan.blocks);
  Object.freeze(plan.choices);
  Object.freeze(plan.notes);
  return Object.freeze(plan);
}
