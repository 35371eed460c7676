/**
 * What the cache ledger says about a step, and about a session.
 *
 * @module
 */

/**
 * Why fewer tokens were read from cache than the plan expected.
 *
 * - `"first-request"`: no earlier step of this agent, and no earlier step of
 *   any agent, put this prefix in the cache.
 * - `"ttl-expired"`: the same prefix was cached, longer ago than its TTL.
 * - `"prefix-changed"`: a part (or tool) changed since the agent's previous
 *   step; everything after it is written again.
 * - `"model-changed"`: the prefix was cached for another model.
 * - `"under-minimum"`: the provider cached nothing: the prefix is under the
 *   model's minimum by the provider's own count.
 * - `"unexplained"`: the same prefix, within its TTL, was not read: the
 *   provider evicted it, or the data cannot tell.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { MissCause } from "@dsh/system-prompt/adapters";
 *
 * const cause: MissCause = "ttl-expired";
 * assert.equal(cause, "ttl-expired");
 * ```
 */
export type MissCause =
  | "first-request"
  | "ttl-expired"
  | "prefix-changed"
  | "model-changed"
  | "under-minimum"
  | "unexplained";

/**
 * The first part of the prefix that differs from the agent's previous step.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { PrefixChange } from "@dsh/system-prompt/adapters";
 *
 * const change: PrefixChange = { kind: "tool", name: "search", owner: "mcp:web", change: "changed", before: 0 };
 * assert.equal(change.owner, "mcp:web");
 * ```
 */
export interface PrefixChange {
  /** A tool, or a section (or list item) of the system prompt. */
  kind: "tool" | "section";
  /** Its name; a list item's path (`"skills/git"`). */
  name: string;
  /** Its owner; absent for the root registry. */
  owner?: string;
  /** Its layer; absent for a global part. */
  layer?: string;
  /** Changed, added, or removed (then named as it was). */
  change: "changed" | "added" | "removed";
  /** Tokens of the prefix before it: what could still be read. */
  before: number;
}

/**
 * What {@linkcode CacheLedger.record} returns for one step.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { CacheReport } from "@dsh/system-prompt/adapters";
 *
 * const report: Pick<CacheReport, "expected" | "read" | "cause"> = { expected: 4000, read: 0, cause: "first-request" };
 * assert.equal(report.cause, "first-request");
 * ```
 */
export interface CacheReport {
  /** The step's number in the ledger, from 1. */
  step: number;
  /** The agent (`"default"` when none was given). */
  agent: string;
  /** The plan's provider. */
  provider: string;
  /** The model the request went to, when given. */
  model?: string;
  /** When the request was sent, ms since the epoch. */
  at: number;
  /** Tokens of tools and system the plan expected to be read from cache. */
  expected: number;
  /** Of them, what the ledger's record of earlier steps says was cached. */
  readable: number;
  /** Tokens the provider read from cache (messages included). */
  read: number;
  /** Tokens it wrote to cache. */
  written: number;
  /** Input tokens neither read nor written. */
  uncached: number;
  /** Why fewer than `expected` were read; absent when none were missing. */
  cause?: MissCause;
  /** The cause in words, with the figures. */
  detail?: string;
  /** The first changed part, whenever the prefix changed since the agent's previous step. */
  change?: PrefixChange;
  /** Tokens of the prefix the miss forced to be written again (plan's count). */
  invalidated: number;
  /** What writing them again cost over reading them, USD; absent without a base price. */
  cost?: number;
}

/**
 * Misses, tokens written again and their cost: per owner (for prefix
 * changes) or per cause.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { MissTotals } from "@dsh/system-prompt/adapters";
 *
 * const totals: MissTotals = { misses: 2, tokens: 5000, cost: 0.0135 };
 * assert.equal(totals.misses, 2);
 * ```
 */
export interface MissTotals {
  /** Misses caused. */
  misses: number;
  /** Tokens written again. */
  tokens: number;
  /** USD, for the misses with a known base price. */
  cost: number;
}

/**
 * One step as the session view shows it.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { SessionRow } from "@dsh/system-prompt/adapters";
 *
 * const row: SessionRow = { step: 1, agent: "main", at: 0, expected: 100, read: 0, written: 100, uncached: 5, invalidated: 100, cause: "first-request" };
 * assert.equal(row.cause, "first-request");
 * ```
 */
export type SessionRow =
  & Pick<
    CacheReport,
    | "step"
    | "agent"
    | "at"
    | "expected"
    | "read"
    | "written"
    | "uncached"
    | "invalidated"
    | "cause"
    | "cost"
    | "model"
  >
  & {
    /** The changed part's owner, for a prefix change. */
    owner?: string;
    /** The changed part, for a prefix change. */
    part?: string;
  };

/**
 * What {@linkcode CacheLedger.summary} returns: plain data (JSON-safe) that
 * `inspectorPage` can show.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { CacheLedger, type LedgerSummary } from "@dsh/system-prompt/adapters";
 *
 * const summary: LedgerSummary = new CacheLedger().summary();
 * assert.deepEqual([summary.steps, summary.rows], [0, []]);
 * ```
 */
export interface LedgerSummary {
  /** Steps recorded. */
  steps: number;
  /** Tokens over all steps: expected, read, written, uncached. */
  tokens: { expected: number; read: number; written: number; uncached: number };
  /** Per owner whose change missed the cache (`""`: the root registry). */
  owners: Record<string, MissTotals>;
  /** Per cause. */
  causes: Partial<Record<MissCause, MissTotals>>;
  /** The latest steps, oldest first (at most the ledger's `rows`). */
  rows: SessionRow[];
  /** Older steps left out of `rows`. */
  dropped: number;
}

/**
 * How long a provider that caches by itself keeps a prefix, ms since its
 * last use: surely until `min`, surely not after `max`. Between the two a
 * miss is `"unexplained"`: the data cannot tell.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { CacheLifetime } from "@dsh/system-prompt/adapters";
 *
 * const openai: CacheLifetime = { min: 5 * 60_000, max: 60 * 60_000 };
 * assert.ok(openai.min < openai.max);
 * ```
 */
export interface CacheLifetime {
  /** Kept at least this long. */
  min: number;
  /** Dropped by then. */
  max: number;
}
