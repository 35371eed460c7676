/**
 * The handler path: `renderPrompt(await prompt.assemble(context))`, what a
 * host with an assemble handler runs (`_ours.ts`, `handlerPathStep`), on
 * the realistic scenarios with their one handler (it drops a tool), against
 * the floor's full step with the same handler call; `ours, render()` is the
 * one-call step on the same registry (with a handler registered it may
 * assemble and render), and at medium `ours, audit on` shows what the
 * waterfall audit costs. Unchanged steps, every step awaited.
 *
 * `all-sync registry medium`: the medium scenario with three synchronous
 * assemble handlers (the scenario's, one that keeps the assembly by
 * returning nothing, one that returns the assembly it got) and only
 * synchronous providers: the step that must stay synchronous (no promise
 * per provider or handler).
 *
 * Every implementation is checked byte-identical to ours over a mixed
 * sequence of steps before anything is timed.
 *
 * @module
 */

import { addBench, ownSite } from "./_bench.ts";
import { type PromptAssembly, SystemPrompt } from "@dsh/system-prompt";
import { handlerPathStep, oursStep } from "./_ours.ts";
import { BASE_CONTEXT, type Context, SCENARIOS } from "./_realistic.ts";
import { type AnyStep, checkSteps, floorStep } from "./_steps.ts";

function bench(group: string, steps: Record<string, AnyStep>) {
  for (const [name, step] of Object.entries(steps)) {
    addBench({
      group,
      name,
      baseline: name === "ours",
      fn: ownSite(
        (step: AnyStep, context: Context) => async () =>
          void (await step(context)),
        step,
        BASE_CONTEXT,
      ),
    });
  }
}

const registry = (scenario: (typeof SCENARIOS)[number]) =>
  scenario.register(new SystemPrompt<Context>(), true);

for (const scenario of SCENARIOS) {
  const group = `handler path ${scenario.name}`;
  const steps: Record<string, AnyStep> = {
    ours: handlerPathStep(registry(scenario)),
    "ours, render()": oursStep(registry(scenario)),
    floor: floorStep(scenario, { handler: true }),
  };
  if (scenario.name === "medium") {
    steps["ours, audit on"] = handlerPathStep(registry(scenario), true);
  }
  await checkSteps(group, steps);
  bench(group, steps);
}

const medium = SCENARIOS.find((s) => s.name === "medium")!;
/** Reads the assembly and keeps it (returns nothing). */
const keeps = (assembly: PromptAssembly) => void assembly.sections.length;
/** Returns the assembly it got. */
const returns = (assembly: PromptAssembly) => assembly;
const withAllSync = (prompt: SystemPrompt<Context>): SystemPrompt<Context> => {
  medium.register(prompt, true);
  prompt.on("system-prompt/assemble", keeps);
  prompt.on("system-prompt/assemble", returns);
  return prompt;
};
const allSync = () => withAllSync(new SystemPrompt<Context>());
const allSyncScenario = {
  ...medium,
  handler: (assembly: PromptAssembly) => {
    medium.handler(assembly);
    keeps(assembly);
    returns(assembly);
  },
};
const syncSteps: Record<string, AnyStep> = {
  ours: handlerPathStep(allSync()),
  "ours, render()": oursStep(allSync()),
  floor: floorStep(allSyncScenario, { handler: true }),
};
await checkSteps("all-sync registry medium", syncSteps);
bench("all-sync registry medium", syncSteps);
