/**
 * Whole agent steps on the realistic corpora (`_realistic.ts`), with no
 * assemble handler registered, every implementation checked byte-identical
 * to ours (prompt, flattened prompt and tools) over a mixed sequence of
 * steps before anything is timed, every step awaited. For each size and
 * each kind of step (nothing changed, one variable, one section, every
 * variable):
 *
 * - `<kind> <size>`: ours (`_ours.ts`: `render()` when the registry has it)
 *   against the memoizing floor, the reading floor (the memoizing floor
 *   reading every field of every tool, the least a step does that sees an
 *   edit in place), the physical limit and the floor's full step
 *   (`_steps.ts`);
 * - `<kind> <size>, flattened`: the same and the fast peers' steps, each
 *   prompt flattened (its first character read, which makes V8 copy a
 *   rope into one string): a peer builds its prompt as a rope of
 *   concatenations, ours and the memoizing floors may return the string of
 *   the last step, and only flattening shows what either costs before it
 *   is sent. Encoding the request body (`JSON.stringify`) costs every
 *   side the same and is left out, so that it does not pull the ratios
 *   towards 1.
 *
 * The medium scenario runs once more with deep-frozen tools (`, frozen
 * schemas`), unchanged and with one variable changed: there the memoizing
 * floor's identity comparison of tools is exact, as the registry's is.
 *
 * Each candidate iterates in a closure compiled for it alone (`ownSite`),
 * and each peer's step is a copy of its own (`floorStep`).
 *
 * @module
 */

import { addBench, ownSite } from "./_bench.ts";
import { SystemPrompt } from "@dsh/system-prompt";
import {
  type Context,
  FROZEN_MEDIUM,
  type Scenario,
  SCENARIOS,
} from "./_realistic.ts";
import { FAST_PEERS } from "./_renderers.ts";
import { oursStep } from "./_ours.ts";
import {
  type AnyStep,
  checkSteps,
  floorStep,
  KINDS,
  memoFloorStep,
  physicalLimitStep,
  readFloorStep,
} from "./_steps.ts";

/** One iteration: the next context's step, awaited. */
const plain = (step: AnyStep, next: (n: number) => Context) => {
  let n = 1;
  return async () => void (await step(next(++n)));
};
/** One iteration, its prompt flattened (read: a rope is flattened first). */
const flattened = (step: AnyStep, next: (n: number) => Context) => {
  let n = 1;
  return async () => (await step(next(++n))).prompt.charCodeAt(0);
};

function bench(
  group: string,
  name: string,
  step: AnyStep,
  next: (n: number) => Context,
  flatten: boolean,
) {
  addBench({
    group,
    name,
    baseline: name === "ours",
    fn: flatten ? ownSite(flattened, step, next) : ownSite(plain, step, next),
  });
}

/** The groups of one kind of step; deep-frozen tools are not flattened. */
function groupName(kind: string, scenario: Scenario, flatten: boolean) {
  const frozen = scenario.frozenSchemas ? ", frozen schemas" : "";
  return `${kind} ${scenario.name}${frozen}${flatten ? ", flattened" : ""}`;
}

const FROZEN_KINDS = ["unchanged step", "one variable changed"];

for (const scenario of [...SCENARIOS, FROZEN_MEDIUM]) {
  for (const [kind, next] of Object.entries(KINDS)) {
    for (const flatten of [false, true]) {
      if (
        scenario.frozenSchemas && (flatten || !FROZEN_KINDS.includes(kind))
      ) continue;
      const group = groupName(kind, scenario, flatten);
      const steps: Record<string, AnyStep> = {
        ours: oursStep(scenario.register(new SystemPrompt<Context>(), false)),
        "memo floor": memoFloorStep(scenario),
        "physical limit": physicalLimitStep(scenario),
        floor: floorStep(scenario),
      };
      // No floor where identity is exact: ours reads nothing there.
      if (!flatten && !scenario.frozenSchemas) {
        steps["read floor"] = readFloorStep(scenario);
      }
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
