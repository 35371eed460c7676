/**
 * Cold start: a fresh process imports the implementation, registers the
 * medium scenario (or compiles it) and runs the first step. Timed inside
 * the process from just before the dynamic import, so the runtime's own
 * start-up is not counted; the scenario's data are built before the clock
 * starts. Each implementation runs in RUNS fresh processes; the median ms
 * is reported.
 *
 * Usage: deno run --allow-read --allow-run scripts/bench/cold_start.ts
 * (prints JSON `{ name: ms }`)
 *
 * @module
 */

import {
  BASE_CONTEXT,
  type Context,
  SCENARIOS,
} from "../../bench/_realistic.ts";

const RUNS = 7;
const medium = SCENARIOS.find((s) => s.name === "medium")!;

/** Import, set up and run one step; returns the prompt. */
const IMPLEMENTATIONS: Record<string, () => Promise<string>> = {
  ours: async () => {
    const [{ SystemPrompt }, { oursStep }] = await Promise.all([
      import("@dsh/system-prompt"),
      import("../../bench/_ours.ts"),
    ]);
    const prompt = medium.register(new SystemPrompt<Context>(), false);
    return (await oursStep(prompt)(BASE_CONTEXT)).prompt;
  },
  floor: async () => {
    const { floorStep } = await import("../../bench/_steps.ts");
    return (await floorStep(medium)(BASE_CONTEXT)).prompt;
  },
  doT: async () => {
    const [{ floorStep }, { compileDot }] = await Promise.all([
      import("../../bench/_steps.ts"),
      import("../../bench/_peer_dot.ts"),
    ]);
    return (await floorStep(medium, { compile: compileDot })(BASE_CONTEXT))
      .prompt;
  },
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const [name] = Deno.args;
if (name !== undefined) {
  const start = performance.now();
  const prompt = await IMPLEMENTATIONS[name]!();
  const ms = performance.now() - start;
  console.log(JSON.stringify({ ms, length: prompt.length }));
} else {
  const result: Record<string, number> = {};
  let length: number | undefined;
  for (const impl of Object.keys(IMPLEMENTATIONS)) {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const output = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-read", import.meta.filename!, impl],
        stdout: "piped",
        stderr: "inherit",
      }).output();
      if (!output.success) throw new Error(`cold start ${impl} failed`);
      const child = JSON.parse(new TextDecoder().decode(output.stdout));
      // Same prompt from every implementation (step_bench checks bytes).
      if (length !== undefined && child.length !== length) {
        throw new Error(`cold start ${impl}: a prompt of another length`);
      }
      length = child.length;
      times.push(child.ms);
    }
    result[impl] = median(times);
  }
  console.log(JSON.stringify(result));
}
