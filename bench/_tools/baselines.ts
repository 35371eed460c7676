/**
 * Recorded baselines for the targets that compare the code with itself at
 * another time: ours over the floor in the same run (a same-run ratio
 * carries over to another day or machine; an absolute time does not).
 *
 * - `handler path medium` (issue #23: "the handler path no slower than
 *   today") and `all-sync registry medium` (issue #20: "all-sync registry
 *   before/after ≤ 1.05"): recorded from main f483879, before `render()`
 *   and before asynchronous providers, as the medians of the 3-run
 *   `deno task bench:report` that wrote `bench/RESULTS.md` on 2026-12-01
 *   (its `ours/floor` rows of those groups).
 *
 * To record a new baseline (say, once `render()` lands and before async
 * providers do): run `deno task bench:report`, copy the `ours/floor` median
 * of the group from `bench/RESULTS.md` here, then rewrite the report from
 * the same figures with `deno task bench:report --reuse`.
 *
 * @module
 */

/** A recorded same-run ratio. */
export interface Baseline {
  /** Ours over the floor in that group, median of the recorded runs. */
  oursOverFloor: number;
}

/** Baselines by bench group. */
export const BASELINES: Readonly<Record<string, Baseline>> = {
  "handler path small": { oursOverFloor: 2.371 },
  "handler path medium": { oursOverFloor: 1.999 },
  "handler path large": { oursOverFloor: 1.351 },
  "all-sync registry medium": { oursOverFloor: 1.847 },
};
