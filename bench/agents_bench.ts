/**
 * Many agents on one registry: 1, 10 and 100 agents take turns (round
 * robin), each running an unchanged medium step with a context of its own
 * (its own `turn`, so each agent's prompt differs from the others'). Ours
 * is one registry (no assemble handler) stepped with one agent key per
 * agent (`_ours.ts`); the per-agent memoizing ideal is one memoizing floor
 * per agent, the per-agent reading floor one reading floor (`_steps.ts`:
 * the memoizing floor reading every field of every tool) per agent, the
 * physical limit one per agent too, and the floor's full
 * step remembers nothing. Every implementation is checked byte-identical to
 * ours for every agent over three rounds before anything is timed. Each
 * candidate iterates in a closure compiled for it alone (`ownSite`). The
 * 100 agents run once more on deep-frozen tools (`, frozen schemas`), where
 * the floors' identity comparison of tools is exact, as the registry's is.
 *
 * @module
 */

import { addBench, ownSite } from "./_bench.ts";
import { SystemPrompt } from "@dsh/system-prompt";
import { assertSame } from "./_check.ts";
import { oursStep } from "./_ours.ts";
import { type Context, FROZEN_MEDIUM, SCENARIOS } from "./_realistic.ts";
import {
  type AnyStep,
  floorStep,
  memoFloorStep,
  physicalLimitStep,
  readFloorStep,
} from "./_steps.ts";

/** One iteration: the next agent's step, round robin. */
const turns = (steps: AnyStep[], contexts: Context[]) => {
  let a = 0;
  return async () => {
    const agent = a;
    a = a + 1 === steps.length ? 0 : a + 1;
    await steps[agent]!(contexts[agent]!);
  };
};

const medium = SCENARIOS.find((s) => s.name === "medium")!;

const runs = [
  ...[1, 10, 100].map((count) => ({ count, scenario: medium })),
  { count: 100, scenario: FROZEN_MEDIUM },
];

for (const { count, scenario } of runs) {
  const frozen = scenario.frozenSchemas ? ", frozen schemas" : "";
  const group = `agents ${count} medium${frozen}`;
  const prompt = scenario.register(new SystemPrompt<Context>(), false);
  const contexts: Context[] = Array.from(
    { length: count },
    (_, a) => ({ turn: a + 1, clock: 0, fresh: 0 }),
  );
  const floor = floorStep(scenario);
  const perAgent: Record<string, AnyStep[]> = {
    ours: contexts.map(() => oursStep(prompt, {})),
    "per-agent ideal": contexts.map(() => memoFloorStep(scenario)),
    "physical limit": contexts.map(() => physicalLimitStep(scenario)),
    floor: contexts.map(() => floor),
  };
  // No floor where identity is exact: ours reads nothing there.
  if (!scenario.frozenSchemas) {
    perAgent["per-agent reading floor"] = contexts.map(() =>
      readFloorStep(scenario)
    );
  }
  for (let round = 0; round < 3; round++) {
    for (let a = 0; a < count; a++) {
      const expected = await perAgent.ours![a]!(contexts[a]!);
      const tools = JSON.stringify(expected.tools);
      for (const [name, steps] of Object.entries(perAgent)) {
        const actual = await steps[a]!(contexts[a]!);
        assertSame(`${group}: ${name}`, actual.prompt, expected.prompt);
        assertSame(
          `${group}: ${name}'s tools`,
          JSON.stringify(actual.tools),
          tools,
        );
      }
    }
  }
  for (const [name, steps] of Object.entries(perAgent)) {
    addBench({
      group,
      name,
      baseline: name === "ours",
      fn: ownSite(turns, steps, contexts),
    });
  }
}
