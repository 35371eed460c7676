/**
 * `CacheLedger`: joins each step's cache plan (which part, owner, layer and
 * stability sits where in the prefix) with the provider's usage (what it
 * actually read and wrote), and says why the cache missed and what it cost.
 *
 * @module
 */

import type { PromptAssembly, RenderedStep } from "../../mod.ts";
import { estimateTokens } from "../../inspect.ts";
import { optionError } from "../inspect/_options.ts";
import type {
  CacheLifetime as Lifetime,
  CacheReport,
  LedgerSummary,
  MissTotals,
  SessionRow,
} from "./cache_report.ts";
import { findCause, type Recorded } from "./_ledger_causes.ts";
import { memoFor, type PrefixMemo } from "./_ledger_memo.ts";
import { planOf, stepPrefix } from "./_ledger_parts.ts";
import { MINUTE, Records } from "./_ledger_uses.ts";
import { priceFor, type PriceRow } from "./pricing.ts";
import { minimumFor } from "./_minimum.ts";
import { ANTHROPIC, BEDROCK, GEMINI, OPENAI } from "./profiles.ts";
import {
  type AISDKProviderMetadata,
  type ProviderUsage,
  readUsage,
  type UsageShape,
} from "./usage.ts";
import { failure } from "../core/_messages.ts";

/**
 * Options of {@linkcode CacheLedger}.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { CacheLedger, type CacheLedgerOptions } from "@dsh/system-prompt/adapters";
 *
 * const options: CacheLedgerOptions = { history: 8, pricing: [{ provider: "openai", model: "gpt-5-mini", input: 0.25, read: 0.1, write: 1 }] };
 * assert.ok(new CacheLedger(options));
 * ```
 */
export interface CacheLedgerOptions {
  /** Price rows consulted before the built-in `PRICING`. @default {[]} */
  pricing?: readonly PriceRow[];
  /** Steps kept per agent to judge later steps against. @default {32} */
  history?: number;
  /** Steps kept for `summary().rows`. @default {1000} */
  rows?: number;
  /**
   * Counts a text's tokens, to share a plan block's tokens among its parts.
   * @default {estimateTokens}
   */
  countTokens?: (text: string) => number;
  /**
   * How long a provider that caches by itself keeps a prefix, ms: surely
   * until `min`, surely not after `max`.
   * @default {{ openai: { min: 300000, max: 3600000 }, gemini: { min: 0, max: Infinity } }}
   */
  lifetimes?: Readonly<Record<string, Lifetime>>;
}

/**
 * What {@linkcode CacheLedger.record} takes besides the step.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type RecordOptions, toAnthropic } from "@dsh/system-prompt/adapters";
 *
 * const options: RecordOptions = {
 *   request: toAnthropic({ sections: [], tools: [], variables: {} }),
 *   usage: { input_tokens: 3 },
 *   agent: "main",
 * };
 * assert.equal(options.agent, "main");
 * ```
 */
export interface RecordOptions {
  /** The adapter's result the request was built from (it carries the plan). */
  request: object;
  /** The provider's usage object, exactly as its SDK returns it. */
  usage: ProviderUsage;
  /** The AI SDK's `providerMetadata`, read where its usage leaves counts out. */
  providerMetadata?: AISDKProviderMetadata;
  /** When the request was sent (ms since the epoch, or a Date). @default {Date.now()} */
  at?: number | Date;
  /** The agent whose step it is. @default {"default"} */
  agent?: string;
  /** The model the request went to: caches are per model. */
  model?: string;
}

const PROFILES = {
  anthropic: ANTHROPIC,
  bedrock: BEDROCK,
  openai: OPENAI,
  gemini: GEMINI,
} as const;
const LIFETIMES: Readonly<Record<string, Lifetime>> = {
  openai: { min: 5 * MINUTE, max: 60 * MINUTE },
  gemini: { min: 0, max: Infinity },
};

