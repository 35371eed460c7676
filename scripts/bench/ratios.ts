/**
 * Turns one run's raw figures into ratios measured within that run: two
 * candidates of a group are divided round by round (both were timed in the
 * same round, so a burst of other work falls on both) and the median of
 * those ratios is the run's figure. Targets are attached to the figures
 * the project holds itself to.
 *
 * @module
 */

/** One run: bench times by group and name, allocation and cold start. */
export interface RunData {
  /** ns per iteration in each round, by group, then bench name. */
  times: Map<string, Map<string, number[]>>;
  alloc: Record<
    string,
    Record<string, { bytes: number; minorGcsPer1000: number }>
  >;
  cold: Record<string, number>;
}

/** A target: `value op limit` is met. */
export interface Target {
  op: "≤" | "≥";
  limit: number;
  /** What the target says, for the headline. */
  label: string;
}

/** One figure of one group; `values` holds one entry per run. */
export interface Ratio {
  group: string;
  column: string;
  values: number[];
  unit: "×" | "ns/section" | "µs" | "bytes" | "ms" | "GCs/1,000 steps";
  target?: Target;
}

/** The step sizes, in table order. */
export const SIZES = ["small", "medium", "large"] as const;
/** The kinds of step of `bench/step_bench.ts`, in table order. */
export const KINDS = [
  "unchanged step",
  "one variable changed",
  "one section changed",
  "every variable changed",
] as const;
/** The peers in their fast configuration. */
export const FAST_PEERS = ["lodash template", "eta", "doT"] as const;
/** The agent counts of `bench/agents_bench.ts`. */
export const AGENTS = [1, 10, 100] as const;

/**
 * The suffix of the groups on deep-frozen tools (`bench/step_bench.ts` and
 * `bench/agents_bench.ts`): the medium scenario only.
 */
export const FROZEN = "medium, frozen schemas";
/** The kinds of step timed on deep-frozen tools too. */
export const FROZEN_KINDS = ["unchanged step", "one variable changed"] as const;

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? sorted[middle]!
    : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The targets, by group and figure. */
const TARGETS: Record<string, Target> = {
  "unchanged step medium\u0000ours/memo floor": {
    op: "≤",
    limit: 1.3,
    label: "unchanged step: ours / memoizing floor",
  },
  "one variable changed medium\u0000ours/memo floor": {
    op: "≤",
    limit: 1.6,
    label: "one variable changed: ours / memoizing floor",
  },
  "agents 100 medium\u0000ours/per-agent ideal": {
    op: "≤",
    limit: 1.4,
    label: "100 agents taking turns: ours / per-agent memoizing ideal",
  },
  // The same targets where the floors' identity comparison of tools is
  // exact: tools the host deep froze.
  [`unchanged step ${FROZEN}\u0000ours/memo floor`]: {
    op: "≤",
    limit: 1.3,
    label: "unchanged step, deep-frozen tools: ours / memoizing floor",
  },
  [`one variable changed ${FROZEN}\u0000ours/memo floor`]: {
    op: "≤",
    limit: 1.6,
    label: "one variable changed, deep-frozen tools: ours / memoizing floor",
  },
  [`agents 100 ${FROZEN}\u0000ours/per-agent ideal`]: {
    op: "≤",
    limit: 1.4,
    label: "100 agents, deep-frozen tools: ours / per-agent memoizing ideal",
  },
};

