/**
 * waterfall: H handlers all sync, one async at the end, or all async; ours
 * against tapable's AsyncSeriesWaterfallHook, a naive `for … await` loop,
 * and a plain loop as the floor. Every runner's result is checked first, and
 * every runner is awaited, whether it returned a promise or not.
 *
 * @module
 */

import tapable from "tapable";
import { runWaterfall, type WaterfallHandler } from "../src/core/waterfall.ts";

type Handler = WaterfallHandler<number, number>;
type Shape = "all sync" | "async last" | "all async";

const sync: Handler = (value, step) => value + step;
const async: Handler = (value, step) => Promise.resolve(value + step);

function handlers(count: number, shape: Shape): Handler[] {
  return Array.from(
    { length: count },
    (_, i) =>
      shape === "all async" || (shape === "async last" && i === count - 1)
        ? async
        : sync,
  );
}

/** Each runner returns the final value, or a promise of it. */
function runners(
  list: Handler[],
): Record<string, () => number | Promise<number>> {
  const hook = new tapable.AsyncSeriesWaterfallHook<[number]>(["value"]);
  for (const [i, handler] of list.entries()) {
    if (handler === async) {
      hook.tapPromise(`h${i}`, (value) => handler(value, 1) as Promise<number>);
    } else hook.tap(`h${i}`, (value) => handler(value, 1) as number);
  }
  return {
    ours: () => runWaterfall(list, 0, 1),
    "tapable promise": () => hook.promise(0),
    "naive for-await": async () => {
      let value = 0;
      for (const handler of list) {
        const result = await handler(value, 1);
        if (result !== undefined) value = result;
      }
      return value;
    },
    floor: () => plainLoop(list, 0, 1),
  };
}

/**
 * The floor: a plain loop with the same signature as ours, awaiting only
 * what is a promise, with no error naming and no result checks.
 */
function plainLoop(
  list: readonly Handler[],
  value: number,
  step: number,
): number | Promise<number> {
  for (let i = 0; i < list.length; i++) {
    const result = list[i]!(value, step);
    if (result instanceof Promise) return finishFloor(list, i, result);
    if (result !== undefined) value = result as number;
  }
  return value;
}

async function finishFloor(
  list: readonly Handler[],
  index: number,
  pending: Promise<unknown>,
): Promise<number> {
  let value = (await pending) as number;
  for (let i = index + 1; i < list.length; i++) {
    value = (await list[i]!(value, 1)) as number;
  }
  return value;
}

for (const shape of ["all sync", "async last", "all async"] as const) {
  for (const count of [0, 1, 5, 20]) {
    if (count === 0 && shape !== "all sync") continue;
    const group = `waterfall H=${count} ${shape}`;
    for (const [name, run] of Object.entries(runners(handlers(count, shape)))) {
      const result = await run(); // warm-up, and the check below
      if (result !== count) {
        throw new Error(
          `${group}: ${name} returned ${result}, expected ${count}`,
        );
      }
      // Awaited on every side: an agent loop awaits `assemble()`, so a
      // synchronous result still costs the caller one await.
      Deno.bench({
        group,
        name,
        baseline: name === "ours",
        fn: async () => void (await run()),
      });
    }
  }
}