/**
 * Records each step's plan and the provider's usage and reports, per step,
 * the tokens expected to be read from cache, read, written and uncached,
 * and when fewer were read than expected, the cause (see
 * {@linkcode MissCause}), the first changed part with its owner, and the
 * cost of writing the prefix again.
 *
 * The cache is the provider's, shared by every agent of the organisation:
 * a prefix any agent cached counts for all; a step's "previous step" (for
 * a prefix change) is its own agent's. Memory is bounded: `history` steps
 * per agent (32), `rows` session rows (1000).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { CacheLedger, toAnthropic } from "@dsh/system-prompt/adapters";
 *
 * const assembly = {
 *   sections: [{ name: "persona", order: 0, text: "You are a coding agent. ".repeat(300), owner: "agent-loop" }],
 *   tools: [],
 *   variables: {},
 * };
 * const request = toAnthropic(assembly, { model: "claude-sonnet-4-5" });
 * const ledger = new CacheLedger();
 * const first = ledger.record(assembly, { request, at: 0, usage: { input_tokens: 20, cache_creation_input_tokens: 1500 } });
 * assert.equal(first.cause, "first-request");
 * const later = ledger.record(assembly, { request, at: 600_000, usage: { input_tokens: 20, cache_creation_input_tokens: 1500 } });
 * assert.equal(later.cause, "ttl-expired");
 * ```
 */
