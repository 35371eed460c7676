/**
 * Times the benches of one bench file for the report, on a shared machine:
 * it imports the file (which runs its byte-identity checks and registers
 * its benches through `bench/_bench.ts`), then for each group warms every
 * candidate up, sizes a batch of iterations that lasts at least
 * {@linkcode SAMPLE_MS} ms, and times one batch of each candidate per
 * round, {@linkcode ROUNDS} rounds, the candidates' order rotating every
 * round. Each candidate runs in a loop compiled for it alone, so that the
 * call into it is monomorphic, as it is in a host that calls one renderer;
 * batches are timed in the process's CPU time, not wall time.
 *
 * It prints every batch, in ns per iteration, by round: the report divides
 * two candidates round by round (a burst of other work falls on both
 * alike) and takes the median of those ratios.
 *
 * Usage: deno run --allow-read scripts/bench/measure.ts bench/<file>_bench.ts
 * [--quick] (prints JSON `{ group: { name: [ns, …] } }`; `--quick` times 3
 * rounds of 2 ms batches, to check that everything runs, not to measure)
 *
 * @module
 */

import process from "node:process";
import {
  type BenchDef,
  registeredBenches,
  ROUNDS,
  SAMPLE_MS,
} from "../../bench/_bench.ts";

/** Warm-up per candidate: at least this long and {@linkcode WARM_CALLS}. */
const WARM_MS = 50;
const WARM_CALLS = 20;

/** CPU ms for `count` iterations. */
type Loop = (fn: () => unknown, count: number) => number | Promise<number>;

/**
 * The process's CPU time in ms (user and system, every thread: the
 * collector's helpers too). The machine is shared: wall time counts the
 * time other processes held the core, CPU time only the candidate's own.
 */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

interface Candidate {
  def: BenchDef;
  loop: Loop;
  batch: number;
  samples: number[];
}

let loops = 0;
/** A loop of its own for one candidate (its own call site into `fn`). */
function loopFor(isAsync: boolean): Loop {
  const call = isAsync ? "await fn()" : "fn()";
  const loop = new Function(
    "fn",
    "count",
    "clock",
    `return (${isAsync ? "async " : ""}() => {
      let sink = 0;
      const start = clock();
      for (let i = 0; i < count; i++) {
        const result = ${call};
        if (typeof result === "number") sink += result;
      }
      const ms = clock() - start;
      globalThis.benchSink = (globalThis.benchSink ?? 0) + sink;
      return ms;
    })();
    // candidate loop ${++loops}`,
  );
  return (fn, count) => loop(fn, count, cpuMs);
}

async function prepare(def: BenchDef, warmMs: number): Promise<Candidate> {
  const isAsync = def.fn() instanceof Promise;
  const loop = loopFor(isAsync);
  const start = cpuMs();
  let calls = 0;
  while (calls < WARM_CALLS || cpuMs() - start < warmMs) {
    await loop(def.fn, 1);
    calls++;
  }
  let batch = 1;
  let ms = await loop(def.fn, batch);
  while (ms < Math.min(5, sampleMs)) {
    batch *= 2;
    ms = await loop(def.fn, batch);
  }
  batch = Math.max(1, Math.ceil((batch * sampleMs) / ms));
  return { def, loop, batch, samples: [] };
}

const [file] = Deno.args;
const QUICK = Deno.args.includes("--quick");
const rounds = QUICK ? 3 : ROUNDS;
const sampleMs = QUICK ? 2 : SAMPLE_MS;
if (file === undefined) throw new Error("Cannot measure: no bench file given");
await import(new URL(file, `file://${Deno.cwd()}/`).href);

const groups = new Map<string, BenchDef[]>();
for (const def of registeredBenches()) {
  if (!groups.has(def.group)) groups.set(def.group, []);
  groups.get(def.group)!.push(def);
}
const result: Record<string, Record<string, number[]>> = {};
for (const [group, defs] of groups) {
  const candidates: Candidate[] = [];
  for (const def of defs) {
    candidates.push(await prepare(def, QUICK ? 1 : WARM_MS));
  }
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[(i + round) % candidates.length]!;
      const ms = await candidate.loop(candidate.def.fn, candidate.batch);
      candidate.samples.push((ms * 1e6) / candidate.batch);
    }
  }
  result[group] = {};
  for (const { def, samples } of candidates) {
    result[group]![def.name] = samples;
  }
}
console.log(JSON.stringify(result));
