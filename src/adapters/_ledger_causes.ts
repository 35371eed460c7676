/**
 * Why a step read less from cache than its plan expected, from what the
 * ledger recorded before it. The rule: a cause is named only when the
 * records prove it; otherwise `"unexplained"`.
 *
 * @module
 */

import type {
  CacheLifetime as Lifetime,
  MissCause,
  PrefixChange,
} from "./cache_report.ts";
import type { CacheUsage } from "./usage.ts";
import type { PrefixPart, StepPrefix } from "./_ledger_parts.ts";

/** One recorded step, as the ledger keeps it. */
export interface Recorded {
  agent: string;
  at: number;
  model?: string;
  prefix: StepPrefix;
  usage: CacheUsage;
}

export interface Finding {
  readable: number;
  cause?: MissCause;
  detail?: string;
  change?: PrefixChange;
  invalidated: number;
  /** The TTL of the breakpoint whose prefix was written again. */
  ttl: "5m" | "1h";
}

const MINUTE = 60_000;
const TTL_MS = { "5m": 5 * MINUTE, "1h": 60 * MINUTE } as const;

/** What the provider's TTL says of an entry last used `age` ms ago. */
function lifeOf(
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
interface Use {
  at: number;
  model?: string;
  ttl: "5m" | "1h";
  cached: boolean;
}

function usesOf(
  hash: string,
  index: number,
  before: readonly Recorded[],
): Use[] {
  const uses: Use[] = [];
  for (const r of before) {
    const { parts, breakpoints, automatic } = r.prefix;
    if (automatic) {
      if (parts[index]?.prefix === hash) {
        uses.push({ at: r.at, ...model(r), ttl: "5m", cached: cachedAny(r) });
      }
      continue;
    }
    for (const bp of breakpoints) {
      if (parts[bp.index]?.prefix !== hash) continue;
      const cached = cachedAny(r) && parts[bp.index]!.end >= r.prefix.minTokens;
      uses.push({ at: r.at, ...model(r), ttl: bp.ttl, cached });
    }
  }
  return uses;
}

const latest = (uses: Use[]): Use | undefined =>
  uses.reduce<Use | undefined>(
    (a, u) => (a && a.at >= u.at ? a : u),
    undefined,
  );

const model = (r: { model?: string }) =>
  r.model === undefined ? {} : { model: r.model };

/** Tokens the records say the provider could read for `x`. */
function readableOf(
  x: Recorded,
  before: readonly Recorded[],
  automatic: Lifetime,
  lookback: number,
): number {
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
      usesOf(part.prefix, j, before).filter((u) => u.model === x.model),
    );
    if (use === undefined || !use.cached) continue;
    const life = lifeOf(x.prefix, use.ttl, automatic);
    if (x.at - use.at <= life.min) best = Math.max(best, part.end);
  }
  return best >= x.prefix.minTokens ? best : 0;
}

/** The candidate read positions of `x`, and the one nearest `read` in ratio. */
function snap(x: StepPrefix, read: number): number {
  const ends = x.automatic
    ? x.parts.map((p) => p.end)
    : x.breakpoints.map((bp) => x.parts[bp.index]!.end);
  let best = 0;
  let distance = Math.abs(Math.log((read + 1) / 1));
  for (const end of ends) {
    if (end > x.expected) continue;
    const d = Math.abs(Math.log((read + 1) / (end + 1)));
    if (d < distance || (d === distance && end > best)) {
      [best, distance] = [end, d];
    }
  }
  return read >= x.expected ? x.expected : best;
}

/**
 * Of the prefixes cached within their TTL (by the records), the one that
 * shares the most leading parts with `x`, cut at its breakpoint.
 */
