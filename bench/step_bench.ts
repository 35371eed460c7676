/**
 * Whole agent steps on the realistic corpora (`_realistic.ts`), with no
 * assemble handler registered, every implementation checked byte-identical
 * to ours (prompt, flattened prompt and tools) over a mixed sequence of
 * steps before anything is timed, every step awaited. For each size and
 * each kind of step (nothing changed, one variable, one section, every
 * variable):
 *
 * - `<kind> <size>`: ours (`_ours.ts`: `render()` when the registry has it)
 *   against the memoizing floor, the physical limit and the floor's full
 *   step (`_steps.ts`);
 * - `<kind> <size>, flattened`: the same and the fast peers' steps, each
 *   prompt flattened as a sender does (`JSON.stringify(prompt)`, which is
 *   what a request body costs): a peer builds its prompt as a rope of
 *   concatenations, ours and the memoizing floors may return the string of
 *   the last step, and only flattening shows what either costs to send.
 *
 * @module
 */

import { addBench } from "./_bench.ts";
import { SystemPrompt } from "@dsh/system-prompt";
import { type Context, SCENARIOS } from "./_realistic.ts";
import { FAST_PEERS } from "./_renderers.ts";
import { oursStep } from "./_ours.ts";
import {
  type AnyStep,
  checkSteps,
  floorStep,
  KINDS,
  memoFloorStep,
  physicalLimitStep,
} from "./_steps.ts";

let sink = 0;

function bench(
  group: string,
  name: string,
  step: AnyStep,
  next: (n: number) => Context,
  flatten: boolean,
) {
  let n = 1;
  addBench({
    group,
    name,
    baseline: name === "ours",
    fn: flatten
      ? async () => {
        sink += JSON.stringify((await step(next(++n))).prompt).length;
      }
      : async () => void (await step(next(++n))),
  });
}

for (const scenario of SCENARIOS) {
  for (const [kind, next] of Object.entries(KINDS)) {
    for (const flatten of [false, true]) {
      const group = `${kind} ${scenario.name}${flatten ? ", flattened" : ""}`;
      const steps: Record<string, AnyStep> = {
        ours: oursStep(scenario.register(new SystemPrompt<Context>(), false)),
        "memo floor": memoFloorStep(scenario),
        "physical limit": physicalLimitStep(scenario),
        floor: floorStep(scenario),
      };
      if (flatten) {
        for (const [name, compile] of Object.entries(FAST_PEERS)) {
          steps[name] = floorStep(scenario, { compile });
        }
      }
      await checkSteps(group, steps);
      for (const [name, step] of Object.entries(steps)) {
        bench(group, name, step, next, flatten);
      }
    }
  }
}

globalThis.addEventListener("unload", () => {
  if (sink === -1) console.log(sink);
});
