/**
 * Markdown for `bench/RESULTS.md` and `docs/performance.md` from the
 * merged ratios: medians over runs with their spread, targets marked.
 *
 * @module
 */

import { AGENTS, FROZEN, median, type Ratio, SIZES } from "./ratios.ts";

/** A value as the tables show it. */
export function shown(value: number, unit: Ratio["unit"]): string {
  switch (unit) {
    case "×":
      return `${value >= 0.1 ? value.toFixed(2) : value.toPrecision(2)}×`;
    case "bytes":
      return value.toLocaleString("en-US", { maximumFractionDigits: 0 });
    default:
      return value.toFixed(1);
  }
}

/** The runs' range, `min–max`, or the one value. */
export function spread(ratio: Ratio): string {
  const low = Math.min(...ratio.values);
  const high = Math.max(...ratio.values);
  return low === high
    ? shown(low, ratio.unit)
    : `${shown(low, ratio.unit)}–${shown(high, ratio.unit)}`;
}

/** Whether the median meets the target; `undefined` without one. */
export function met(ratio: Ratio): boolean | undefined {
  const target = ratio.target;
  if (target === undefined) return undefined;
  const value = median(ratio.values);
  return target.op === "≤" ? value <= target.limit : value >= target.limit;
}

/** The ratio of `column` in `group`. */
export function find(
  ratios: readonly Ratio[],
  group: string,
  column: string,
): Ratio {
  const ratio = ratios.find((r) => r.group === group && r.column === column);
  if (ratio === undefined) throw new Error(`no ${column} in ${group}`);
  return ratio;
}

/** A median with its spread and target, for a table cell. */
export function cell(
  ratios: readonly Ratio[],
  group: string,
  column: string,
): string {
  const ratio = find(ratios, group, column);
  const value = `${shown(median(ratio.values), ratio.unit)} (${spread(ratio)})`;
  const target = ratio.target;
  if (target === undefined) return value;
  return `${value}, target ${target.op} ${target.limit}×${
    met(ratio) ? " met" : " **not met**"
  }`;
}

/** The targets: figure, median, every run, the target and whether met. */
export function targetTable(ratios: readonly Ratio[]): string[] {
  const lines = [
    "| target | median | runs | target |",
    "| --- | ---: | --- | --- |",
  ];
  for (const ratio of ratios.filter((r) => r.target !== undefined)) {
    const { op, limit, label } = ratio.target!;
    lines.push(
      `| ${label} (${ratio.group}) | ${
        shown(median(ratio.values), ratio.unit)
      } | ${
        ratio.values.map((v) => shown(v, ratio.unit)).join(", ")
      } | ${op} ${limit}× ${met(ratio) ? "met" : "**not met**"} |`,
    );
  }
  return lines;
}

/** The summary by size: a row per figure, a column per size. */
export function summaryTable(ratios: readonly Ratio[]): string[] {
  const row = (
    label: string,
    group: (size: string) => string,
    column: string,
  ) =>
    `| ${label} | ${
      SIZES.map((size) => cell(ratios, group(size), column)).join(" | ")
    } |`;
  return [
    "| same-run ratio, median (spread over runs) | small | medium | large |",
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
      "one section changed: ours / memoizing floor",
      (s) => `one section changed ${s}`,
      "ours/memo floor",
    ),
    row(
      "every variable changed: ours / floor",
      (s) => `every variable changed ${s}`,
      "ours/floor (full step)",
    ),
    row(
      "every variable changed, flattened: best peer / ours",
      (s) => `every variable changed ${s}, flattened`,
      "best fast peer/ours",
    ),
    row(
      "full render, reuse defeated: ours / edge-trimmed floor",
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
  ];
}

