/**
 * The inspector page's view of a cache plan (an adapter's `result.plan`):
 * the breakpoints it placed and the tokens it counted, so that the page
 * shows the plan's counts of what was sent (the owners' rows keep the
 * page's own estimates).
 *
 * @module
 */

import type { CachePlan } from "../adapters/plan.ts";
import { optionError, type OptionFault } from "../inspect/_options.ts";
import type { Breakpoint, ToolBreak } from "./_page_sidebar.ts";

/** What the page takes from a plan. */
export interface PlanView {
  /** The breakpoints it placed in the prompt, with the tokens before each. */
  breakpoints: Breakpoint[];
  /**
   * The breakpoints it placed among the tools (after the static run, after
   * the last tool), with the tokens up to each.
   */
  toolBreaks: ToolBreak[];
  /** Each tool's tokens, in the step's order. */
  toolTokens: readonly number[];
  /** The prompt's tokens: its blocks' sum. */
  promptTokens: number;
}

/**
 * The plan's breakpoints and counts, checked against the step: its blocks
 * must join to `text` and its tools must be as many as the step's.
 */
export function planView(
  plan: CachePlan,
  step: { text: string; tools: number },
): PlanView {
  const { text, tools } = step;
  const fail = (fault: OptionFault) =>
    optionError("build the inspector page", fault);
  if (
    typeof plan !== "object" || plan === null || !Array.isArray(plan.blocks) ||
    !Array.isArray(plan.choices) || !Array.isArray(plan.toolTokens)
  ) {
    throw fail({ state: "plan must be a cache plan", got: plan });
  }
  if (plan.blocks.map((block) => block.text).join("") !== text) {
    throw fail({
      state: "plan is another step's: its blocks do not join to this prompt",
    });
  }
  if (plan.toolTokens.length !== tools) {
    throw fail({
      state: `plan is another step's: it counts ${plan.toolTokens.length} ` +
        `tools, the step has ${tools}`,
    });
  }
  const ends: number[] = [];
  let offset = 0;
  for (const block of plan.blocks) ends.push(offset += block.text.length);
  const view: PlanView = {
    breakpoints: [],
    toolBreaks: [],
    toolTokens: plan.toolTokens,
    promptTokens: plan.blocks.reduce((sum, block) => sum + block.tokens, 0),
  };
  for (const choice of plan.choices) {
    if (!choice.chosen) continue;
    if (choice.after === "tools" || choice.after === "tools-static") {
      const what = choice.after === "tools" ? "tools" : "static tools";
      view.toolBreaks.push({ what, tokens: choice.tokens });
    } else {
      view.breakpoints.push({
        offset: ends[choice.after]!,
        label: choice.detail,
        tokens: choice.tokens,
      });
    }
  }
  return view;
}
