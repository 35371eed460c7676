/**
 * `deno task bench:report`: runs `deno bench --json` over `bench/` a few
 * times, turns each group into ratios measured in the same run, takes the
 * median over runs, prints the tables and writes `bench/RESULTS.md`.
 *
 * Usage: deno task bench:report [--runs N]
 *
 * @module
 */

interface BenchResult {
  group: string;
  name: string;
  avg: number; // ns per iteration
}

interface BenchJson {
  runtime: string;
  cpu: string;
  benches: {
    group: string | null;
    name: string;
    results: { ok?: { avg: number } }[];
  }[];
}

const runsFlag = Deno.args.indexOf("--runs");
const RUNS = runsFlag === -1 ? 3 : Number(Deno.args[runsFlag + 1]);

async function runBenches(): Promise<
  { results: BenchResult[]; runtime: string; cpu: string }
> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["bench", "--json", "bench/"],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error("deno bench failed");
  const json = JSON.parse(new TextDecoder().decode(output.stdout)) as BenchJson;
  const results: BenchResult[] = [];
  for (const bench of json.benches) {
    const ok = bench.results[0]?.ok;
    if (ok === undefined) {
      throw new Error(`bench "${bench.name}" in "${bench.group}" failed`);
    }
    results.push({ group: bench.group ?? "", name: bench.name, avg: ok.avg });
  }
  return { results, runtime: json.runtime, cpu: json.cpu };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? sorted[middle]!
    : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One ratio per run: `of` over `to` (or per-section costs), medianed. */
type Ratio = { row: string; column: string; target?: number; values: number[] };

function ratiosOf(results: BenchResult[]): Ratio[] {
  const byGroup = new Map<string, Map<string, number>>();
  for (const { group, name, avg } of results) {
    if (!byGroup.has(group)) byGroup.set(group, new Map());
    byGroup.get(group)!.set(name, avg);
  }
  const ratios: Ratio[] = [];
  const add = (row: string, column: string, value: number, target?: number) =>
    ratios.push({
      row,
      column,
      values: [value],
      ...(target === undefined ? {} : { target }),
    });
  for (const [group, times] of byGroup) {
    const ours = times.get("ours");
    if (group.startsWith("render ")) {
      const s = Number(/S=(\d+)/.exec(group)![1]);
      add(
        group,
        "ours/floor",
        ours! / times.get("floor")!,
        s >= 100 ? 1.25 : 1.5,
      );
      for (const [name, time] of times) {
        if (name !== "ours" && name !== "floor") {
          add(group, `${name}/ours`, time / ours!);
        }
      }
    } else if (group.startsWith("waterfall ")) {
      add(
        group,
        "ours/floor",
        ours! / times.get("floor")!,
        group.endsWith("all sync") ? 1.3 : undefined,
      );
      add(group, "tapable/ours", times.get("tapable promise")! / ours!);
      add(group, "for-await/ours", times.get("naive for-await")! / ours!);
    } else if (group === "end to end") {
      add(group, "ours/floor", ours! / times.get("floor")!, 1.5);
      add(group, "audit on/audit off", times.get("ours, audit on")! / ours!);
    } else if (group.startsWith("scaling ")) {
      const perSection = [...times].map(([name, time]) =>
        time / Number(name.slice(2))
      );
      add(
        group,
        "max/min per-section cost",
        Math.max(...perSection) / Math.min(...perSection),
        1.3,
      );
      for (const [name, time] of times) {
        add(group, `${name} ns/section`, time / Number(name.slice(2)));
      }
    } else if (group === "hostile 1 MB") {
      const plain = times.get("plain text")!;
      const rewrite = times.get("native rewrite of \\{{ runs")!;
      add(
        group,
        "\\{{ runs / native rewrite of \\{{ runs",
        times.get("\\{{ runs")! / rewrite,
      );
      for (const [name, time] of times) {
        if (name === "plain text" || name.startsWith("native")) continue;
        const hostile = name !== "prose with references";
        add(
          group,
          `${name} / plain text`,
          time / plain,
          hostile ? 3 : undefined,
        );
      }
    }
  }
  return ratios;
}

function merge(runs: Ratio[][]): Ratio[] {
  const merged = runs[0]!.map((ratio) => ({
    ...ratio,
    values: [...ratio.values],
  }));
  for (const run of runs.slice(1)) {
    for (const [i, ratio] of run.entries()) {
      merged[i]!.values.push(...ratio.values);
    }
  }
  return merged;
}

const runs: Ratio[][] = [];
let runtime = "";
let cpu = "";
for (let run = 1; run <= RUNS; run++) {
  console.error(`bench run ${run} of ${RUNS}…`);
  const result = await runBenches();
  runs.push(ratiosOf(result.results));
  runtime = result.runtime;
  cpu = result.cpu;
}

const lines: string[] = [];
let missed = 0;
let group = "";
for (const ratio of merge(runs)) {
  if (ratio.row !== group) {
    group = ratio.row;
    lines.push(
      "",
      `### ${group}`,
      "",
      "| ratio | median | runs | target |",
      "| --- | ---: | --- | --- |",
    );
  }
  const value = median(ratio.values);
  const isCost = ratio.column.endsWith("ns/section");
  let target = "";
  if (ratio.target !== undefined) {
    const met = value <= ratio.target;
    if (!met) missed++;
    target = `≤ ${ratio.target}× ${met ? "met" : "**not met**"}`;
  } else if (
    ratio.row.startsWith("render ") && ratio.column.endsWith("/ours")
  ) {
    const met = value > 1;
    if (!met) missed++;
    target = `> 1× ${met ? "met" : "**not met**"}`;
  }
  const shown = (
    v: number,
  ) => (isCost
    ? v.toFixed(1)
    : `${v >= 0.1 ? v.toFixed(2) : v.toPrecision(2)}×`);
  lines.push(
    `| ${ratio.column} | ${shown(value)} | ${
      ratio.values.map(shown).join(", ")
    } | ${target} |`,
  );
}

const header = [
  "# Benchmark results",
  "",
  "Written by `deno task bench:report`; do not edit by hand. Each ratio is",
  "measured within one `deno bench --json bench/` run (both sides on the same",
  `machine, minutes apart at most) and the median over ${RUNS} runs is shown.`,
  "`x/ours` above 1 means ours is faster; `ours/floor` is our cost over the",
  "hand-written floor.",
  "",
  `- date: ${new Date().toISOString().slice(0, 10)}`,
  `- runtime: ${runtime}`,
  `- cpu: ${cpu}, ${navigator.hardwareConcurrency} cores`,
  `- targets missed: ${missed}`,
];
const report = [...header, ...lines, ""].join("\n");
await Deno.writeTextFile(new URL("./RESULTS.md", import.meta.url), report);
console.log(report);
