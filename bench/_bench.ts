/**
 * Registers a bench twice over: with `Deno.bench`, for `deno task bench`,
 * and in a list that `scripts/bench/measure.ts` reads, for the report
 * (which times each group's candidates in interleaved rounds: see there).
 * Outside `deno bench`, `Deno.bench` does nothing.
 *
 * @module
 */

/** How long one batch of iterations lasts in the report, at least, in ms. */
export const SAMPLE_MS = 50;
/** How many batches of each candidate the report times, in rounds. */
export const ROUNDS = 7;

/** One bench: a candidate of a group. */
export interface BenchDef {
  group: string;
  name: string;
  /**
   * One iteration; a promise is awaited, a number returned is summed into
   * a sink that outlives the loop (so the work cannot be dropped).
   */
  fn: () => unknown;
  /** The group's reference in `deno bench`'s summary and in the ratios. */
  baseline?: boolean;
}

const registered: BenchDef[] = [];

/** Registers `def` with `Deno.bench` and for the report. */
export function addBench(def: BenchDef): void {
  registered.push(def);
  Deno.bench({
    group: def.group,
    name: def.name,
    baseline: def.baseline ?? false,
    fn: def.fn as () => void | Promise<void>,
  });
}

/** Every bench registered so far, in registration order. */
export function registeredBenches(): readonly BenchDef[] {
  return registered;
}

let copies = 0;

/**
 * `make(...args)` from a copy of `make` compiled for this call alone. V8
 * keeps one set of inline caches per function literal, shared by every
 * closure made from it: a candidate whose iteration (or join loop) is a
 * closure of a shared literal would call every candidate's function from
 * one megamorphic call site, and be timed slower than it runs in a host.
 * `make` must use only its parameters and globals (it is compiled from its
 * source, outside its module).
 */
export function ownSite<A extends unknown[], R>(
  make: (...args: A) => R,
  ...args: A
): R {
  const source = `return (${make});\n// bench call site ${++copies}`;
  return (new Function(source)() as (...args: A) => R)(...args);
}
