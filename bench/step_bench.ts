/**
 * Whole agent steps on the realistic corpora, every implementation checked
 * byte-identical to ours (prompt and tools) over a sequence of steps before
 * anything is timed, every step awaited:
 *
 * - `step <size>`: a step as the loop runs it, ours against the floor and
 *   each fast peer (the floor's step with the peer's interpolation);
 * - `unchanged step <size>`, `one variable changed <size>`,
 *   `one section changed <size>`: ours against the memoizing floor and the
 *   floor's full step.
 *
 * @module
 */

import { BASE_CONTEXT, type Context, SCENARIOS } from "./realistic.ts";
import { assertSame, FAST_PEERS } from "./renderers.ts";
import { oursStep } from "./ours_step.ts";
import { floorStep, memoFloorStep, type Step } from "./steps.ts";

/** The contexts of a kind of step: the n-th step of a run gets `next(n)`. */
const KINDS: Record<string, (n: number) => Context> = {
  "unchanged step": () => BASE_CONTEXT,
  "one variable changed": (n) => ({ turn: n, clock: 0 }),
  "one section changed": (n) => ({ turn: 1, clock: n }),
};

async function check(group: string, steps: Record<string, Step>) {
  // Every kind of change, in a mixed order, through every implementation.
  const contexts = [0, 1, 2, 3, 4, 5, 6, 7].map((n) =>
    [BASE_CONTEXT, { turn: n, clock: 0 }, { turn: 1, clock: n }][n % 3]!
  );
  for (const context of contexts) {
    const expected = await steps.ours!(context);
    for (const [name, step] of Object.entries(steps)) {
      const actual = await step(context);
      assertSame(`${group}: ${name}`, actual.prompt, expected.prompt);
      assertSame(
        `${group}: ${name}'s tools`,
        JSON.stringify(actual.tools),
        JSON.stringify(expected.tools),
      );
    }
  }
}

function bench(
  group: string,
  name: string,
  step: Step,
  next: (n: number) => Context,
) {
  let n = 1;
  Deno.bench({
    group,
    name,
    baseline: name === "ours",
    fn: async () => void (await step(next(++n))),
  });
}

for (const scenario of SCENARIOS) {
  const group = `step ${scenario.name}`;
  const steps: Record<string, Step> = {
    ours: oursStep(scenario),
    floor: floorStep(scenario),
  };
  for (const [name, compile] of Object.entries(FAST_PEERS)) {
    steps[name] = floorStep(scenario, compile);
  }
  await check(group, steps);
  for (const [name, step] of Object.entries(steps)) {
    bench(group, name, step, KINDS["unchanged step"]!);
  }
  if (scenario.name === "medium") {
    // The opt-in waterfall audit, to show what it costs.
    bench(
      group,
      "ours, audit on",
      oursStep(scenario, true),
      KINDS["unchanged step"]!,
    );
  }
}

for (const scenario of SCENARIOS) {
  for (const [kind, next] of Object.entries(KINDS)) {
    const group = `${kind} ${scenario.name}`;
    const steps: Record<string, Step> = {
      ours: oursStep(scenario),
      "memo floor": memoFloorStep(scenario),
      floor: floorStep(scenario),
    };
    await check(group, steps);
    for (const [name, step] of Object.entries(steps)) {
      bench(group, name, step, next);
    }
  }
}
