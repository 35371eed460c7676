/**
 * Why a target is not met: one reason per kind of target, printed under
 * the headline for each kind that misses. The reasons say what the code
 * does that the reference does not, so a reader knows what a figure waits
 * for; none quotes a figure that the report did not measure.
 *
 * @module
 */

import type { Ratio } from "./ratios.ts";

const step = (r: Ratio) =>
  /^(unchanged step|one variable changed|one section changed|every variable changed) \w+$/
    .test(r.group) ||
  r.group.startsWith("allocation") ||
  r.group.startsWith("agents ");

function reasons(hasRender: boolean) {
  return [
    {
      matches: step,
      reason: hasRender
        ? "**Steps, allocation and many agents.** Ours is " +
          "`prompt.render(context, { agent })`. The figures are its cost " +
          "over the floor named in each row; issue #23 lists where a " +
          "medium step's time went before `render()` existed."
        : "**Steps, allocation and many agents, while `render()` does not " +
          "exist.** Ours is `assemble()` + `renderPrompt()`. `assemble()` " +
          "builds, by contract, fresh section objects, tool copies and a " +
          "variables object every step so that a handler may edit its own; " +
          "the memoizing floor, the physical limit and the peers' steps " +
          "build none of them. `renderPrompt()` then compares what it is " +
          "given with what it rendered before, and its memory of recent " +
          "prompts (4, shared by every caller) gives no reuse when 10 or 100 " +
          "agents take turns. `prompt.render(context, { agent })` (issue " +
          "#23) is to skip the assembly objects when no handler is " +
          "registered and to remember per agent; re-run the report when it " +
          "lands.",
    },
    {
      matches: (r: Ratio) => r.group.endsWith(", flattened"),
      reason: "**Flattened steps against the peers.** Sending costs every " +
        "side a copy of the prompt (`JSON.stringify` escapes its newlines); " +
        "a peer's prompt is also a new rope every step that must be " +
        "flattened first, while ours and the memoizing floors give back the " +
        "string of the last step when nothing changed. So the peers' " +
        "flattening is not what ours loses on: it loses on the step cost " +
        "of the rows above.",
    },
    {
      matches: (r: Ratio) => r.group.startsWith("render "),
      reason: "**A full render with reuse defeated.** Every iteration " +
        "brings values of new content, so nothing of an earlier render can " +
        "be reused. Per section, ours checks each value (an own property, a " +
        "string) and the layout fields a handler may have changed; the floor " +
        "does neither. Removed one at a time (same-process comparisons, " +
        "both load orders, median of 6), the own-property check costs about " +
        "10% (`renderPrompt` cannot tell a Proxy from an object; `render()` " +
        "skips it) and the field check about 10%. doT and lodash compile " +
        "each text to straight-line JavaScript (string appends of " +
        "`it.name`) and run below even the edge-trimmed floor, which walks " +
        "an array of parts; ours generates no code (issue #23 measured " +
        "`new Function` and rejected it).",
    },
    {
      matches: (r: Ratio) =>
        r.group.startsWith("handler path") || r.group.startsWith("all-sync"),
      reason:
        "**Against a recorded baseline** (`bench/_tools/baselines.ts`): " +
        "ours over the floor now, divided by the same ratio when the " +
        "baseline was recorded. Differences under ~15% are noise on this " +
        "machine.",
    },
    {
      matches: (r: Ratio) => r.group.startsWith("scaling"),
      reason: "**Per-section cost.** Flat up to about 1,000 sections, then " +
        "rising towards 10,000 sections (a prompt of megabytes, a pool of " +
        "value sets that no longer fits in cache), for the floor too. Not " +
        "profiled further.",
    },
    {
      matches: (r: Ratio) => r.group.startsWith("waterfall"),
      reason: "**Waterfall.** Ours calls each handler, checks each result " +
        "for a thenable and an assembly, keeps what it needs to name the " +
        "handler that last changed the assembly, and checks the result " +
        "after the last handler; the plain loop does none of it.",
    },
    {
      matches: (r: Ratio) => r.group.startsWith("hostile"),
      reason: "**Hostile texts.** Each is parsed afresh (a new text every " +
        "iteration) against a megabyte of plain text parsed afresh; not " +
        "profiled further.",
    },
  ];
}

/** The reasons for every kind of target in `missed`, once each. */
export function notes(missed: readonly Ratio[], hasRender: boolean): string[] {
  const lines: string[] = [];
  for (const { matches, reason } of reasons(hasRender)) {
    if (missed.some(matches)) lines.push(`- ${reason}`);
  }
  return lines.length === 0
    ? []
    : ["### Why a target is missed", "", ...lines, ""];
}
