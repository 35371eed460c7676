/**
 * The tools' places in a cache plan: where their marks can go (after the
 * static run before the first session tool, after the last tool in the
 * prompt), and whether the static run's breakpoint keeps more cached than
 * another use of the budget would.
 *
 * @module
 */

import type { ToolEntry } from "./_counts.ts";
/** The fields of a plan's choice that the tools' places read and set. */
interface Choice {
  after: "tools" | "tools-static" | number;
  tokens: number;
  chosen: boolean;
  reason: string;
  detail: string;
  ttl?: "5m" | "1h";
}

/**
 * Which tools of each plan are in the prompt (a deferred tool the request
 * defers is not), for what reads the plan's prefix afterwards.
 */
export const IN_PROMPT: WeakMap<object, readonly boolean[]> = new WeakMap();

/** A place after some tools: the tool that carries the mark, the tools' tokens up to it. */
export interface ToolPlace {
  readonly after: "tools" | "tools-static";
  readonly tool: number;
  readonly tokens: number;
  readonly stability: "static" | "session";
}

/**
 * Where the tools' marks can go, over the tools in the prompt (deferred
 * ones skipped where the request defers them): the last one, and the last
 * static one before the first session tool when a session tool follows;
 * each tool's tokens, and a note for each deferred tool sent in full.
 */
export function toolRun(
  tools: readonly ToolEntry[],
  how: { count: (entry: ToolEntry) => number; defers: boolean },
): {
  places: ToolPlace[];
  firstSession: number;
  notes: string[];
  counts: number[];
  inPrompt: boolean[];
  /** Why the static run's place was chosen, naming the first session tool. */
  staticDetail: string;
} {
  const { count, defers } = how;
  const counts = tools.map(count);
  const inPrompt = tools.map((entry) => !entry.deferred || !defers);
  let last = -1;
  let staticEnd = -1;
  let firstSession = -1;
  let tokens = 0;
  let staticTokens = 0;
  const notes: string[] = [];
  tools.forEach((entry, i) => {
    if (entry.deferred && defers) return;
    if (entry.deferred) {
      notes.push(
        `Tool "${entry.name}" has deferLoading, which this request's API does not take: it is sent in full and counted`,
      );
    }
    last = i;
    tokens += counts[i]!;
    if (entry.stability === "session") {
      if (firstSession === -1) firstSession = i;
    } else if (firstSession === -1) {
      staticEnd = i;
      staticTokens = tokens;
    }
  });
  const places: ToolPlace[] = [];
  if (firstSession !== -1 && staticEnd !== -1) {
    places.push({
      after: "tools-static",
      tool: staticEnd,
      tokens: staticTokens,
      stability: "static",
    });
  }
  if (last !== -1) {
    const stability = firstSession === -1 ? "static" : "session";
    places.push({ after: "tools", tool: last, tokens, stability });
  }
  const staticDetail = firstSession === -1 ? "" : staticRunDetail(
    tools[firstSession]!.name,
  );
  return { places, firstSession, notes, counts, inPrompt, staticDetail };
}

const staticRunDetail = (firstSession: string): string =>
  `the end of the static tools, before the first session tool ("${firstSession}"): ` +
  "read again after a session tool changed";

/**
 * With the static run's breakpoint chosen and the budget spent, swaps it
 * (or the end of the tools) for a place left over budget that keeps more
 * cached, if one does; edits the choices and `chosen`. What a set keeps:
 * over each place where a session change starts (the first session tool,
 * each session block), the longest chosen prefix before it. The static
 * run's breakpoint must keep strictly more than the place it displaces.
 */
export function rebalance<C extends Choice>(
  chosen: C[],
  how: {
    open: readonly C[];
    blocks: readonly { readonly stability: string; readonly tokens: number }[];
    starves: (set: C[]) => unknown;
    detail: (reason: "tools" | "boundary") => string;
    ttl: "5m" | "1h";
  },
): void {
  const { open, blocks } = how;
  const staticRun = chosen.find((c) => c.after === "tools-static");
  const left = open.filter((c) => !c.chosen && c.reason === "over-budget");
  if (staticRun === undefined || left.length === 0) return;
  const starts = [staticRun.tokens];
  for (const c of open) {
    const block = typeof c.after === "number" ? blocks[c.after]! : undefined;
    if (block?.stability === "session") starts.push(c.tokens - block.tokens);
  }
  const kept = (set: readonly C[]) =>
    starts.reduce((sum, start) => {
      let best = 0;
      for (const c of set) {
        if (c.tokens <= start && c.tokens > best) best = c.tokens;
      }
      return sum + best;
    }, 0);
  const was = kept(chosen);
  let best: { out: C; into: C; now: number } | undefined;
  for (const out of chosen) {
    if (out.after !== "tools-static" && out.after !== "tools") continue;
    for (const into of left) {
      const set = [...chosen.filter((c) => c !== out), into];
      if (how.starves(set) !== undefined) continue;
      const now = kept(set);
      const gain = now - (best?.now ?? was);
      if (gain > 0 || (gain === 0 && best === undefined && out === staticRun)) {
        best = { out, into, now };
      }
    }
  }
  if (best === undefined) return;
  const { out, into, now } = best;
  const reason = into.after === "tools" ? "tools" as const : "boundary";
  const figures =
    `${now} tokens read after the session changes, against ${was}`;
  const place = typeof into.after === "number"
    ? `block ${into.after}`
    : into.after;
  Object.assign(into, {
    chosen: true,
    reason,
    detail: `${how.detail(reason)}; in place of "${out.after}": ${figures}`,
    ttl: how.ttl,
  });
  Object.assign(out, {
    chosen: false,
    reason: "over-budget",
    detail: `the budget went to ${place}, which keeps more cached: ${figures}`,
  });
  delete out.ttl;
  chosen.splice(chosen.indexOf(out), 1, into);
}
