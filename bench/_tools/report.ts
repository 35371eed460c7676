/**
 * `deno task bench:report`: times every `bench/*_bench.ts` with
 * `bench/_tools/measure.ts` (each group's candidates in interleaved
 * rounds, the median batch of each), runs `bench/_tools/alloc.ts` and
 * `bench/_tools/cold_start.ts`, a few times over; turns each group into
 * ratios measured in the same run, takes the median over runs, and writes `bench/RESULTS.md`, `bench/README_TABLE.md` and the
 * README's performance section (between its `bench:start` / `bench:end`
 * markers).
 *
 * Usage: deno task bench:report [--runs N] [--reuse] [--dry-run]
 *
 * - `--runs N`: how many runs (default 3, what the committed results use;
 *   `--runs 1` is a quick check, about a third of the time);
 * - `--reuse`: write the markdown again from the figures the last run saved
 *   in `.tmp/bench_ratios.json`, without measuring;
 * - `--dry-run`: print the report, write nothing but `.tmp/`.
 *
 * @module
 */

import { BEFORE_COMMIT } from "../_before.ts";
import { ROUNDS, SAMPLE_MS } from "../_bench.ts";
import { RENDER_PATH } from "../_ours.ts";
import { collectRatios, type Ratio, type RunData } from "./ratios.ts";
import { notes } from "./notes.ts";
import {
  baselineLines,
  headline,
  met,
  readmeTable,
  section,
} from "./tables.ts";

const runsFlag = Deno.args.indexOf("--runs");
let RUNS = runsFlag === -1 ? 3 : Number(Deno.args[runsFlag + 1]);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  throw new Error("Cannot run the report: --runs takes a whole number ≥ 1");
}
const DRY = Deno.args.includes("--dry-run");
const ROOT = new URL("../../", import.meta.url);
const SAVED = new URL(".tmp/bench_ratios.json", ROOT);
const README = new URL("README.md", ROOT);
const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";

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

/**
 * Extracts the code before async providers into `.tmp/before/`
 * (`bench/_before.ts`), for the after/before targets timed in one run.
 */
async function extractBefore(): Promise<void> {
  const dir = new URL(".tmp/before/", ROOT).pathname;
  await Deno.mkdir(dir, { recursive: true });
  const output = await new Deno.Command("sh", {
    args: [
      "-c",
      `git archive ${BEFORE_COMMIT} mod.ts src | tar -x -C "${dir}"`,
    ],
    cwd: ROOT,
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error(`Cannot extract ${BEFORE_COMMIT}`);
}

/** The bench files, `bench/*_bench.ts`, in name order. */
async function benchFiles(): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(new URL("bench/", ROOT))) {
    if (entry.isFile && entry.name.endsWith("_bench.ts")) {
      files.push(`bench/${entry.name}`);
    }
  }
  return files.sort();
}

