/**
 * Registers a bench twice over: with `Deno.bench`, for `deno task bench`,
 * and in a list that `bench/_tools/measure.ts` reads, for the report (which
 * times each group's candidates in interleaved rounds: see there). Outside
 * `deno bench`, `Deno.bench` does nothing.
 *
 * @module
 */

/** How long one batch of iterations lasts in the report, about, in ms. */
export const SAMPLE_MS = 5;
/** How many batches of each candidate the report times, in rounds. */
export const ROUNDS = 21;

/** One bench: a candidate of a group. */
export interface BenchDef {
  group: string;
  name: string;
  /** One iteration; a promise is awaited. */
  fn: () => unknown;
  /** The group's reference in `deno bench`'s summary. */
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