export class CacheLedger {
  #options: Required<Omit<CacheLedgerOptions, "lifetimes">> & {
    lifetimes: Readonly<Record<string, Lifetime>>;
  };
  #records!: Records;
  #memo!: PrefixMemo;
  #seen = new WeakMap<object, CacheReport>();
  #rows: SessionRow[] = [];
  #dropped = 0;
  #steps = 0;
  #tokens = { expected: 0, read: 0, written: 0, uncached: 0 };
  #owners: Record<string, MissTotals> = {};
  #causes: LedgerSummary["causes"] = {};

  /**
   * An empty ledger.
   *
   * @param options Pricing rows, memory bounds, a token counter, lifetimes.
   * @throws {TypeError} For an option of the wrong type; `invalid-option`
   * for a bound that is not a positive integer.
   */
  constructor(options: CacheLedgerOptions = {}) {
    const fail = (state: string) =>
      optionError("create the cache ledger", { state });
    if (typeof options !== "object" || options === null) {
      throw optionError("create the cache ledger", {
        state: "options must be an object",
        got: options,
      });
    }
    const {
      pricing = [],
      history = 32,
      rows = 1000,
      countTokens = estimateTokens,
      lifetimes = {},
    } = options;
    for (
      const [name, value] of [["history", history], ["rows", rows]] as const
    ) {
      if (!Number.isInteger(value) || value < 1) {
        throw fail(`${name} must be a positive integer, got ${String(value)}`);
      }
    }
    if (!Array.isArray(pricing)) {
      throw optionError("create the cache ledger", {
        state: "pricing must be an array of rows",
        got: pricing,
      });
    }
    if (typeof countTokens !== "function") {
      throw optionError("create the cache ledger", {
        state: "countTokens must be a function",
        got: countTokens,
      });
    }
    this.#options = {
      pricing,
      history,
      rows,
      countTokens,
      lifetimes: { ...LIFETIMES, ...lifetimes },
    };
    this.#records = new Records(history);
    this.#memo = memoFor(countTokens);
  }

  /**
   * Records one step and reports on it. Recording the same usage object
   * again returns the first report and counts nothing twice. A step is
   * judged against the steps sent before it (by `at`) that were recorded
   * before it: record in the order the requests were sent.
   *
   * @param step The assembly or rendered step the request was made from.
   * @param options The request, the usage, and when, by whom, to what model.
   * @returns The report.
   * @throws {PromptError} `invalid-value` for a request that is not an
   * adapter's result, a usage of no known shape or of another provider's
   * shape than the request's, or a count that is not a non-negative
   * integer. `invalid-option` (a `TypeError` for the wrong type) for a bad
   * `at`, `agent` or `model`.
   */
  record(
    step: PromptAssembly | RenderedStep,
    options: RecordOptions,
  ): CacheReport {
    const fail = (state: string, got?: unknown) =>
      optionError(
        "record a step",
        got === undefined ? { state } : { state, got },
      );
    if (typeof options !== "object" || options === null) {
      throw fail("options must be an object", options ?? String(options));
    }
    const { request, usage, agent = "default", model } = options;
    const seen = typeof usage === "object" && usage !== null
      ? this.#seen.get(usage)
      : undefined;
    if (seen !== undefined) return seen;
    const at = options.at === undefined
      ? Date.now()
      : options.at instanceof Date
      ? options.at.getTime()
      : options.at;
    if (typeof at !== "number") throw fail("at must be a number or a Date", at);
    if (!Number.isFinite(at)) throw fail(`at must be a finite time, got ${at}`);
    if (typeof agent !== "string") throw fail("agent must be a string", agent);
    if (model !== undefined && typeof model !== "string") {
      throw fail("model must be a string", model);
    }
    if (typeof step !== "object" || step === null) {
      throw failure({
        code: "invalid-value",
        action: "record a step",
        problem:
          "step must be the assembly or rendered step the request was made from",
      });
    }
    const plan = planOf(request);
    const read = readUsage(
      usage,
      requestShape(request, plan.provider),
      options.providerMetadata,
    );
    const prefix = stepPrefix(step, { plan, memo: this.#memo });
    const recorded: Recorded = { agent, at, prefix, usage: read };
    if (model !== undefined) recorded.model = model;

    const before = this.#records.before(recorded);
    const profile = PROFILES[plan.provider as keyof typeof PROFILES];
    const modelMinimum = model !== undefined && profile !== undefined
      ? minimumFor(profile, model).minTokens
      : plan.minTokens;
    const finding = findCause(recorded, before, {
      automatic: this.#options.lifetimes[plan.provider] ??
        { min: 0, max: Infinity },
      lookback: profile?.lookback ?? 20,
      modelMinimum,
    });

    const report: CacheReport = {
      step: ++this.#steps,
      agent,
      provider: plan.provider,
      ...(model === undefined ? {} : { model }),
      at,
      expected: prefix.expected,
      readable: finding.readable,
      read: read.read,
      written: read.written,
      uncached: read.uncached,
      invalidated: finding.invalidated,
    };
    if (finding.cause !== undefined) report.cause = finding.cause;
    if (finding.detail !== undefined) report.detail = finding.detail;
    if (finding.change !== undefined) report.change = finding.change;
    const price = priceFor(plan.provider, model, this.#options.pricing);
    if (finding.cause !== undefined && price?.input !== undefined) {
      const write = finding.ttl === "1h" ? price.write1h : price.write;
      report.cost = finding.invalidated * price.input * (write - price.read) /
        1e6;
    }

    this.#records.add(recorded);
    this.#tally(report);
    if (typeof usage === "object" && usage !== null) {
      this.#seen.set(usage, report);
    }
    return report;
  }

  /**
   * The session so far: totals, misses and their cost per owner (of the
   * part whose change caused them) and per cause, and the latest steps.
   *
   * @returns Plain, JSON-safe data.
   */
  summary(): LedgerSummary {
    const copy = <T extends object>(o: Record<string, T>) =>
      Object.fromEntries(Object.entries(o).map(([k, v]) => [k, { ...v }]));
    return {
      steps: this.#steps,
      tokens: { ...this.#tokens },
      owners: copy(this.#owners),
      causes: copy(this.#causes as Record<string, MissTotals>),
      rows: this.#rows.map((row) => ({ ...row })),
      dropped: this.#dropped,
    };
  }

  #tally(report: CacheReport): void {
    for (const key of ["expected", "read", "written", "uncached"] as const) {
      this.#tokens[key] += report[key];
    }
    const row: SessionRow = {
      step: report.step,
      agent: report.agent,
      at: report.at,
      expected: report.expected,
      read: report.read,
      written: report.written,
      uncached: report.uncached,
      invalidated: report.invalidated,
    };
    for (const key of ["cause", "cost", "model"] as const) {
      if (report[key] !== undefined) Object.assign(row, { [key]: report[key] });
    }
    if (report.cause === "prefix-changed" && report.change !== undefined) {
      row.part = report.change.name;
      if (report.change.owner !== undefined) row.owner = report.change.owner;
      add(this.#owners, report.change.owner ?? "", report);
    }
    if (report.cause !== undefined) {
      add(this.#causes as Record<string, MissTotals>, report.cause, report);
    }
    this.#rows.push(row);
    if (this.#rows.length > this.#options.rows) {
      this.#rows.shift();
      this.#dropped++;
    }
  }
}

function add(
  into: Record<string, MissTotals>,
  key: string,
  report: CacheReport,
) {
  const totals = Object.hasOwn(into, key)
    ? into[key]!
    : (into[key] = { misses: 0, tokens: 0, cost: 0 });
  totals.misses++;
  totals.tokens += report.invalidated;
  totals.cost += report.cost ?? 0;
}

/** The usage shape a request's adapter implies. */
function requestShape(request: object, provider: string): UsageShape {
  const r = request as Record<string, unknown>;
  if ("instructions" in r) return "openai-responses";
  if ("messages" in r && !("system" in r)) return "openai-chat";
  if ("systemInstruction" in r) return "gemini";
  const first = Array.isArray(r.system) ? r.system[0] : undefined;
  if (
    (r.tools !== undefined && !Array.isArray(r.tools)) ||
    (first as { role?: unknown } | undefined)?.role === "system"
  ) return "ai-sdk";
  return provider === "bedrock" ? "bedrock" : "anthropic";
}
