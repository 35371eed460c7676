/**
 * `deno task bench:report`: runs `deno bench --json bench/`, `alloc.ts` and
 * `cold_start.ts` a few times, turns each group into ratios measured in the
 * same run, takes the median over runs, and writes `bench/RESULTS.md` and
 * the README's performance table `bench/README_TABLE.md`.
 *
 * Usage: deno task bench:report [--runs N] [--reuse]
 *
 * `--reuse` writes the markdown again from the figures the last run saved
 * in `.tmp/bench_ratios.json`, without measuring.
 *
 * @module
 */

import { collectRatios, type Ratio, type RunData } from "./report_ratios.ts";
import { notes } from "./report_notes.ts";
import { headline, median, readmeTable, section } from "./report_tables.ts";

const runsFlag = Deno.args.indexOf("--runs");
let RUNS = runsFlag === -1 ? 3 : Number(Deno.args[runsFlag + 1]);
const SAVED = new URL("../.tmp/bench_ratios.json", import.meta.url);

interface BenchJson {
  runtime: string;
  cpu: string;
  benches: {
    group: string | null;
    name: string;
    results: { ok?: { avg: number } }[];
  }[];
}

async function run(args: string[]): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error(`deno ${args.join(" ")} failed`);
  return new TextDecoder().decode(output.stdout);
}

async function runOnce(): Promise<RunData & { runtime: string; cpu: string }> {
  const json = JSON.parse(
    await run(["bench", "--json", "bench/"]),
  ) as BenchJson;
  const times = new Map<string, Map<string, number>>();
  for (const bench of json.benches) {
    const ok = bench.results[0]?.ok;
    if (ok === undefined) {
      throw new Error(`bench "${bench.name}" in "${bench.group}" failed`);
    }
    const group = bench.group ?? "";
    if (!times.has(group)) times.set(group, new Map());
    times.get(group)!.set(bench.name, ok.avg);
  }
  const alloc = JSON.parse(
    await run(["run", "--allow-read", "--allow-run", "bench/alloc.ts"]),
  );
  const cold = JSON.parse(
    await run(["run", "--allow-read", "--allow-run", "bench/cold_start.ts"]),
  );
  return { times, alloc, cold, runtime: json.runtime, cpu: json.cpu };
}

/** Ratios of every run, merged by group and column in first-run order. */
const merged = new Map<string, Ratio>();
let runtime = "";
let cpu = "";
if (Deno.args.includes("--reuse")) {
  const saved = JSON.parse(await Deno.readTextFile(SAVED));
  ({ runtime, cpu } = saved);
  RUNS = saved.runs;
  for (const ratio of saved.ratios as Ratio[]) {
    merged.set(`${ratio.group}\u0000${ratio.column}`, ratio);
  }
} else {
  for (let i = 1; i <= RUNS; i++) {
    console.error(`bench run ${i} of ${RUNS}…`);
    const data = await runOnce();
    runtime = data.runtime;
    cpu = data.cpu;
    for (const ratio of collectRatios(data)) {
      const key = `${ratio.group}\u0000${ratio.column}`;
      const known = merged.get(key);
      if (known === undefined) merged.set(key, ratio);
      else known.values.push(...ratio.values);
    }
    // Saved after every run, so that an interrupted report keeps its runs.
    await Deno.mkdir(new URL("../.tmp/", import.meta.url), { recursive: true });
    await Deno.writeTextFile(
      SAVED,
      JSON.stringify({ runtime, cpu, runs: i, ratios: [...merged.values()] }),
    );
  }
}
const ratios = [...merged.values()];
const missedRatios = ratios.filter((r) => {
  if (r.target?.issue !== true) return false;
  const value = median(r.values);
  return r.target.op === "≤" ? value > r.target.limit : value < r.target.limit;
});

const { lines: headlineLines, missed, total } = headline(ratios);
const report = [
  "# Benchmark results",
  "",
  "Written by `deno task bench:report`; do not edit by hand. Each ratio is",
  "measured within one run of `deno bench --json bench/` (or of",
  "`bench/alloc.ts`, `bench/cold_start.ts`), both sides on the same machine",
  `minutes apart at most, and the median over ${RUNS} runs is shown with`,
  "every run's value. The machine has 2 shared cores on which other work",
  "runs at the same time: single runs are noisy (the same step has been",
  "seen to differ 1.6× between two groups of one run), so read the medians,",
  "and treat differences under ~15% as noise. `x/ours` above 1 means ours is",
  "faster; `ours/floor` is our cost over the hand-written floor.",
  "",
  `- date: ${new Date().toISOString().slice(0, 10)}`,
  `- runtime: ${runtime}`,
  `- cpu: ${cpu}, ${navigator.hardwareConcurrency} cores`,
  `- targets of issue #12 met: ${total - missed} of ${total}`,
  "",
  ...headlineLines,
  ...notes(missedRatios),
  "",
  "## All figures",
  ...section(ratios),
  "",
].join("\n");
await Deno.writeTextFile(new URL("./RESULTS.md", import.meta.url), report);
await Deno.writeTextFile(
  new URL("./README_TABLE.md", import.meta.url),
  readmeTable(ratios, RUNS),
);
// The gate's `deno fmt --check` covers markdown: write it formatted.
await run(["fmt", "bench/RESULTS.md", "bench/README_TABLE.md"]);
console.log(report);
