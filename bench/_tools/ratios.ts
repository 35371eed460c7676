/**
 * Turns one run's raw figures into ratios measured within that run, with
 * the targets attached where an issue sets one: issue #23 (one call per
 * step, measured against peers at their fastest), issue #20 (the all-sync
 * registry before and after asynchronous providers) and the local targets
 * kept from issue #12 (hostile texts, the waterfall, per-section cost).
 *
 * @module
 */

import { BASELINES } from "./baselines.ts";
import { BEFORE_COMMIT } from "../_before.ts";

/** The candidate name of the code before async providers. */
const BEFORE = `before (${BEFORE_COMMIT})`;

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

/** Where a target comes from. */
export type Source = "#23" | "#20" | "#12";

/** A target: `value op limit` is met. */
export interface Target {
  op: "≤" | "≥";
  limit: number;
  source: Source;
  /** What the target says, in the words, for the headline. */
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
/** The peers whose fast configuration the targets name. */
export const FAST_PEERS = ["lodash template", "eta", "doT"];
/** The agent counts of `bench/agents_bench.ts`. */
export const AGENTS = [1, 10, 100] as const;

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
  const target = (
    source: Source,
    op: Target["op"],
    limit: number,
    label: string,
  ): Target => ({ op, limit, source, label });
  const bestPeer = (group: string) =>
    Math.min(...FAST_PEERS.map((peer) => at(data, group, peer)));
  const known: string[] = [];
  const seen = (group: string) => {
    known.push(group);
    return group;
  };
  /** Every candidate's time in `group`, in µs, after its ratios. */
  const absolute = (group: string) => {
    for (const [name, time] of data.times.get(group)!) {
      add(group, `${name} time`, time / 1000, undefined, "µs");
    }
  };

  // Full renders from the fair pool.
  for (const [group, times] of data.times) {
    if (!group.startsWith("render ")) continue;
    seen(group);
    const ours = at(data, group, "ours");
    const medium = group === "render medium";
    add(
      group,
      "ours/floor",
      ours / at(data, group, "floor"),
      medium
        ? target(
          "#23",
          "≤",
          1.6,
          "full render, reuse defeated: ours / edge-trimmed floor",
        )
        : undefined,
    );
    add(
      group,
      "best fast peer/ours",
      bestPeer(group) / ours,
      medium
        ? target(
          "#23",
          "≥",
          0.5,
          "full render, reuse defeated: best peer / ours",
        )
        : undefined,
    );
    for (const [name, time] of times) {
      if (name === "ours" || name === "floor") continue;
      if (name === "ours, same assembly") {
        add(group, "ours same assembly/ours", time / ours);
        add(group, "ours same assembly/floor", time / at(data, group, "floor"));
      } else add(group, `${name}/ours`, time / ours);
    }
    if (!group.startsWith("render S=")) absolute(group);
  }

  // Steps, no handler: raw against the floors, flattened against peers.
  for (const size of SIZES) {
    for (const kind of KINDS) {
      const group = seen(`${kind} ${size}`);
      const ours = at(data, group, "ours");
      const medium = size === "medium";
      const memoLimit = !medium
        ? undefined
        : kind === "unchanged step"
        ? 1.3
        : kind === "one variable changed"
        ? 1.6
        : undefined;
      add(
        group,
        "ours/memo floor",
        ours / at(data, group, "memo floor"),
        memoLimit === undefined
          ? undefined
          : target("#23", "≤", memoLimit, `${kind}: ours / memoizing floor`),
      );
      add(
        group,
        "ours/physical limit",
        ours / at(data, group, "physical limit"),
      );
      add(
        group,
        "memo floor/physical limit",
        at(data, group, "memo floor") / at(data, group, "physical limit"),
      );
      add(group, "ours/floor (full step)", ours / at(data, group, "floor"));
      add(
        group,
        "memo floor/floor (full step)",
        at(data, group, "memo floor") / at(data, group, "floor"),
      );
      absolute(group);

      const flat = seen(`${kind} ${size}, flattened`);
      const oursFlat = at(data, flat, "ours");
      const peerLimit = !medium
        ? undefined
        : kind === "unchanged step"
        ? 2
        : kind === "one variable changed"
        ? 0.9
        : undefined;
      add(
        flat,
        "best fast peer/ours",
        bestPeer(flat) / oursFlat,
        peerLimit === undefined ? undefined : target(
          "#23",
          "≥",
          peerLimit,
          `${kind}, flattened: best peer / ours`,
        ),
      );
      add(
        flat,
        "best fast peer/memo floor",
        bestPeer(flat) / at(data, flat, "memo floor"),
      );
      add(
        flat,
        "best fast peer/physical limit",
        bestPeer(flat) / at(data, flat, "physical limit"),
      );
      add(flat, "floor/ours", at(data, flat, "floor") / oursFlat);
      for (const peer of FAST_PEERS) {
        add(flat, `${peer}/ours`, at(data, flat, peer) / oursFlat);
      }
      add(flat, "ours/memo floor", oursFlat / at(data, flat, "memo floor"));
      absolute(flat);
    }
  }

