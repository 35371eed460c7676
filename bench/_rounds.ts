/**
 * Interleaved rounds for the standalone benches (`wire_bench.ts`,
 * `ledger_bench.ts`): each candidate's batch is sized to last at least
 * {@linkcode BATCH_MS} ms of the process's CPU time, then one batch of
 * each candidate is timed per round, the order reversed every other round,
 * so that a burst of other work falls on every candidate alike and the
 * ratios can be taken round by round.
 *
 * @module
 */

import process from "node:process";

/** How long one batch lasts at least, in CPU ms. */
export const BATCH_MS = 50;

/**
 * The process's CPU time in ms (user and system): the machine is shared,
 * and wall time would count the time other processes held the core.
 */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The CPU ms that `n` iterations of `candidate` take. */
export type Timer<C> = (candidate: C, n: number) => Promise<number>;

/** Iterations of `candidate` that last about {@linkcode BATCH_MS}. */
async function calibrate<C>(candidate: C, time: Timer<C>): Promise<number> {
  let n = 1;
  for (;;) {
    const ms = await time(candidate, n);
    if (ms >= BATCH_MS) return n;
    n = Math.ceil(
      n * Math.min(10, Math.max(2, (BATCH_MS * 1.2) / Math.max(ms, 0.01))),
    );
  }
}

/** Nanoseconds per iteration of each candidate, per round, interleaved. */
export async function measure<C>(
  candidates: Record<string, C>,
  how: { rounds: number; time: Timer<C> },
): Promise<Record<string, number[]>> {
  const { rounds, time } = how;
  const names = Object.keys(candidates);
  const sizes: Record<string, number> = {};
  for (const name of names) {
    sizes[name] = await calibrate(candidates[name]!, time);
  }
  const times: Record<string, number[]> = Object.fromEntries(
    names.map((n) => [n, []]),
  );
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? names : names.slice().reverse();
    for (const name of order) {
      const n = sizes[name]!;
      times[name]!.push((await time(candidates[name]!, n)) * 1e6 / n);
    }
  }
  return times;
}

/** The middle value (the upper one of an even count). */
export function median(values: readonly number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}
