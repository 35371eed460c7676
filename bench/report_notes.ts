/**
 * Why a target of issue #12 is not met yet: one reason per kind of target,
 * printed under the headline for each kind that misses. The reasons name
 * the work that is still to do, so a reader knows what a figure waits for.
 *
 * @module
 */

import type { Ratio } from "./report_ratios.ts";

const REASONS: { matches: (ratio: Ratio) => boolean; reason: string }[] = [
  {
    matches: (r) =>
      r.group.startsWith("render ") ||
      (r.group.startsWith("step ") && r.column === "best fast peer/ours"),
    reason: "**Render against the floor and the peers.** The renderer " +
      "still trims every interpolated section at run time (a copy of the " +
      "whole section) and builds each string anew on every step. Trimming " +
      "static edges once at parse time and rendering only what changed " +
      "(issue #12, item 2's first bullet and item 3) are the renderer work " +
      "that follows the SPEC §7 layout changes to `src/render/render.ts`; " +
      "these rows show its effect when it lands. The floor and the peers " +
      "already get the edge plan at compile time.",
  },
  {
    matches: (r) =>
      r.group.startsWith("unchanged step") ||
      r.group.startsWith("one variable changed"),
    reason: "**Unchanged and one-variable steps.** There is no " +
      "incremental path yet: a step where nothing changed costs a full " +
      "step (item 3). The memoizing floor calls every provider and returns " +
      "its previous string. `ours/today's full step` compares with the " +
      "step at main 1494ba0 (both against the same-run floor): above 1 " +
      "means a full step now costs more than it did then; the reliability " +
      "merge (#11: change events, parameters deep-frozen, fields read once) " +
      "came in between and has not been profiled here.",
  },
  {
    matches: (r) => r.group.startsWith("allocation"),
    reason: "**Allocation.** Every step builds the assembly's arrays, " +
      "section objects and tool copies (SPEC §3.5) and the whole prompt " +
      "string; the memoizing floor builds neither. Incremental rendering " +
      "(item 3) removes the string; the assembly objects stay by contract.",
  },
  {
    matches: (r) => r.group.startsWith("scaling"),
    reason: "**Per-section cost.** The parse cache no longer thrashes " +
      "past 2,048 sections: before the bound grew with the texts in use, " +
      "one run (not a report run) measured render at 10.7× the floor at " +
      "5,000 sections and 40× at 10,000; see the `S=… ours/floor` rows for " +
      "today. The per-section cost still rises with the prompt's size, " +
      "ours more than the floor's towards 10,000 sections (a prompt of " +
      "megabytes, trimmed and concatenated section by section); not " +
      "profiled yet, and the renderer work of item 2 and 3 changes exactly " +
      "this path.",
  },
  {
    matches: (r) => r.group.startsWith("waterfall"),
    reason: "**Waterfall.** Ours names failing handlers and checks each " +
      "result for a thenable; the plain loop does neither.",
  },
];

/** The reasons for every kind of target in `missed`, once each. */
export function notes(missed: readonly Ratio[]): string[] {
  const lines: string[] = [];
  for (const { matches, reason } of REASONS) {
    if (missed.some(matches)) lines.push(`- ${reason}`);
  }
  return lines.length === 0
    ? []
    : ["", "### Why a target is missed", "", ...lines];
}
