/**
 * Ours, one agent step: `renderPrompt(await prompt.assemble(context))`.
 *
 * @module
 */

import { renderPrompt, SystemPrompt } from "../mod.ts";
import type { Context, Scenario } from "./realistic.ts";
import type { Step } from "./steps.ts";

/** Ours, on a registry built once; `audit` turns the waterfall audit on. */
export function oursStep(scenario: Scenario, audit = false): Step {
  const prompt = scenario.register(new SystemPrompt<Context>());
  return async (context) => {
    const assembly = await prompt.assemble(context, { audit });
    return { prompt: renderPrompt(assembly), tools: assembly.tools };
  };
}
