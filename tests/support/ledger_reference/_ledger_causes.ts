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
} from "../../../src/adapters/cache_report.ts";
import type { PrefixPart, StepPrefix } from "./_ledger_parts.ts";
import {
  closest,
  latest,
  lifeOf,
  readableOf,
  type Recorded,
  usesOf,
} from "./_ledger_uses.ts";

export type { Recorded };

const MINUTE = 60_000;

export interface Finding {
  readable: number;
  cause?: MissCause;
  detail?: string;
  change?: PrefixChange;
  invalidated: number;
  /** The TTL of the breakpoint whose prefix was written again. */
  ttl: "5m" | "1h";
}

/**
 * Where the provider's read ended, in the plan's count: of the places a
 * read can end (for breakpoints: this step's, and any earlier step's
 * breakpoint on the same prefix, found by lookback), the one nearest
 * `read` in ratio, so a counter's error is not a miss.
 */
function snap(
  x: StepPrefix,
  read: number,
  before: readonly Recorded[],
): number {
  const ends = x.automatic
    ? x.parts.map((p) => p.end)
    : x.parts.filter((part, j) =>
      x.breakpoints.some((bp) => bp.index === j) ||
      usesOf(part.prefix, before).length > 0
    ).map((part) => part.end);
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

/** The first part where `next` differs from `prev`. */
function firstChange(
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
  const at = snap(p, x.usage.read, before);
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
  const readable = readableOf(x, {
    before,
    automatic: options.automatic,
    lookback: options.lookback,
  });
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
  const end = p.automatic ? lastWithin(p) : lastBp!.index;
  const uses = usesOf(p.parts[end]!.prefix, before);
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

/** The last part that ends within the expected prefix. */
function lastWithin(p: StepPrefix): number {
  let index = -1;
  p.parts.forEach((part, i) => {
    if (part.end <= p.expected) index = i;
  });
  return index;
}
