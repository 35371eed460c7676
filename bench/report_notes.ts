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
    matches: (r) => r.group.startsWith("render "),
    reason: "**A full render against the floor and the peers.** These rows " +
      "time a render that builds every section again (reuse off, " +
      "`bench/full_render.ts`). Static edges are trimmed when a text is " +
      "parsed and a text's template is found by its position without " +
      "hashing it (3–4.4× the floor before, about 1.5–2.1× now); what is " +
      "left is " +
      "per-section work the floor does not do: checking the layout fields " +
      "a handler may have changed (text, list, trim, literal, separator), " +
      "checking each value is an own string, and recording the values for " +
      "the next render's reuse. doT and lodash compile each text to a " +
      "function and beat a full render of ours; an agent's step reuses " +
      "what did not change, which the step rows measure.",
  },
  {
    matches: (r) =>
      (r.group.startsWith("step ") && r.column === "best fast peer/ours") ||
      r.group.startsWith("unchanged step") ||
      r.group.startsWith("one variable changed") ||
      r.group.startsWith("allocation"),
    reason: "**Steps and allocation.** Rendering what did not change is " +
      "now a comparison: a template returns its last result for the same " +
      "values, and a step whose pieces are all the same gets the same " +
      "prompt string back. What remains is `assemble()`, which by contract " +
      "(SPEC §3.5) builds fresh section objects, tool copies and a " +
      "variables object every step so that a handler may edit its own; " +
      "the memoizing floor and the peers' steps (the floor's step with the " +
      "peer's interpolation) build none of them. The larger the prompt, the " +
      "more the render dominates and the closer ours gets: at the large " +
      "size ours beats the best peer's step and a one-variable step costs " +
      "under 2× the memoizing floor.",
  },
  {
    matches: (r) => r.group.startsWith("scaling"),
    reason: "**Per-section cost.** Flat from 10 to 1,000 sections, then " +
      "rising towards 10,000 sections (a prompt of megabytes), ours more " +
      "than the floor's; the parse cache no longer thrashes (one run before " +
      "its bound grew with the texts in use measured 40× the floor at " +
      "10,000 sections). Not profiled further.",
  },
  {
    matches: (r) => r.group.startsWith("waterfall"),
    reason: "**Waterfall.** Ours calls each handler without a `this`, " +
      "checks each result for a thenable and an assembly, and names a " +
      "failing handler; the plain loop does none of it: 1.1–1.3× at 5 " +
      "and 20 handlers, and the runs spread widely on this shared machine.",
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