  // Many agents on one registry.
  for (const count of AGENTS) {
    const group = seen(`agents ${count} medium`);
    const ours = at(data, group, "ours");
    add(
      group,
      "ours/per-agent ideal",
      ours / at(data, group, "per-agent ideal"),
      count === 100
        ? target(
          "#23",
          "≤",
          1.4,
          "100 agents round robin: ours / per-agent ideal",
        )
        : undefined,
    );
    add(group, "ours/physical limit", ours / at(data, group, "physical limit"));
    add(group, "ours/floor (full step)", ours / at(data, group, "floor"));
    absolute(group);
  }

  // The handler path and the all-sync registry, against recorded baselines.
  for (
    const group of [
      ...SIZES.map((size) => `handler path ${size}`),
      "all-sync registry medium",
    ]
  ) {
    seen(group);
    const ours = at(data, group, "ours");
    const overFloor = ours / at(data, group, "floor");
    add(group, "ours/floor", overFloor);
    add(
      group,
      "render()/assemble + renderPrompt",
      at(data, group, "ours, render()") / ours,
    );
    if (group === "handler path medium") {
      add(
        group,
        "audit on/audit off",
        at(data, group, "ours, audit on") / ours,
      );
    }
    const label = group === "handler path medium"
      ? "handler path (assemble + renderPrompt): no slower than before"
      : "all-sync registry step: after / before async support";
    const limit = group === "handler path medium" ? 1 : 1.05;
    const source = group === "handler path medium" ? "#23" : "#20";
    // The code before, timed in this run, when the report extracted it;
    // else the ratio recorded for it.
    const before = data.times.get(group)?.get(BEFORE);
    if (before !== undefined) {
      add(
        group,
        "ours/before",
        ours / before,
        target(source, "≤", limit, label),
      );
    }
    const baseline = BASELINES[group];
    if (baseline !== undefined) {
      add(
        group,
        "ours/floor ÷ baseline",
        overFloor / baseline.oursOverFloor,
        before === undefined && group !== "handler path small" &&
          group !== "handler path large"
          ? target(source, "≤", limit, label)
          : undefined,
      );
    }
    absolute(group);
  }

  for (const scaling of ["scaling render", "scaling step"]) {
    seen(scaling);
    const times = data.times.get(scaling)!;
    const counts = [...times.keys()]
      .filter((name) => name.startsWith("ours S="))
      .map((name) => Number(name.slice("ours S=".length)));
    const perSection = counts.map((n) => at(data, scaling, `ours S=${n}`) / n);
    add(
      scaling,
      "max/min per-section cost",
      Math.max(...perSection) / Math.min(...perSection),
      target(
        "#12",
        "≤",
        1.3,
        `${scaling}: per-section cost, 10 to 10,000 sections, max/min`,
      ),
    );
    for (const n of counts) {
      add(
        scaling,
        `S=${n} ours/floor`,
        at(data, scaling, `ours S=${n}`) / at(data, scaling, `floor S=${n}`),
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

  const hostile = seen("hostile 1 MB");
  const plain = at(data, hostile, "plain text");
  add(
    hostile,
    "\\{{ runs / native rewrite of \\{{ runs",
    at(data, hostile, "\\{{ runs") /
      at(data, hostile, "native rewrite of \\{{ runs"),
  );
  for (const [name, time] of data.times.get(hostile)!) {
    if (name === "plain text" || name.startsWith("native")) continue;
    add(
      hostile,
      `${name} / plain text`,
      time / plain,
      name === "prose with references"
        ? undefined
        : target("#12", "≤", 3, `hostile 1 MB: ${name} / plain text`),
    );
  }

  for (const [group] of data.times) {
    if (!group.startsWith("waterfall ")) continue;
    seen(group);
    const ours = at(data, group, "ours");
    add(
      group,
      "ours/plain loop",
      ours / at(data, group, "floor"),
      group.endsWith("all sync") && !group.includes("H=0")
        ? target("#12", "≤", 1.1, `${group}: ours / plain loop`)
        : undefined,
    );
    add(group, "tapable/ours", at(data, group, "tapable promise") / ours);
    add(group, "for-await/ours", at(data, group, "naive for-await") / ours);
  }

  for (const [kind, byName] of Object.entries(data.alloc)) {
    const group = `allocation ${kind} medium`;
    const ours = byName.ours!;
    add(
      group,
      "ours/memo floor bytes",
      ours.bytes / byName["memo floor"]!.bytes,
      kind === "unchanged step"
        ? target(
          "#23",
          "≤",
          1,
          "allocation per unchanged medium step: ours / memoizing floor",
        )
        : undefined,
    );
    add(
      group,
      "ours/physical limit bytes",
      ours.bytes / byName["physical limit"]!.bytes,
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

  // Groups of other benches (registry_bench.ts, layout_bench.ts): each bench
  // over the group's first, or its time when it is alone.
  for (const [group, times] of data.times) {
    if (known.includes(group)) continue;
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
