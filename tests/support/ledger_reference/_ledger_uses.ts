/**
 * The provider's cache as the ledger's records show it: when each prefix
 * was last used (read or written) and with what TTL, what a step could read,
 * and the cached prefix a step shares the most with.
 *
 * @module
 */

import type { CacheLifetime as Lifetime } from "../../../src/adapters/cache_report.ts";
import type { CacheUsage } from "../../../src/adapters/usage.ts";
import type { PrefixPart, StepPrefix } from "./_ledger_parts.ts";

/** One recorded step, as the ledger keeps it. */
export interface Recorded {
  agent: string;
  at: number;
  model?: string;
  prefix: StepPrefix;
  usage: CacheUsage;
}

const MINUTE = 60_000;
const TTL_MS = { "5m": 5 * MINUTE, "1h": 60 * MINUTE } as const;

/**
 * How long the provider keeps an entry of `x`'s prefix after its last use:
 * the TTL, or the automatic cache's own lifetime.
 */
export function lifeOf(
  x: StepPrefix,
  ttl: "5m" | "1h",
  automatic: Lifetime,
): Lifetime {
  if (x.automatic) return automatic;
  return { min: TTL_MS[ttl], max: TTL_MS[ttl] };
}

/** Whether a step's usage shows the provider cached its prefix at all. */
const cachedAny = (r: Recorded) =>
  r.usage.read + r.usage.written > 0 || r.prefix.automatic;

/** The last use of the prefix `hash` (through a breakpoint, or any prefix for automatic caching) before `x`. */
export interface Use {
  at: number;
  model?: string;
  ttl: "5m" | "1h";
  cached: boolean;
}

/** Each earlier step list's uses by prefix hash, built once per list. */
const indexes = new WeakMap<readonly Recorded[], Map<string, Use[]>>();

/**
 * The uses of the prefix `hash` by the steps `before`: through one of
 * their breakpoints, or (automatic caching) any prefix of theirs.
 */
export function usesOf(hash: string, before: readonly Recorded[]): Use[] {
  let index = indexes.get(before);
  if (index === undefined) indexes.set(before, index = indexOf(before));
  return index.get(hash) ?? [];
}

/** A step's uses, worked out once: the step does not change. */
const usesByStep = new WeakMap<Recorded, [string, Use][]>();

function stepUses(r: Recorded): [string, Use][] {
  let uses = usesByStep.get(r);
  if (uses !== undefined) return uses;
  const { parts, breakpoints, automatic } = r.prefix;
  const base = r.model === undefined ? {} : { model: r.model };
  uses = automatic
    ? parts.map((part): [string, Use] => [part.prefix, {
      at: r.at,
      ...base,
      ttl: "5m",
      cached: cachedAny(r),
    }])
    : breakpoints.map((bp): [string, Use] => {
      const part = parts[bp.index]!;
      const cached = cachedAny(r) && part.end >= r.prefix.minTokens;
      return [part.prefix, { at: r.at, ...base, ttl: bp.ttl, cached }];
    });
  usesByStep.set(r, uses);
  return uses;
}

function indexOf(before: readonly Recorded[]): Map<string, Use[]> {
  const index = new Map<string, Use[]>();
  for (const r of before) {
    for (const [hash, use] of stepUses(r)) {
      const list = index.get(hash);
      if (list === undefined) index.set(hash, [use]);
      else list.push(use);
    }
  }
  return index;
}

export const latest = (uses: Use[]): Use | undefined =>
  uses.reduce<Use | undefined>(
    (a, u) => (a && a.at >= u.at ? a : u),
    undefined,
  );

/** Tokens the records say the provider could read for `x`. */
export function readableOf(
  x: Recorded,
  records: {
    before: readonly Recorded[];
    automatic: Lifetime;
    lookback: number;
  },
): number {
  const { before, automatic, lookback } = records;
  const { parts, breakpoints } = x.prefix;
  let best = 0;
  for (let j = parts.length - 1; j >= 0; j--) {
    const part = parts[j]!;
    if (part.end <= best) break;
    if (!x.prefix.automatic) {
      // Entries are looked up within `lookback` blocks before a breakpoint.
      const reach = breakpoints.some((bp) =>
        bp.index >= j && parts[bp.index]!.blocks - part.blocks <= lookback
      );
      if (!reach) continue;
    }
    // The latest use of the prefix sets its TTL.
    const use = latest(
      usesOf(part.prefix, before).filter((u) => u.model === x.model),
    );
    if (use === undefined || !use.cached) continue;
    const life = lifeOf(x.prefix, use.ttl, automatic);
    if (x.at - use.at <= life.min) best = Math.max(best, part.end);
  }
  return best >= x.prefix.minTokens ? best : 0;
}

/**
 * Of the prefixes cached within their TTL (by the records), the one that
 * shares the most leading parts with `x`, cut at its breakpoint.
 */
export function closest(
  x: Recorded,
  before: readonly Recorded[],
  automatic: Lifetime,
): readonly PrefixPart[] | undefined {
  let best: { common: number; at: number; parts: PrefixPart[] } | undefined;
  const mine = x.prefix.parts;
  for (const r of before) {
    if (r.model !== x.model) continue;
    const { parts, breakpoints } = r.prefix;
    const ends = r.prefix.automatic
      ? [parts.length - 1]
      : breakpoints.map((bp) => bp.index);
    let shared = 0;
    while (
      shared < Math.min(parts.length, mine.length) &&
      parts[shared]!.prefix === mine[shared]!.prefix
    ) shared++;
    for (const end of ends) {
      const use = latest(
        usesOf(parts[end]!.prefix, before).filter((u) => u.model === x.model),
      );
      if (use === undefined || !use.cached) continue;
      if (x.at - use.at > lifeOf(x.prefix, use.ttl, automatic).min) continue;
      const common = Math.min(shared, end + 1);
      if (
        best === undefined || common > best.common ||
        (common === best.common && r.at > best.at)
      ) best = { common, at: r.at, parts: parts.slice(0, end + 1) };
    }
  }
  return best?.parts;
}
