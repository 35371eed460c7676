/**
 * waterfall: H assemble handlers all sync, one async at the end, or all
 * async, through the public API. Ours is `assemble()` on a registry that
 * holds nothing but the H handlers; each other runner is `assemble()` on an
 * empty registry followed by the same H handlers over the assembly it
 * returned: tapable's AsyncSeriesWaterfallHook, a naive `for … await` loop,
 * and a plain loop that awaits only what is a promise (the floor), each
 * chained with `.then` (one promise reaction more than ours: about what an
 * empty waterfall costs, so ours may beat the floor at H=0). Both sides pay
 * for one empty assembly, so the difference is the waterfall.
 * Every runner's handler calls are counted and checked first, and every
 * runner is awaited, whether it returned a promise or not.
 *
 * @module
 */

import { addBench, ownSite } from "./_bench.ts";
import tapable from "tapable";
import { type PromptAssembly, SystemPrompt } from "@dsh/system-prompt";

type Handler = (
  assembly: PromptAssembly,
) => PromptAssembly | undefined | Promise<PromptAssembly | undefined>;
type Shape = "all sync" | "async last" | "all async";

let calls = 0;
const sync: Handler = () => void calls++;
const async: Handler = () => {
  calls++;
  return Promise.resolve(undefined);
};

function handlers(count: number, shape: Shape): Handler[] {
  return Array.from(
    { length: count },
    (_, i) =>
      shape === "all async" || (shape === "async last" && i === count - 1)
        ? async
        : sync,
  );
}

const empty = new SystemPrompt();

/** Each runner returns the final assembly, or a promise of it. */
function runners(
  list: Handler[],
): Record<string, () => Promise<PromptAssembly>> {
  const ours = new SystemPrompt();
  for (const handler of list) ours.on("system-prompt/assemble", handler);
  const hook = new tapable.AsyncSeriesWaterfallHook<[PromptAssembly]>([
    "assembly",
  ]);
  for (const [i, handler] of list.entries()) {
    if (handler === async) {
      hook.tapPromise(
        `h${i}`,
        (assembly) =>
          (handler(assembly) as Promise<undefined>).then(() => assembly),
      );
    } else {
      hook.tap(
        `h${i}`,
        (assembly) =>
          (handler(assembly) as PromptAssembly | undefined) ?? assembly,
      );
    }
  }
  const forAwait = async (start: PromptAssembly) => {
    let assembly = start;
    for (const handler of list) {
      const result = await handler(assembly);
      if (result !== undefined) assembly = result;
    }
    return assembly;
  };
  return {
    ours: () => ours.assemble(),
    "tapable promise": () => empty.assemble().then((a) => hook.promise(a)),
    "naive for-await": () => empty.assemble().then(forAwait),
    floor: () => empty.assemble().then((a) => plainLoop(list, a)),
  };
}

/**
 * The floor: a plain loop, awaiting only what is a promise, with no error
 * naming and no result checks.
 */
function plainLoop(
  list: readonly Handler[],
  assembly: PromptAssembly,
): PromptAssembly | Promise<PromptAssembly> {
  for (let i = 0; i < list.length; i++) {
    const result = list[i]!(assembly);
    if (result instanceof Promise) {
      return finishFloor(list, i, result, assembly);
    }
    if (result !== undefined) assembly = result;
  }
  return assembly;
}

async function finishFloor(
  list: readonly Handler[],
  index: number,
  pending: Promise<PromptAssembly | undefined>,
  assembly: PromptAssembly,
): Promise<PromptAssembly> {
  assembly = (await pending) ?? assembly;
  for (let i = index + 1; i < list.length; i++) {
    assembly = (await list[i]!(assembly)) ?? assembly;
  }
  return assembly;
}

for (const shape of ["all sync", "async last", "all async"] as const) {
  for (const count of [0, 1, 5, 20]) {
    if (count === 0 && shape !== "all sync") continue;
    const group = `waterfall H=${count} ${shape}`;
    for (const [name, run] of Object.entries(runners(handlers(count, shape)))) {
      calls = 0;
      const assembly = await run(); // warm-up, and the check below
      if (calls !== count || !Array.isArray(assembly.sections)) {
        throw new Error(
          `${group}: ${name} called ${calls} handlers, expected ${count}`,
        );
      }
      addBench({
        group,
        name,
        baseline: name === "ours",
        fn: ownSite(
          (run: () => unknown) => async () => void (await run()),
          run,
        ),
      });
    }
  }
}
