/**
 * Turns one run's raw figures into ratios measured within that run, with
 * the targets of issue #12 attached where the issue sets one.
 *
 * @module
 */

/** One run: bench times by group and name, allocation and cold start. */
export interface RunData {
  /** ns per iteration, by group, then bench name. */
  times: Map<string, Map<string, number>>;
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
  /** One of the issue's targets (counted in the headline), or a local one. */
  issue: boolean;
}

/** One figure of one group; `values` holds one entry per run. */
export interface Ratio {
  group: string;
  column: string;
  values: number[];
  unit: "×" | "ns/section" | "µs" | "bytes" | "ms" | "GCs/1,000 steps";
  target?: Target;
}

/**
 * Ours over the floor, step for step, as `bench/step_bench.ts` measured it
 * at main 1494ba0 (before any of issue #12's work): the median of 6 samples
 * (3 runs, each timing that step in its `step` and `unchanged step`
 * groups; samples ranged 2.5–3.2 small, 1.1–5.4 medium, 2.1–7.3 large). The
 * "today's full step" of the target "an unchanged step ≤ 0.5× today's full
 * step", kept as a ratio to the floor so that it carries over to a run on
 * another day or machine.
 */
export const TODAY_STEP_OVER_FLOOR: Readonly<Record<string, number>> = {
  small: 2.76,
  medium: 2.43,
  large: 2.84,
};

const SIZES = ["small", "medium", "large"] as const;
const FAST_PEERS = ["lodash template", "eta", "doT"];

function at(data: RunData, group: string, name: string): number {
  const time = data.times.get(group)?.get(name);
  if (time === undefined) throw new Error(`no bench "${name}" in "${group}"`);
  return time;
}

