/**
 * Times the benches of one bench file for the report, robustly on a shared
 * machine: it imports the file (which runs its byte-identity checks and
 * registers its benches through `bench/_bench.ts`), then for each group
 * warms every candidate up, sizes a batch of iterations that lasts about
 * {@linkcode SAMPLE_MS} ms, and times one batch of each candidate per
 * round, {@linkcode ROUNDS} rounds, the candidates' order rotating every
 * round. A candidate's figure is the median of its batches, in ns per
 * iteration. Interleaving puts a burst of other work on every candidate
 * alike, the median drops the batches it hit, and a batch long enough to
 * hold several minor collections charges each candidate for what it
 * allocates.
 *
 * Usage: deno run --allow-read bench/_tools/measure.ts bench/<file>_bench.ts
 * (prints JSON `{ group: { name: ns } }`)
 *
 * @module
 */

import {
  type BenchDef,
  registeredBenches,
  ROUNDS,
  SAMPLE_MS,
} from "../_bench.ts";
/** Warm-up per candidate: at least this long and {@linkcode WARM_CALLS}. */
const WARM_MS = 50;
const WARM_CALLS = 20;

interface Candidate {
  def: BenchDef;
  async: boolean;
  batch: number;
  samples: number[];
}

/** ms for `count` iterations of `fn`. */
async function run(fn: () => unknown, isAsync: boolean, count: number) {
  const start = performance.now();
  if (isAsync) { for (let i = 0; i < count; i++) await fn(); }
  else for (let i = 0; i < count; i++) fn();
  return performance.now() - start;
}

async function prepare(def: BenchDef): Promise<Candidate> {
  const isAsync = def.fn() instanceof Promise;
  const start = performance.now();
  let calls = 0;
  while (calls < WARM_CALLS || performance.now() - start < WARM_MS) {
    await run(def.fn, isAsync, 1);
    calls++;
  }
  let batch = 1;
  let ms = await run(def.fn, isAsync, batch);
  while (ms < 1) {
    batch *= 2;
    ms = await run(def.fn, isAsync, batch);
  }
  batch = Math.max(1, Math.round((batch * SAMPLE_MS) / ms));
  return { def, async: isAsync, batch, samples: [] };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? sorted[middle]!
    : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const [file] = Deno.args;
if (file === undefined) throw new Error("Cannot measure: no bench file given");
await import(new URL(file, `file://${Deno.cwd()}/`).href);

const groups = new Map<string, BenchDef[]>();
for (const def of registeredBenches()) {
  if (!groups.has(def.group)) groups.set(def.group, []);
  groups.get(def.group)!.push(def);
}
const result: Record<string, Record<string, number>> = {};
for (const [group, defs] of groups) {
  const candidates: Candidate[] = [];
  for (const def of defs) candidates.push(await prepare(def));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[(i + round) % candidates.length]!;
      const ms = await run(candidate.def.fn, candidate.async, candidate.batch);
      candidate.samples.push((ms * 1e6) / candidate.batch);
    }
  }
  result[group] = {};
  for (const { def, samples } of candidates) {
    result[group]![def.name] = median(samples);
  }
}
console.log(JSON.stringify(result));
