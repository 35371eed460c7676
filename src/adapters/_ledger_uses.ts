/**
 * The provider's cache as the ledger's records show it: when each prefix
 * was last used (read or written) and with what TTL, what a step could read,
 * and the cached prefix a step shares the most with.
 *
 * @module
 */

import type { CacheLifetime as Lifetime } from "./cache_report.ts";
import type { CacheUsage } from "./usage.ts";
import type { PrefixPart, StepPrefix } from "./_ledger_prefix.ts";

/** One recorded step, as the ledger keeps it. */
export interface Recorded {
  agent: string;
  at: number;
  model?: string;
  prefix: StepPrefix;
  usage: CacheUsage;
}

/** A minute in ms. */
export const MINUTE = 60_000;
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

/** The steps recorded before a step `x` and sent before it, by `at`. */
export interface Before {
  /**
   * The uses of the prefix `hash`: through one of their breakpoints, or
   * (automatic caching) any prefix of theirs; in record order (by agent,
   * then by `at`).
   */
  usesOf(hash: number): Use[];
  /** Whether any of them used the prefix `hash`. */
  used(hash: number): boolean;
  /** The latest of their uses of the prefix `hash` for `model` (the first of equals). */
  latestFor(hash: number, model: string | undefined): Use | undefined;
  /** The agent's own latest step before `x`. */
  readonly prev: Recorded | undefined;
  /** Every one, by agent then by `at`. */
  list(): readonly Recorded[];
}

/** A use in the index, with where its step sits in record order. */
interface Indexed {
  use: Use;
  rank: number;
  seq: number;
  k: number;
}

/**
 * The steps the ledger keeps (the last `history` per agent, by `at`) and
 * the uses of each prefix among them, per provider: kept up to date as
 * steps come and go, not rebuilt per step.
 */
export class Records {
  readonly #history: number;
  #agents = new Map<string, { rank: number; kept: Recorded[] }>();
  #index = new Map<string, Map<number, Indexed[]>>();
  #seq = new WeakMap<Recorded, number>();
  #next = 0;

  constructor(history: number) {
    this.#history = history;
  }

  /** Keeps `r`, dropping the agent's earliest step past `history`. */
  add(r: Recorded): void {
    let agent = this.#agents.get(r.agent);
    if (agent === undefined) {
      agent = { rank: this.#agents.size, kept: [] };
      this.#agents.set(r.agent, agent);
    }
    const { kept } = agent;
    this.#seq.set(r, this.#next++);
    // By send time, a late record of an old step before the later ones.
    let i = kept.length;
    while (i > 0 && kept[i - 1]!.at > r.at) i--;
    kept.splice(i, 0, r);
    const dropped = kept.length > this.#history ? kept.shift() : undefined;
    if (dropped === r) return;
    if (dropped !== undefined) this.#unindex(dropped);
    this.#indexOf(r.prefix.provider, agent.rank, r);
  }

  /** The kept steps of `x.prefix.provider` sent before `x`. */
  before(x: Recorded): Before {
    const { at, agent } = x;
    const provider = x.prefix.provider;
    const index = this.#index.get(provider);
    const mine = this.#agents.get(agent)?.kept ?? [];
    let prev: Recorded | undefined;
    for (let i = mine.length - 1; i >= 0 && prev === undefined; i--) {
      const r = mine[i]!;
      if (r.at < at && r.prefix.provider === provider) prev = r;
    }
    let list: Recorded[] | undefined;
    return {
      usesOf(hash) {
        const entries = index?.get(hash);
        if (entries === undefined) return [];
        const uses: Use[] = [];
        for (const e of entries) if (e.use.at < at) uses.push(e.use);
        return uses;
      },
      latestFor(hash, model) {
        let best: Use | undefined;
        for (const { use } of index?.get(hash) ?? []) {
          if (use.at < at && use.model === model) {
            if (best === undefined || use.at > best.at) best = use;
          }
        }
        return best;
      },
      used(hash) {
        for (const e of index?.get(hash) ?? []) if (e.use.at < at) return true;
        return false;
      },
      prev,
      list: () =>
        list ??= [...this.#agents.values()].flatMap(({ kept }) =>
          kept.filter((r) => r.at < at && r.prefix.provider === provider)
        ),
    };
  }

  #indexOf(provider: string, rank: number, r: Recorded): void {
    let index = this.#index.get(provider);
    if (index === undefined) this.#index.set(provider, index = new Map());
    const seq = this.#seq.get(r)!;
    stepUses(r).forEach(([hash, use], k) => {
      const entry: Indexed = { use, rank, seq, k };
      let list = index.get(hash);
      if (list === undefined) index.set(hash, list = []);
      let i = list.length;
      while (i > 0 && later(list[i - 1]!, entry)) i--;
      list.splice(i, 0, entry);
    });
  }

  #unindex(r: Recorded): void {
    const index = this.#index.get(r.prefix.provider)!;
    for (const [hash, use] of stepUses(r)) {
      const list = index.get(hash)!;
      list.splice(list.findIndex((e) => e.use === use), 1);
      if (list.length === 0) index.delete(hash);
    }
  }
}

/** Whether `a` comes after `b` in record order: agent, send time, record. */
function later(a: Indexed, b: Indexed): boolean {
  if (a.rank !== b.rank) return a.rank > b.rank;
  if (a.use.at !== b.use.at) return a.use.at > b.use.at;
  if (a.seq !== b.seq) return a.seq > b.seq;
  return a.k > b.k;
}

/** A step's uses, worked out once: the step does not change. */
const usesByStep = new WeakMap<Recorded, [number, Use][]>();

function stepUses(r: Recorded): [number, Use][] {
  let uses = usesByStep.get(r);
  if (uses !== undefined) return uses;
  const { parts, breakpoints, automatic } = r.prefix;
  const base = r.model === undefined ? {} : { model: r.model };
  uses = automatic
    ? parts.map((part): [number, Use] => [part.prefix, {
      at: r.at,
      ...base,
      ttl: "5m",
      cached: cachedAny(r),
    }])
    : breakpoints.map((bp): [number, Use] => {
      const part = parts[bp.index]!;
      const cached = cachedAny(r) && part.end >= r.prefix.minTokens;
      return [part.prefix, { at: r.at, ...base, ttl: bp.ttl, cached }];
    });
  usesByStep.set(r, uses);
  return uses;
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
    before: Before;
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
    const use = before.latestFor(part.prefix, x.model);
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
  before: Before,
  automatic: Lifetime,
): readonly PrefixPart[] | undefined {
  let best: { common: number; at: number; parts: PrefixPart[] } | undefined;
  const mine = x.prefix.parts;
  for (const r of before.list()) {
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
      const use = before.latestFor(parts[end]!.prefix, x.model);
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