/** Every ratio of one run. */
export function collectRatios(data: RunData): Ratio[] {
  const ratios: Ratio[] = [];
  const add = (
    group: string,
    column: string,
    value: number,
    unit: Ratio["unit"] = "×",
  ) => {
    const target = TARGETS[`${group}\u0000${column}`];
    ratios.push({
      group,
      column,
      values: [value],
      unit,
      ...(target === undefined ? {} : { target }),
    });
  };
  const rounds = (group: string, name: string): number[] => {
    const samples = data.times.get(group)?.get(name);
    if (samples === undefined) {
      throw new Error(`no bench "${name}" in "${group}"`);
    }
    return samples;
  };
  /** Round by round, the fastest of `top` over the fastest of `bottom`. */
  const ratio = (
    group: string,
    top: string | readonly string[],
    bottom: string | readonly string[],
  ) => {
    const fastest = (names: string | readonly string[], r: number) =>
      Math.min(...[names].flat().map((name) => rounds(group, name)[r]!));
    const count = rounds(group, [top].flat()[0]!).length;
    const each = Array.from(
      { length: count },
      (_, r) => fastest(top, r) / fastest(bottom, r),
    );
    return median(each);
  };
  const time = (group: string, name: string) => median(rounds(group, name));
  const known = new Set<string>();
  const seen = (group: string) => (known.add(group), group);
  const oursTime = (group: string) =>
    add(group, "ours time", time(group, "ours") / 1000, "µs");

  for (const [group, times] of data.times) {
    if (!group.startsWith("render ")) continue;
    seen(group);
    add(group, "ours/floor", ratio(group, "ours", "floor"));
    add(group, "best fast peer/ours", ratio(group, FAST_PEERS, "ours"));
    for (const name of times.keys()) {
      if (name === "ours" || name === "floor") continue;
      add(group, `${name}/ours`, ratio(group, name, "ours"));
    }
    oursTime(group);
  }

  for (const size of SIZES) {
    for (const kind of KINDS) {
      const group = seen(`${kind} ${size}`);
      add(group, "ours/memo floor", ratio(group, "ours", "memo floor"));
      add(group, "ours/read floor", ratio(group, "ours", "read floor"));
      add(
        group,
        "read floor/memo floor",
        ratio(group, "read floor", "memo floor"),
      );
      add(group, "ours/physical limit", ratio(group, "ours", "physical limit"));
      add(group, "ours/floor (full step)", ratio(group, "ours", "floor"));
      add(
        group,
        "memo floor/physical limit",
        ratio(group, "memo floor", "physical limit"),
      );
      oursTime(group);
      const flat = seen(`${kind} ${size}, flattened`);
      add(flat, "best fast peer/ours", ratio(flat, FAST_PEERS, "ours"));
      add(flat, "floor/ours", ratio(flat, "floor", "ours"));
      for (const peer of FAST_PEERS) {
        add(flat, `${peer}/ours`, ratio(flat, peer, "ours"));
      }
      add(flat, "ours/memo floor", ratio(flat, "ours", "memo floor"));
      oursTime(flat);
    }
  }

  for (const count of AGENTS) {
    const group = seen(`agents ${count} medium`);
    add(group, "ours/per-agent ideal", ratio(group, "ours", "per-agent ideal"));
    add(
      group,
      "ours/per-agent reading floor",
      ratio(group, "ours", "per-agent reading floor"),
    );
    add(group, "ours/physical limit", ratio(group, "ours", "physical limit"));
    add(group, "ours/floor (full step)", ratio(group, "ours", "floor"));
    oursTime(group);
  }

  for (const kind of FROZEN_KINDS) {
    const group = seen(`${kind} ${FROZEN}`);
    add(group, "ours/memo floor", ratio(group, "ours", "memo floor"));
    add(group, "ours/physical limit", ratio(group, "ours", "physical limit"));
    add(group, "ours/floor (full step)", ratio(group, "ours", "floor"));
    oursTime(group);
  }
  {
    const group = seen(`agents 100 ${FROZEN}`);
    add(group, "ours/per-agent ideal", ratio(group, "ours", "per-agent ideal"));
    add(group, "ours/physical limit", ratio(group, "ours", "physical limit"));
    oursTime(group);
  }

  const handlerGroups = [
    ...SIZES.map((size) => `handler path ${size}`),
    "all-sync registry medium",
  ];
  for (const group of handlerGroups) {
    seen(group);
    add(group, "ours/floor", ratio(group, "ours", "floor"));
    add(
      group,
      "render()/assemble + renderPrompt",
      ratio(group, "ours, render()", "ours"),
    );
    if (group === "handler path medium") {
      add(group, "audit on/audit off", ratio(group, "ours, audit on", "ours"));
    }
    oursTime(group);
  }

  for (const scaling of ["scaling render", "scaling step"]) {
    seen(scaling);
    const counts = [...data.times.get(scaling)!.keys()]
      .filter((name) => name.startsWith("ours S="))
      .map((name) => Number(name.slice("ours S=".length)));
    const perSection = counts.map((n) => time(scaling, `ours S=${n}`) / n);
    add(
      scaling,
      "max/min per-section cost",
      Math.max(...perSection) / Math.min(...perSection),
    );
    for (const n of counts) {
      add(
        scaling,
        `S=${n} ours/floor`,
        ratio(scaling, `ours S=${n}`, `floor S=${n}`),
      );
    }
    counts.forEach((n, i) =>
      add(scaling, `S=${n} ours`, perSection[i]!, "ns/section")
    );
  }

  const hostile = seen("hostile 1 MB");
  for (const name of data.times.get(hostile)!.keys()) {
    if (name === "plain text" || name.startsWith("native")) continue;
    add(hostile, `${name} / plain text`, ratio(hostile, name, "plain text"));
  }

  for (const group of data.times.keys()) {
    if (!group.startsWith("waterfall ")) continue;
    seen(group);
    add(group, "ours/plain loop", ratio(group, "ours", "floor"));
    add(group, "tapable/ours", ratio(group, "tapable promise", "ours"));
    add(group, "for-await/ours", ratio(group, "naive for-await", "ours"));
  }

  for (const [kind, byName] of Object.entries(data.alloc)) {
    const group = `allocation ${kind} medium`;
    const ours = byName.ours!;
    add(
      group,
      "ours/memo floor bytes",
      ours.bytes / byName["memo floor"]!.bytes,
    );
    for (const [name, { bytes }] of Object.entries(byName)) {
      add(group, `${name} bytes/step`, bytes, "bytes");
    }
    for (const [name, { minorGcsPer1000 }] of Object.entries(byName)) {
      add(group, `${name} minor GCs`, minorGcsPer1000, "GCs/1,000 steps");
    }
  }

  // Groups of other benches: each bench over the group's first (its time
  // when it is alone).
  for (const [group, times] of data.times) {
    if (known.has(group)) continue;
    const [first, ...rest] = [...times.keys()];
    if (rest.length === 0) add(group, first!, time(group, first!) / 1000, "µs");
    for (const name of rest) {
      add(group, `${name} / ${first}`, ratio(group, name, first!));
    }
  }

  const cold = "cold start medium (import + first step)";
  add(cold, "ours/floor", data.cold.ours! / data.cold.floor!);
  for (const [name, ms] of Object.entries(data.cold)) {
    add(cold, `${name} ms`, ms, "ms");
  }
  return ratios;
}
