/**
 * Markdown for `bench/RESULTS.md` and the README's performance table from
 * the merged ratios: medians over runs, every run shown, targets marked.
 *
 * @module
 */

import { BASELINES } from "./baselines.ts";
import { AGENTS, type Ratio, SIZES, type Source } from "./ratios.ts";

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? sorted[middle]!
    : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function shown(value: number, unit: Ratio["unit"]): string {
  switch (unit) {
    case "×":
      return `${value >= 0.1 ? value.toFixed(2) : value.toPrecision(2)}×`;
    case "bytes":
      return value.toLocaleString("en-US", { maximumFractionDigits: 0 });
    default:
      return value.toFixed(1);
  }
}

/** Whether the median meets the target; `undefined` without one. */
export function met(ratio: Ratio): boolean | undefined {
  const target = ratio.target;
  if (target === undefined) return undefined;
  const value = median(ratio.values);
  return target.op === "≤" ? value <= target.limit : value >= target.limit;
}

function targetCell(ratio: Ratio): string {
  const target = ratio.target;
  if (target === undefined) return "";
  return `${target.op} ${target.limit}× ${met(ratio) ? "met" : "**not met**"}`;
}

const SOURCES: Record<Source, string> = {
  "#23": "Targets of issue #23 (one call per step; same-run ratios, medium)",
  "#20": "Target of issue #20 (async providers must not slow all-sync steps)",
  "#12": "Local targets kept from issue #12",
};

/** The targets, one table per issue, and how many of #23's are met. */
export function headline(
  ratios: readonly Ratio[],
): { lines: string[]; met: number; total: number } {
  const lines: string[] = [];
  let count = 0;
  let total = 0;
  for (const [source, title] of Object.entries(SOURCES)) {
    const rows = ratios.filter((r) => r.target?.source === source);
    if (rows.length === 0) continue;
    lines.push(
      `## ${title}`,
      "",
      "| target | group | figure | median | runs | target |",
      "| --- | --- | --- | ---: | --- | --- |",
    );
    for (const ratio of rows) {
      if (source === "#23") {
        total++;
        if (met(ratio)) count++;
      }
      lines.push(
        `| ${ratio.target!.label} | ${ratio.group} | ${ratio.column} | ${
          shown(median(ratio.values), ratio.unit)
        } | ${ratio.values.map((v) => shown(v, ratio.unit)).join(", ")} | ${
          targetCell(ratio)
        } |`,
      );
    }
    lines.push("");
  }
  return { lines, met: count, total };
}

/**
 * The recorded baselines (`bench/_tools/baselines.ts`) beside this
 * report's figures, with how to record them again.
 */
export function baselineLines(ratios: readonly Ratio[]): string[] {
  const lines = [
    "## Recorded baselines",
    "",
    "Same-run ratios recorded from main f483879 (before `render()` and before",
    "asynchronous providers) by `deno task bench:report` (3 runs), kept in",
    "`bench/_tools/baselines.ts`. The all-sync registry step is the baseline",
    'of issue #20 ("all-sync registry before/after ≤ 1.05"): once',
    "asynchronous providers land, `deno task bench:report` shows",
    "`ours/floor ÷ baseline` for it in the table above.",
    "",
    "| group | recorded ours/floor | ours/floor now | ours now (µs) |",
    "| --- | ---: | ---: | ---: |",
  ];
  for (const [group, { oursOverFloor }] of Object.entries(BASELINES)) {
    lines.push(
      `| ${group} | ${oursOverFloor.toFixed(3)}× | ${
        median(find(ratios, group, "ours/floor").values).toFixed(3)
      }× | ${median(find(ratios, group, "ours time").values).toFixed(1)} |`,
    );
  }
  lines.push("");
  return lines;
}

/** Every group as a table of its own. */
export function section(ratios: readonly Ratio[]): string[] {
  const lines: string[] = [];
  let group = "";
  for (const ratio of ratios) {
    if (ratio.group !== group) {
      group = ratio.group;
      lines.push(
        "",
        `### ${group}`,
        "",
        "| figure | median | runs | target |",
        "| --- | ---: | --- | --- |",
      );
    }
    lines.push(
      `| ${ratio.column} (${ratio.unit}) | ${
        shown(median(ratio.values), ratio.unit)
      } | ${ratio.values.map((v) => shown(v, ratio.unit)).join(", ")} | ${
        targetCell(ratio)
      } |`,
    );
  }
  return lines;
}

function find(ratios: readonly Ratio[], group: string, column: string) {
  const ratio = ratios.find((r) => r.group === group && r.column === column);
  if (ratio === undefined) throw new Error(`no ${column} in ${group}`);
  return ratio;
}

function cell(ratios: readonly Ratio[], group: string, column: string) {
  const ratio = find(ratios, group, column);
  const value = shown(median(ratio.values), ratio.unit);
  const target = ratio.target;
  if (target === undefined) return value;
  return `${value} (target ${target.op} ${target.limit}×${
    met(ratio) ? ", met" : ""
  })`;
}