/** Every ratio of one run. */
export function collectRatios(data: RunData): Ratio[] {
  const ratios: Ratio[] = [];
  const add = (
    group: string,
    column: string,
    value: number,
    target?: Target,
    unit: Ratio["unit"] = "×",
  ) =>
    ratios.push({
      group,
      column,
      values: [value],
      unit,
      ...(target === undefined ? {} : { target }),
    });
  const issue = (op: Target["op"], limit: number): Target => ({
    op,
    limit,
    issue: true,
  });
  const bestPeerOverOurs = (group: string) =>
    Math.min(...FAST_PEERS.map((peer) => at(data, group, peer))) /
    at(data, group, "ours");

  for (const [group, times] of data.times) {
    if (!group.startsWith("render ")) continue;
    const ours = at(data, group, "ours");
    const size = SIZES.find((s) => group === `render ${s}`);
    add(
      group,
      "ours/floor",
      ours / at(data, group, "floor"),
      size === undefined
        ? undefined
        : issue("≤", size === "small" ? 1.5 : 1.25),
    );
    add(
      group,
      "best fast peer/ours",
      bestPeerOverOurs(group),
      size === undefined ? undefined : issue("≥", 1.3),
    );
    for (const [name, time] of times) {
      if (name !== "ours" && name !== "floor") {
        add(group, `${name}/ours`, time / ours);
      }
    }
  }

  for (const size of SIZES) {
    const group = `step ${size}`;
    const ours = at(data, group, "ours");
    add(group, "ours/floor", ours / at(data, group, "floor"));
    add(group, "best fast peer/ours", bestPeerOverOurs(group), issue("≥", 1.3));
    for (const peer of FAST_PEERS) {
      add(group, `${peer}/ours`, at(data, group, peer) / ours);
    }
    if (size === "medium") {
      add(
        group,
        "audit on/audit off",
        at(data, group, "ours, audit on") / ours,
      );
    }
  }

  for (const size of SIZES) {
    for (
      const kind of [
        "unchanged step",
        "one variable changed",
        "one section changed",
      ]
    ) {
      const group = `${kind} ${size}`;
      const ours = at(data, group, "ours");
      const floor = at(data, group, "floor");
      const limit = kind === "unchanged step"
        ? 2.5
        : kind === "one variable changed"
        ? 3
        : undefined;
      add(
        group,
        "ours/memo floor",
        ours / at(data, group, "memo floor"),
        limit === undefined ? undefined : issue("≤", limit),
      );
      add(group, "ours/floor (full step)", ours / floor);
      const today = TODAY_STEP_OVER_FLOOR[size]!;
      if (kind === "unchanged step" && today > 0) {
        add(
          group,
          "ours/today's full step",
          ours / floor / today,
          issue("≤", 0.5),
        );
      }
    }
  }

  for (const scaling of ["scaling render", "scaling assemble+render"]) {
    const times = data.times.get(scaling)!;
    const counts = [...times.keys()]
      .filter((name) => name.startsWith("ours S="))
      .map((name) => Number(name.slice("ours S=".length)));
    const perSection = counts.map((n) => at(data, scaling, `ours S=${n}`) / n);
    add(
      scaling,
      "max/min per-section cost",
      Math.max(...perSection) / Math.min(...perSection),
      issue("≤", 1.3),
    );
    for (const n of counts) {
      const ours = at(data, scaling, `ours S=${n}`);
      add(
        scaling,
        `S=${n} ours/floor`,
        ours / at(data, scaling, `floor S=${n}`),
      );
    }
    for (const n of counts) {
      add(
        scaling,
        `S=${n} ours`,
        at(data, scaling, `ours S=${n}`) / n,
        undefined,
        "ns/section",
      );
    }
  }

  const hostile = "hostile 1 MB";
  const plain = at(data, hostile, "plain text");
  add(
    hostile,
    "\\{{ runs / native rewrite of \\{{ runs",
    at(data, hostile, "\\{{ runs") /
      at(data, hostile, "native rewrite of \\{{ runs"),
  );
  for (const [name, time] of data.times.get(hostile)!) {
    if (name === "plain text" || name.startsWith("native")) continue;
    const local = name === "prose with references"
      ? undefined
      : { op: "≤" as const, limit: 3, issue: false };
    add(hostile, `${name} / plain text`, time / plain, local);
  }

  for (const [group] of data.times) {
    if (!group.startsWith("waterfall ")) continue;
    const ours = at(data, group, "ours");
    add(
      group,
      "ours/plain loop",
      ours / at(data, group, "floor"),
      group.endsWith("all sync") ? issue("≤", 1.1) : undefined,
    );
    add(group, "tapable/ours", at(data, group, "tapable promise") / ours);
    add(group, "for-await/ours", at(data, group, "naive for-await") / ours);
  }

  for (const [kind, byName] of Object.entries(data.alloc)) {
    const group = `allocation ${kind} medium`;
    const ours = byName.ours!;
    const memo = byName["memo floor"]!;
    add(
      group,
      "ours/memo floor bytes",
      ours.bytes / memo.bytes,
      kind === "unchanged step" ? issue("≤", 1) : undefined,
    );
    for (const [name, { bytes }] of Object.entries(byName)) {
      add(group, `${name} bytes/step`, bytes, undefined, "bytes");
    }
    for (const [name, { minorGcsPer1000 }] of Object.entries(byName)) {
      add(
        group,
        `${name} minor GCs`,
        minorGcsPer1000,
        undefined,
        "GCs/1,000 steps",
      );
    }
  }

  // Groups of other benches (bench/registry_bench.ts): each bench over the
  // group's first, or its time when it is alone.
  const known =
    /^(render |step |unchanged step |one variable changed |one section changed |scaling |hostile |waterfall )/;
  for (const [group, times] of data.times) {
    if (known.test(group)) continue;
    const [first, ...rest] = [...times];
    if (rest.length === 0) {
      add(group, `${first![0]}`, first![1] / 1000, undefined, "µs");
    }
    for (const [name, time] of rest) {
      add(group, `${name} / ${first![0]}`, time / first![1]);
    }
  }

  const cold = "cold start medium (import + first step)";
  add(cold, "ours/floor", data.cold.ours! / data.cold.floor!);
  for (const [name, ms] of Object.entries(data.cold)) {
    add(cold, `${name} ms`, ms, undefined, "ms");
  }
  return ratios;
}