async function runOnce(): Promise<RunData> {
  const script = (name: string, ...args: string[]) => [
    "run",
    "--lock=deno.lock",
    "--allow-read",
    "--allow-run",
    `bench/_tools/${name}`,
    ...args,
  ];
  const times = new Map<string, Map<string, number>>();
  for (const file of await benchFiles()) {
    const groups = JSON.parse(await run(script("measure.ts", file)));
    for (const [group, byName] of Object.entries(groups)) {
      if (times.has(group)) {
        throw new Error(`Cannot merge: two groups "${group}"`);
      }
      times.set(
        group,
        new Map(Object.entries(byName as Record<string, number>)),
      );
    }
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
  times: [string, [string, number][]][];
  alloc: RunData["alloc"];
  cold: RunData["cold"];
}

function toSaved(data: RunData): SavedRun {
  return {
    times: [...data.times].map(([group, byName]) => [group, [...byName]]),
    alloc: data.alloc,
    cold: data.cold,
  };
}

function fromSaved(saved: SavedRun): RunData {
  return {
    times: new Map(saved.times.map(([g, byName]) => [g, new Map(byName)])),
    alloc: saved.alloc,
    cold: saved.cold,
  };
}

/** Ratios of every run, merged by group and column in first-run order. */
const merged = new Map<string, Ratio>();
function merge(data: RunData) {
  for (const ratio of collectRatios(data)) {
    const key = `${ratio.group}\u0000${ratio.column}`;
    const known = merged.get(key);
    if (known === undefined) merged.set(key, ratio);
    else known.values.push(...ratio.values);
  }
}

let runtime = `Deno/${Deno.version.deno} ${Deno.build.target}`;
let cpu = await cpuName();
let renderPath = RENDER_PATH;
if (Deno.args.includes("--reuse")) {
  // The ratios are computed again from the saved raw figures, so that a
  // new baseline or target applies to figures measured already.
  const saved = JSON.parse(await Deno.readTextFile(SAVED));
  ({ runtime, cpu, renderPath } = saved);
  RUNS = saved.runs;
  for (const run of saved.raw as SavedRun[]) merge(fromSaved(run));
} else {
  await extractBefore();
  const raw: SavedRun[] = [];
  for (let i = 1; i <= RUNS; i++) {
    console.error(`bench run ${i} of ${RUNS}…`);
    const data = await runOnce();
    raw.push(toSaved(data));
    merge(data);
    // Saved after every run, so that an interrupted report keeps its runs.
    await Deno.mkdir(new URL(".tmp/", ROOT), { recursive: true });
    await Deno.writeTextFile(
      SAVED,
      JSON.stringify({ runtime, cpu, renderPath, runs: i, raw }),
    );
  }
}

const ratios = [...merged.values()];
const missed = ratios.filter((r) => met(r) === false);
const hasRender = !renderPath.includes("no render()");
const { lines: headlineLines, met: metCount, total } = headline(ratios);
const report = [
  "# Benchmark results",
  "",
  "Written by `deno task bench:report`; do not edit by hand. Each ratio is",
  "measured within one run of `bench/_tools/measure.ts` over a bench file (or",
  "of `bench/_tools/alloc.ts`, `bench/_tools/cold_start.ts`), and the median",
  `over ${RUNS} run${RUNS === 1 ? "" : "s"} is shown with every run's value.`,
  "The machine has 2 shared cores on which other work runs at the same time,",
  "so a figure is not a mean: the candidates of a group are timed in",
  `interleaved rounds (${ROUNDS} batches of about ${SAMPLE_MS} ms each, their order rotating),`,
  "and a candidate's figure is its median batch. A burst of other work then",
  "falls on every candidate alike and the median drops it, while a batch",
  "holds enough iterations to charge each candidate for the minor",
  "collections its own allocation causes. Treat differences under ~15% as",
  "noise. `x/ours` above 1 means ours is faster; `ours/x` above 1 means ours",
  "is slower. (`deno task bench` runs the same benches under `deno bench`,",
  "for a look by hand.)",
  "",
  `- date: ${new Date().toISOString().slice(0, 10)}`,
  `- runtime: ${runtime}`,
  `- cpu: ${cpu}, ${navigator.hardwareConcurrency} cores`,
  `- ours: \`${renderPath}\` (every "ours" step goes through` +
  " `bench/_ours.ts`)",
  `- targets of issue #23 met: ${metCount} of ${total}`,
  "- reproduce: `deno task bench:report` (3 runs; `--runs 1` for a quick" +
  " check, `--dry-run` to write nothing)",
  "",
  "## Method",
  "",
  "- **Fair render pool** (`bench/_pool.ts`): full renders take the next of",
  "  32 value sets every iteration, each value of other content than in every",
  "  other set, the same sets in the same order for every candidate, so no",
  "  candidate times a memo hit (`ours, same assembly` shows what repeating",
  "  one assembly would have measured).",
  "- **Peers at their fastest** (`bench/_renderers.ts`): lodash `template`",
  "  with `variable`, eta with `useWith: false`, doT with string appends,",
  "  each text's static edges trimmed before compiling and an edge",
  "  reference's value trimmed in the engine's own expression",
  "  (`it.name.trimStart()`), so no section's output is trimmed at step",
  "  time.",
  "- **Steps** (`bench/step_bench.ts`) on the realistic scenarios with no",
  "  assemble handler: nothing changed, one variable, one section (a",
  "  function section's text), or every variable changed (values from the",
  "  pool). The flattened groups pass every side's prompt through",
  "  `JSON.stringify`, as a request body does.",
  "- **Floors** (`bench/_steps.ts`): the floor renders everything, knowing",
  "  every text in advance; the memoizing floor calls every provider and",
  "  re-renders only what changed; the physical limit calls the providers,",
  "  compares with `===`, allocates nothing when nothing changed and finds",
  "  the sections a changed value touches through a reverse index.",
  "- **Many agents** (`bench/agents_bench.ts`): 1, 10 and 100 agents take",
  "  turns on one registry, each with a context of its own; the per-agent",
  "  ideal is one memoizing floor per agent.",
  "- **The handler path** (`bench/handler_path_bench.ts`): `assemble()` +",
  "  `renderPrompt()` with an assemble handler, against the floor with the",
  "  same handler call; `all-sync registry medium` adds two more sync",
  "  handlers. At medium both are also timed, in the same run, on the code",
  "  before `render()` and asynchronous providers (`bench/_before.ts`:",
  "  main f483879, extracted by the report): `ours/before` is the",
  "  after/before figure; `ours/floor ÷ baseline` compares with the ratio",
  "  recorded on that code (`bench/_tools/baselines.ts`), a proxy only.",
  "- Every compared implementation is checked byte-identical to ours",
  "  (prompt, flattened prompt, tools) before anything is timed.",
  "",
  ...headlineLines,
  ...notes(missed, hasRender),
  ...baselineLines(ratios),
  "## All figures",
  ...section(ratios),
  "",
].join("\n");
const table = readmeTable(ratios, RUNS, renderPath);
if (DRY) {
  console.log(report);
  console.log(table);
} else {
  await Deno.writeTextFile(new URL("bench/RESULTS.md", ROOT), report);
  await Deno.writeTextFile(new URL("bench/README_TABLE.md", ROOT), table);
  // The gate's `deno fmt --check` covers markdown: write it formatted.
  await run(["fmt", "bench/RESULTS.md", "bench/README_TABLE.md"]);
  const formatted = await Deno.readTextFile(
    new URL("bench/README_TABLE.md", ROOT),
  );
  const readme = await Deno.readTextFile(README);
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end < start) {
    throw new Error(
      `Cannot update README.md: no ${START} … ${END} markers around the performance section`,
    );
  }
  await Deno.writeTextFile(
    README,
    readme.slice(0, start + START.length) + "\n\n" + formatted + "\n" +
      readme.slice(end),
  );
  await run(["fmt", "README.md"]);
  console.log(report);
}