/** The README's performance section, between its markers. */
export function readmeTable(
  ratios: readonly Ratio[],
  runs: number,
  renderPath: string,
): string {
  const row = (
    label: string,
    group: (size: string) => string,
    column: string,
  ) =>
    `| ${label} | ${
      SIZES.map((size) => cell(ratios, group(size), column)).join(" | ")
    } |`;
  const alloc = "allocation unchanged step medium";
  const cold = "cold start medium (import + first step)";
  const sync = "all-sync registry medium";
  const allSync = ratios.filter((r) =>
    r.group.startsWith("waterfall ") && r.group.endsWith("all sync") &&
    r.column === "ours/plain loop"
  );
  const worstSync = Math.max(...allSync.map((r) => median(r.values)));
  const missed = ratios.filter((r) =>
    r.target?.source === "#23" && met(r) === false
  );
  return [
    `<!-- Written by \`deno task bench:report\` (${
      new Date().toISOString().slice(0, 10)
    }); medians of ${runs} run${
      runs === 1 ? "" : "s"
    } of same-run ratios. Do not edit by hand. -->`,
    "",
    "Sizes: small = 8 sections, 6 variables, 20 tools; medium = 40 / 30 / 60;",
    "large = 500 / 500 / 100. The memoizing floor is hand-written code that",
    "calls every provider and re-renders only what changed; the physical limit",
    "calls the providers, compares with `===` and allocates nothing when",
    "nothing changed; the floor renders everything, knowing every text in",
    "advance. Peers (lodash `template`, eta, doT) run in their documented fast",
    "configuration with static edges trimmed in advance, as ours are.",
    '"Flattened" steps send the prompt the way a request body does',
    "(`JSON.stringify`), on every side. Full renders take a new set of values",
    "every iteration, so that no candidate measures a memo hit.",
    `Ours is \`${renderPath}\`.`,
    "",
    "| same-run ratio (median) | small | medium | large |",
    "| --- | ---: | ---: | ---: |",
    row(
      "unchanged step: ours / memoizing floor",
      (s) => `unchanged step ${s}`,
      "ours/memo floor",
    ),
    row(
      "unchanged step, flattened: best peer / ours",
      (s) => `unchanged step ${s}, flattened`,
      "best fast peer/ours",
    ),
    row(
      "one variable changed: ours / memoizing floor",
      (s) => `one variable changed ${s}`,
      "ours/memo floor",
    ),
    row(
      "one variable changed, flattened: best peer / ours",
      (s) => `one variable changed ${s}, flattened`,
      "best fast peer/ours",
    ),
    row(
      "every variable changed: ours / floor",
      (s) => `every variable changed ${s}`,
      "ours/floor (full step)",
    ),
    row(
      "full render, reuse defeated: ours / floor",
      (s) => `render ${s}`,
      "ours/floor",
    ),
    row(
      "full render, reuse defeated: best peer / ours",
      (s) => `render ${s}`,
      "best fast peer/ours",
    ),
    row(
      "handler path (assemble + renderPrompt): ours / floor",
      (s) => `handler path ${s}`,
      "ours/floor",
    ),
    "",
    `- ${
      AGENTS.map((n) => `${n}`).join(" / ")
    } agents taking turns on one registry (unchanged medium steps): ours / per-agent memoizing ideal ${
      AGENTS.map((n) =>
        cell(ratios, `agents ${n} medium`, "ours/per-agent ideal")
      ).join(" / ")
    }`,
    `- allocation per unchanged medium step: ours ${
      cell(ratios, alloc, "ours bytes/step")
    } bytes, memoizing floor ${
      cell(ratios, alloc, "memo floor bytes/step")
    }, physical limit ${
      cell(ratios, alloc, "physical limit bytes/step")
    } (the scenario's providers build fresh strings and arrays on every side)`,
    `- all-sync registry step (medium, three sync handlers): ours / the same step before asynchronous providers ${
      cell(ratios, sync, "ours/before")
    }; handler path (medium): ours / before ${
      cell(ratios, "handler path medium", "ours/before")
    }`,
    `- per-section cost from 10 to 10,000 sections, max/min: render ${
      cell(ratios, "scaling render", "max/min per-section cost")
    }, step ${cell(ratios, "scaling step", "max/min per-section cost")}`,
    `- all-sync waterfall inside \`assemble()\`: at most ${
      worstSync.toFixed(2)
    }× an empty assembly followed by a plain loop`,
    `- cold start (import + first medium step): ours ${
      cell(ratios, cold, "ours ms")
    } ms, floor ${cell(ratios, cold, "floor ms")} ms, doT ${
      cell(ratios, cold, "doT ms")
    } ms`,
    "",
    ...(missed.length === 0
      ? ["Every target of issue #23 is met in this run."]
      : [
        `Where we lose (${missed.length} of ${
          ratios.filter((r) => r.target?.source === "#23").length
        } targets of issue #23 missed):`,
        "",
        ...missed.map((r) =>
          `- ${r.target!.label}: ${shown(median(r.values), r.unit)} (target ${
            r.target!.op
          } ${r.target!.limit}×)`
        ),
      ]),
    "",
    "Full tables, method and the reasons for each miss:",
    "[bench/RESULTS.md](bench/RESULTS.md); reproduce with `deno task bench:report`.",
    "",
  ].join("\n");
}
