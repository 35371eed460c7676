/**
 * `deno task bench:report`: times every `bench/*_bench.ts` with
 * `scripts/bench/measure.ts` (each group's candidates in interleaved
 * rounds), runs `scripts/bench/alloc.ts` and `scripts/bench/cold_start.ts`,
 * a few times over (the bench files in another order each run); turns each
 * run's groups into same-run ratios, takes the median over runs with its
 * spread, and writes `bench/RESULTS.md` and `docs/performance.md`.
 *
 * Usage: deno task bench:report [--runs N] [--reuse] [--dry-run] [--quick]
 *
 * - `--runs N`: how many runs (default 3; `--runs 1` is a quick check);
 * - `--reuse`: write the markdown again from the runs saved in
 *   `.tmp/bench_runs.json`, without measuring;
 * - `--dry-run`: print the markdown, write nothing but `.tmp/`;
 * - `--quick`: time a few short batches only, to check that every bench
 *   runs (the figures mean nothing; one run unless `--runs` says
 *   otherwise; implies `--dry-run`).
 *
 * @module
 */

import { ROUNDS, SAMPLE_MS } from "../../bench/_bench.ts";
import { RENDER_PATH } from "../../bench/_ours.ts";
import { collectRatios, type Ratio, type RunData } from "./ratios.ts";
import { losses } from "./notes.ts";
import {
  figureTable,
  met,
  otherLines,
  summaryTable,
  targetTable,
} from "./tables.ts";

const runsFlag = Deno.args.indexOf("--runs");
const QUICK = Deno.args.includes("--quick");
const RUNS = runsFlag !== -1 ? Number(Deno.args[runsFlag + 1]) : QUICK ? 1 : 3;
if (!Number.isInteger(RUNS) || RUNS < 1) {
  throw new Error("Cannot run the report: --runs takes a whole number ≥ 1");
}
const DRY = QUICK || Deno.args.includes("--dry-run");
const ROOT = new URL("../../", import.meta.url);
const SAVED = new URL(".tmp/bench_runs.json", ROOT);

async function run(args: string[]): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error(`deno ${args.join(" ")} failed`);
  return new TextDecoder().decode(output.stdout);
}

// Standalone scripts with their own rounds and table (`deno run` them):
// they register no `Deno.bench`, so measure.ts has nothing to time.
const STANDALONE = new Set(["wire_bench.ts", "ledger_bench.ts"]);

/** The bench files, `bench/*_bench.ts`, in name order. */
async function benchFiles(): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(new URL("bench/", ROOT))) {
    if (STANDALONE.has(entry.name)) continue;
    if (entry.isFile && entry.name.endsWith("_bench.ts")) {
      files.push(`bench/${entry.name}`);
    }
  }
  return files.sort();
}

/** One run, the bench files rotated by `turn`. */
async function runOnce(turn: number): Promise<SavedRun> {
  const script = (name: string, ...args: string[]) => [
    "run",
    "--lock=deno.lock",
    "--allow-read",
    "--allow-run",
    `scripts/bench/${name}`,
    ...args,
  ];
  const files = await benchFiles();
  const rotated = files.map((_, i) => files[(i + turn) % files.length]!);
  const times: SavedRun["times"] = {};
  for (const file of rotated) {
    const groups = JSON.parse(
      await run(script("measure.ts", file, ...(QUICK ? ["--quick"] : []))),
    );
    for (const group of Object.keys(groups)) {
      if (group in times) {
        throw new Error(`Cannot merge: two groups "${group}"`);
      }
    }
    Object.assign(times, groups);
  }
  const alloc = JSON.parse(await run(script("alloc.ts")));
  const cold = JSON.parse(await run(script("cold_start.ts")));
  return { times, alloc, cold };
}

