/**
 * Markdown for `bench/RESULTS.md` and `bench/README_TABLE.md` from the
 * merged ratios: medians over runs, every run shown, targets marked.
 *
 * @module
 */

import type { Ratio } from "./report_ratios.ts";

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
    case "ms":
    case "µs":
      return value.toFixed(1);
    default:
      return value.toFixed(1);
  }
}

function met(ratio: Ratio): boolean | undefined {
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

/** The issue's targets, one row each, and how many are missed. */
export function headline(
  ratios: readonly Ratio[],
): { lines: string[]; missed: number; total: number } {
  const rows = ratios.filter((r) => r.target?.issue === true);
  const lines = [
    "## Targets of issue #12",
    "",
    "| group | ratio | median | runs | target |",
    "| --- | --- | ---: | --- | --- |",
  ];
  let missed = 0;
  for (const ratio of rows) {
    if (!met(ratio)) missed++;
    lines.push(
      `| ${ratio.group} | ${ratio.column} | ${
        shown(median(ratio.values), ratio.unit)
      } | ${ratio.values.map((v) => shown(v, ratio.unit)).join(", ")} | ${
        targetCell(ratio)
      } |`,
    );
  }
  return { lines, missed, total: rows.length };
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
  return met(ratio) === false
    ? `${value} (target ${targetCell(ratio).split(" ").slice(0, 2).join(" ")})`
    : value;
}

/** The README's performance table. */
export function readmeTable(ratios: readonly Ratio[], runs: number): string {
  const sizes = ["small", "medium", "large"];
  const row = (
    label: string,
    group: (size: string) => string,
    column: string,
  ) =>
    `| ${label} | ${
      sizes.map((size) => cell(ratios, group(size), column)).join(" | ")
    } |`;
  const allSync = ratios.filter((r) =>
    r.group.endsWith("all sync") && r.column === "ours/plain loop"
  );
  const worstSync = Math.max(...allSync.map((r) => median(r.values)));
  const alloc = "allocation unchanged step medium";
  const cold = "cold start medium (import + first step)";
  return [
    `<!-- Written by \`deno task bench:report\` from bench/RESULTS.md (${
      new Date().toISOString().slice(0, 10)
    }); medians of ${runs} runs of same-run ratios. -->`,
    "",
    "Sizes: small = 8 sections, 6 variables, 20 tools; medium = 40 / 30 / 60;",
    "large = 500 / 500 / 100. The floor is hand-written code that knows every",
    "text in advance; peers run in their documented fast configuration.",
    "",
    "| same-run ratio (median) | small | medium | large |",
    "| --- | ---: | ---: | ---: |",
    row("render: ours / floor", (s) => `render ${s}`, "ours/floor"),
    row(
      "render: best peer / ours",
      (s) => `render ${s}`,
      "best fast peer/ours",
    ),
    row("step: ours / floor", (s) => `step ${s}`, "ours/floor"),
    row("step: best peer / ours", (s) => `step ${s}`, "best fast peer/ours"),
    row(
      "unchanged step: ours / memoizing floor",
      (s) => `unchanged step ${s}`,
      "ours/memo floor",
    ),
    row(
      "one variable changed: ours / memoizing floor",
      (s) => `one variable changed ${s}`,
      "ours/memo floor",
    ),
    "",
    `- per-section cost from 10 to 10,000 sections, max/min: render ${
      cell(ratios, "scaling render", "max/min per-section cost")
    }, assemble + render ${
      cell(ratios, "scaling assemble+render", "max/min per-section cost")
    }`,
    `- allocation per unchanged medium step: ours ${
      cell(ratios, alloc, "ours bytes/step")
    } bytes, memoizing floor ${
      cell(ratios, alloc, "memo floor bytes/step")
    } bytes`,
    `- all-sync waterfall, both sides awaited: at most ${
      worstSync.toFixed(2)
    }× a plain loop`,
    `- cold start (import + first medium step): ours ${
      cell(ratios, cold, "ours ms")
    } ms, floor ${cell(ratios, cold, "floor ms")} ms, doT ${
      cell(ratios, cold, "doT ms")
    } ms`,
    "",
  ].join("\n");
}