function closest(
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
        usesOf(parts[end]!.prefix, end, before).filter((u) =>
          u.model === x.model
        ),
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

/** The first part where `x` differs from `prev`. */
export function firstChange(
  prev: readonly PrefixPart[],
  next: readonly PrefixPart[],
): PrefixChange | undefined {
  const n = Math.max(prev.length, next.length);
  for (let i = 0; i < n; i++) {
    const [a, b] = [prev[i], next[i]];
    if (a !== undefined && b !== undefined && a.prefix === b.prefix) continue;
    const before = i === 0 ? 0 : next[i - 1]?.end ?? prev[i - 1]!.end;
    const names = (list: readonly PrefixPart[]) =>
      new Set(list.map((p) => p.kind + ":" + p.name));
    let part: PrefixPart;
    let change: PrefixChange["change"];
    if (b === undefined) [part, change] = [a!, "removed"];
    else if (a === undefined || !names(prev).has(b.kind + ":" + b.name)) {
      [part, change] = [b, "added"];
    } else if (!names(next).has(a.kind + ":" + a.name)) {
      [part, change] = [a, "removed"];
    } else [part, change] = [b, "changed"];
    const found: PrefixChange = {
      kind: part.kind,
      name: part.name,
      change,
      before,
    };
    if (part.owner !== undefined) found.owner = part.owner;
    if (part.layer !== undefined) found.layer = part.layer;
    return found;
  }
  return undefined;
}

/** Why `x` read what it read, judged against the steps sent before it. */
export function findCause(
  x: Recorded,
  before: readonly Recorded[],
  options: { automatic: Lifetime; lookback: number; modelMinimum: number },
): Finding {
  const p = x.prefix;
  const prev = before.filter((r) => r.agent === x.agent)
    .reduce<Recorded | undefined>(
      (a, r) => (a && a.at > r.at ? a : r),
      undefined,
    );
  const at = snap(p, x.usage.read);
  // The change is told against the agent's previous step; where the
  // provider read past it (another agent cached the changed prefix),
  // against the cached prefix this one shares the most with.
  let found = prev && firstChange(prev.prefix.parts, p.parts);
  if (found !== undefined && found.before < at) {
    const near = closest(x, before, options.automatic);
    found = near && firstChange(near, p.parts);
  }
  // Only a change inside the prefix the plan caches matters to the cache.
  const change = found && found.before < p.expected ? found : undefined;
  const lastBp = p.breakpoints.at(-1);
  const ttl = lastBp?.ttl ?? "5m";
  const readable = readableOf(x, before, options.automatic, options.lookback);
  const finding: Finding = { readable, invalidated: 0, ttl };
  if (change !== undefined) finding.change = change;
  if (p.expected === 0 || at >= p.expected) return finding;
  finding.invalidated = p.expected - at;
  const say = (cause: MissCause, detail: string) =>
    Object.assign(finding, { cause, detail });

  const noneCached = p.automatic
    ? x.usage.input < options.modelMinimum
    : x.usage.read === 0 && x.usage.written === 0;
  if (noneCached || p.expected < options.modelMinimum) {
    return say(
      "under-minimum",
      p.automatic || p.expected < options.modelMinimum
        ? `the prefix is under the model's minimum of ${options.modelMinimum} tokens`
        : "the provider read and wrote nothing: the prefix is under the model's minimum by its count",
    );
  }
  if (readable > at) {
    return say(
      "unexplained",
      `earlier steps left ${readable} tokens of this prefix cached within their TTL, ` +
        `the provider read about ${at}: it evicted them`,
    );
  }
  // Why the rest of the prefix, past what was read, was not in the cache.
  const end = p.automatic
    ? p.parts.findLastIndex((part) => part.end <= p.expected)
    : lastBp!.index;
  const uses = usesOf(p.parts[end]!.prefix, end, before);
  const last = latest(uses.filter((u) => u.model === x.model));
  if (last?.cached) {
    const life = lifeOf(p, last.ttl, options.automatic);
    const age = x.at - last.at;
    if (age > life.max) {
      return say(
        "ttl-expired",
        `the prefix was last used ${seconds(age)} before, past its TTL of ${
          seconds(life.max)
        }`,
      );
    }
    return say(
      "unexplained",
      `the prefix was last used ${seconds(age)} before, ` +
        (age <= life.min
          ? "within its TTL"
          : `which its TTL (${seconds(life.min)} to ${
            seconds(life.max)
          }) neither keeps nor drops`),
    );
  }
  const other = uses.find((u) => u.model !== x.model);
  if (other !== undefined && !uses.some((u) => u.model === x.model)) {
    return say(
      "model-changed",
      `the prefix was cached for ${
        other.model ?? "another model"
      }, this step went to ${x.model ?? "another"}`,
    );
  }
  if (uses.length > 0) {
    return say(
      "under-minimum",
      "earlier steps with this prefix cached nothing",
    );
  }
  if (prev === undefined) {
    return say("first-request", "no earlier step put this prefix in the cache");
  }
  if (prev.model !== x.model) {
    return say(
      "model-changed",
      `the agent's previous step went to ${
        prev.model ?? "no named model"
      }, this one to ${x.model ?? "no named model"}`,
    );
  }
  if (change === undefined || partEnd(p, change) < at) {
    // The provider read past the first change, or nothing changed: the
    // records cannot say why the rest was not cached.
    return change === undefined
      ? say(
        "first-request",
        "no earlier step put a breakpoint at the end of this prefix",
      )
      : say(
        "unexplained",
        `the provider read past the first change (${change.name})`,
      );
  }
  finding.invalidated = p.expected - at;
  return say(
    "prefix-changed",
    `${change.kind} "${change.name}"` +
      (change.owner === undefined ? "" : ` of ${change.owner}`) +
      ` ${change.change}: ${finding.invalidated} tokens after it written again`,
  );
}

/** Where the changed part ends: the provider may read into it, no further. */
function partEnd(p: StepPrefix, change: PrefixChange): number {
  const part = p.parts.find((x) => x.end > change.before);
  return change.change === "removed"
    ? change.before
    : part?.end ?? change.before;
}

const seconds = (ms: number) =>
  ms >= MINUTE
    ? `${Math.round(ms / 1000 / 6) / 10} min`
    : `${Math.round(ms / 1000)} s`;