/** The CPU's model name (Deno reads `/proc` only with every permission). */
async function cpuName(): Promise<string> {
  try {
    const output = await new Deno.Command("cat", {
      args: ["/proc/cpuinfo"],
      stdout: "piped",
      stderr: "null",
    }).output();
    const info = new TextDecoder().decode(output.stdout);
    return /^model name\s*:\s*(.+)$/m.exec(info)?.[1]?.trim() ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** One run's raw figures, as JSON. */
interface SavedRun {
  times: Record<string, Record<string, number[]>>;
  alloc: RunData["alloc"];
  cold: RunData["cold"];
}

/** Ratios of every run, merged by group and column in first-run order. */
const merged = new Map<string, Ratio>();
function merge(saved: SavedRun) {
  const times = new Map(
    Object.entries(saved.times).map((
      [group, byName],
    ) => [group, new Map(Object.entries(byName))]),
  );
  for (const ratio of collectRatios({ ...saved, times })) {
    const key = `${ratio.group}\u0000${ratio.column}`;
    const known = merged.get(key);
    if (known === undefined) merged.set(key, ratio);
    else known.values.push(...ratio.values);
  }
}

let meta = {
  runtime: `Deno/${Deno.version.deno} ${Deno.build.target}`,
  cpu: `${await cpuName()}, ${navigator.hardwareConcurrency} cores`,
  date: new Date().toISOString().slice(0, 10),
  runs: RUNS,
};
if (Deno.args.includes("--reuse")) {
  const saved = JSON.parse(await Deno.readTextFile(SAVED));
  meta = saved.meta;
  for (const raw of saved.raw as SavedRun[]) merge(raw);
} else {
  const raw: SavedRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    console.error(`bench run ${i + 1} of ${RUNS}…`);
    const data = await runOnce(i);
    raw.push(data);
    merge(data);
    if (QUICK) continue;
    // Saved after every run, so that an interrupted report keeps its runs.
    await Deno.mkdir(new URL(".tmp/", ROOT), { recursive: true });
    await Deno.writeTextFile(
      SAVED,
      JSON.stringify({ meta: { ...meta, runs: i + 1 }, raw }),
    );
  }
}

const ratios = [...merged.values()];
const runs = `${meta.runs} run${meta.runs === 1 ? "" : "s"}`;
const targets = ratios.filter((r) => r.target !== undefined);
const metCount = targets.filter((r) => met(r)).length;
const conditions = [
  `- ${meta.date}, ${meta.runtime}, ${meta.cpu}, shared with other work: the`,
  "  machine is noisy (other engineers' tests and benches run on the same",
  "  two cores), so every figure is a median and its spread (the lowest and",
  `  highest of the ${runs}) is shown; differences under ~15% are noise.`,
  `- ${runs}, each bench file in its own process, in another order each run.`,
  `  In a group, every candidate is timed in ${ROUNDS} rounds of one batch of`,
  `  at least ${SAMPLE_MS} ms each, the candidates' order rotating; a batch is`,
  "  timed in the process's CPU time (user and system, every thread), not",
  "  wall time, which would count the time other processes held the core. A",
  "  ratio is the median over rounds of the two candidates' times in the",
  "  same round.",
  "- Each candidate runs in a loop and a closure compiled for it alone, so",
  "  the call into it is monomorphic, as in a host that calls one renderer;",
  "  peers get a join loop (and a step) of their own each.",
  "- Before anything is timed, the scenarios are registered in a registry",
  "  of the process and stepped (every host registers before it renders),",
  "  and every candidate is checked byte-identical to ours.",
  "- Full renders take the next of 32 value sets every iteration (no memo",
  "  hit for anyone). Peers (lodash `template`, eta, doT) run in their",
  "  documented fast configuration with static edges trimmed in advance.",
  "- Flattened steps read the first character of each side's prompt, which",
  "  makes V8 copy a rope into one string: flattening alone, without the",
  "  request body's encoding, which would cost every side the same.",
  `- Ours is \`${RENDER_PATH}\`.`,
];
/** A `##` section: its title and lines, a blank line around. */
const part = (title: string, ...lines: string[]) => [
  `## ${title}`,
  "",
  ...lines,
  "",
];
const targetPart = part(
  `Targets (${metCount} of ${targets.length} met)`,
  ...targetTable(ratios),
);
const wherePart = part("Where we lose", ...losses(ratios));
const conditionPart = part("Conditions", ...conditions);
const results = [
  "# Benchmark results",
  "",
  "Written by `deno task bench:report`; do not edit by hand. What each figure",
  "measures, and how to read it: [docs/performance.md](../docs/performance.md).",
  "",
  ...conditionPart,
  ...targetPart,
  ...wherePart,
  ...part("Figures", ...figureTable(ratios)),
].join("\n");
const performance = [
  "# Performance",
  "",
  "<!-- Written by `deno task bench:report`; do not edit by hand. -->",
  "",
  "Every agent step calls the library once, so its cost is measured per",
  "step, against hand-written code in the same run (ratios, never times",
  "alone). The memoizing floor is hand-written code that calls every",
  "provider and re-renders only what changed, comparing tools by identity;",
  "the reading floor is the memoizing floor that also reads every field of",
  "every tool each step (the least a step does that sees a schema edited in",
  "place); the physical limit calls the providers, compares with `===` and",
  "allocates nothing when nothing changed; the floor renders everything,",
  "knowing every text in advance.",
  "Peers are template engines used as a prompt builder would. Sizes: small",
  "= 8 sections, 6 variables, 20 tools; medium = 40 / 30 / 60; large = 500",
  "/ 500 / 100. A ratio `ours / x` above 1 means ours is slower; `x / ours`",
  "above 1 means ours is faster.",
  "",
  ...part("Figures", ...summaryTable(ratios), "", ...otherLines(ratios)),
  ...targetPart,
  ...wherePart,
  ...conditionPart,
  ...part(
    "Reproduce",
    "`deno task bench:report` measures everything again (several minutes a",
    "run, 3 runs by default; `--runs 1` for a quick look) and rewrites this page",
    "and [bench/RESULTS.md](../bench/RESULTS.md), which lists every figure",
    "with the value of each run. `deno task bench` runs the same benches",
    "under `deno bench`, for a look by hand.",
  ),
].join("\n");
if (DRY) {
  console.log(results);
  console.log(performance);
} else {
  await Deno.writeTextFile(new URL("bench/RESULTS.md", ROOT), results);
  await Deno.writeTextFile(new URL("docs/performance.md", ROOT), performance);
  // The gate's `deno fmt --check` covers markdown: write it formatted.
  await run(["fmt", "bench/RESULTS.md", "docs/performance.md"]);
  console.log(await Deno.readTextFile(new URL("docs/performance.md", ROOT)));
}