/** The other figures, one bullet each. */
export function otherLines(ratios: readonly Ratio[]): string[] {
  const alloc = "allocation unchanged step medium";
  const cold = "cold start medium (import + first step)";
  const waterfall = ratios.filter((r) =>
    r.group.startsWith("waterfall ") && r.group.endsWith("all sync") &&
    !r.group.includes("H=0") && r.column === "ours/plain loop"
  );
  const worst = waterfall.reduce((a, b) =>
    median(a.values) >= median(b.values) ? a : b
  );
  return [
    `- ${
      AGENTS.join(" / ")
    } agents taking turns on one registry (unchanged medium steps): ours / per-agent memoizing ideal ${
      AGENTS.map((n) =>
        cell(ratios, `agents ${n} medium`, "ours/per-agent ideal")
      ).join(" / ")
    }`,
    `- on deep-frozen tools (medium), where comparing tools by identity is exact for the floors and for ours: unchanged step ${
      cell(ratios, `unchanged step ${FROZEN}`, "ours/memo floor")
    }, one variable changed ${
      cell(ratios, `one variable changed ${FROZEN}`, "ours/memo floor")
    } (ours / memoizing floor); 100 agents ${
      cell(ratios, `agents 100 ${FROZEN}`, "ours/per-agent ideal")
    } (ours / per-agent ideal)`,
    `- allocation per unchanged medium step: ours ${
      cell(ratios, alloc, "ours bytes/step")
    } bytes, memoizing floor ${
      cell(ratios, alloc, "memo floor bytes/step")
    }, physical limit ${
      cell(ratios, alloc, "physical limit bytes/step")
    } (the scenario's providers build fresh strings and arrays every step)`,
    `- all-sync registry step (medium, three sync handlers): ours / floor ${
      cell(ratios, "all-sync registry medium", "ours/floor")
    }; the waterfall audit on / off (handler path, medium) ${
      cell(ratios, "handler path medium", "audit on/audit off")
    }`,
    `- per-section cost from 10 to 10,000 sections, max / min: render ${
      cell(ratios, "scaling render", "max/min per-section cost")
    }, step ${cell(ratios, "scaling step", "max/min per-section cost")}`,
    `- all-sync waterfall inside \`assemble()\`: at most ${
      cell(ratios, worst.group, worst.column)
    } an empty assembly followed by a plain loop (${worst.group})`,
    `- cold start (import + first medium step): ours ${
      cell(ratios, cold, "ours ms")
    } ms, floor ${cell(ratios, cold, "floor ms")} ms, doT ${
      cell(ratios, cold, "doT ms")
    } ms`,
  ];
}

/** The figures `bench/RESULTS.md` lists for each kind of group. */
const LISTED: readonly [RegExp, RegExp][] = [
  [
    /^render /,
    /^(ours\/floor|best fast peer\/ours|ours, same assembly\/ours)$/,
  ],
  [
    /^(unchanged|one|every) .* \w+$/,
    /^(ours\/(memo floor|read floor|physical limit|floor \(full step\))|read floor\/memo floor)$/,
  ],
  [/, flattened$/, /^(best fast peer\/ours|ours\/memo floor)$/],
  [/^agents /, /^ours\/per-agent (ideal|reading floor)$/],
  [
    /^(handler path|all-sync)/,
    /^(ours\/floor|render\(\)\/.*|audit on\/audit off)$/,
  ],
  [/^scaling /, /^max\/min per-section cost$/],
  [/^hostile /, / \/ plain text$/],
  [/^waterfall /, /^ours\/plain loop$/],
  [/^allocation /, /^ours\/memo floor bytes$/],
  [/^cold start/, /^ours\/floor$/],
];

/** One table of the listed figures of every group. */
export function figureTable(ratios: readonly Ratio[]): string[] {
  const lines = [
    "| group | figure | median | runs |",
    "| --- | --- | ---: | --- |",
  ];
  for (const ratio of ratios) {
    const listed = LISTED.some(([group, column]) =>
      group.test(ratio.group) && column.test(ratio.column)
    );
    if (!listed) continue;
    lines.push(
      `| ${ratio.group} | ${ratio.column} | ${
        shown(median(ratio.values), ratio.unit)
      } | ${ratio.values.map((v) => shown(v, ratio.unit)).join(", ")} |`,
    );
  }
  return lines;
}
