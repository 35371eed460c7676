/**
 * Allocation per step at medium: bytes allocated and minor GCs (scavenges)
 * per 1,000 steps, for ours (`_ours.ts`, no assemble handler), the
 * memoizing floor, the physical limit and the floor, on steps where
 * nothing, one variable, one section or every variable changes. Every
 * implementation's output is checked by `step_bench.ts`; this only counts.
 *
 * Usage: deno run --allow-read --allow-run scripts/bench/alloc.ts
 * (prints JSON; it starts itself with the V8 flags below)
 *
 * - bytes: `--expose-gc` and 64 MB semi-spaces, so no collection runs while
 *   300 steps are measured: the heap's growth is what they allocated (a
 *   shrink means a collection ran, and the run fails rather than guess);
 * - minor GCs: default heap sizes and `--trace-gc`, one process running W
 *   warm-up steps and one running W + N; the difference in `Scavenge` lines
 *   is what N steps cost.
 *
 * @module
 */

import { SystemPrompt } from "@dsh/system-prompt";
import { oursStep } from "../../bench/_ours.ts";
import { type Context, SCENARIOS } from "../../bench/_realistic.ts";
import {
  type AnyStep,
  floorStep,
  KINDS,
  memoFloorStep,
  physicalLimitStep,
} from "../../bench/_steps.ts";

const IMPLEMENTATIONS: Record<string, (scenario: typeof medium) => AnyStep> = {
  ours: (scenario) =>
    oursStep(scenario.register(new SystemPrompt<Context>(), false)),
  "memo floor": (scenario) => memoFloorStep(scenario),
  "physical limit": physicalLimitStep,
  floor: (scenario) => floorStep(scenario),
};
const medium = SCENARIOS.find((s) => s.name === "medium")!;
const WARM_UP = 500;
const BYTES_STEPS = 300;
const GC_STEPS = 5000;

async function run(
  step: AnyStep,
  next: (n: number) => Context,
  from: number,
  count: number,
) {
  for (let n = from; n < from + count; n++) await step(next(n));
}

async function bytesPerStep(): Promise<Record<string, Record<string, number>>> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  const result: Record<string, Record<string, number>> = {};
  for (const [kind, next] of Object.entries(KINDS)) {
    result[kind] = {};
    for (const [name, make] of Object.entries(IMPLEMENTATIONS)) {
      const step = make(medium);
      await run(step, next, 1, WARM_UP);
      gc();
      const before = Deno.memoryUsage().heapUsed;
      await run(step, next, WARM_UP + 1, BYTES_STEPS);
      const after = Deno.memoryUsage().heapUsed;
      if (after < before) throw new Error(`${kind} ${name}: a GC ran`);
      result[kind]![name] = Math.round((after - before) / BYTES_STEPS);
    }
  }
  return result;
}

function child(flags: string, ...args: string[]): Promise<Deno.CommandOutput> {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      `--v8-flags=${flags}`,
      import.meta.filename!,
      ...args,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
}

async function scavenges(name: string, kind: string, steps: number) {
  const output = await child("--trace-gc", "steps", name, kind, String(steps));
  if (!output.success) throw new Error(`alloc child ${name} ${kind} failed`);
  return new TextDecoder().decode(output.stdout).split("Scavenge").length - 1;
}

const [mode, name, kind, count] = Deno.args;
if (mode === "bytes") {
  console.log(JSON.stringify(await bytesPerStep()));
} else if (mode === "steps") {
  const step = IMPLEMENTATIONS[name!]!(medium);
  await run(step, KINDS[kind!]!, 1, WARM_UP + Number(count));
} else {
  const output = await child(
    "--expose-gc,--min-semi-space-size=64,--max-semi-space-size=64",
    "bytes",
  );
  if (!output.success) throw new Error("alloc bytes child failed");
  const bytes = JSON.parse(new TextDecoder().decode(output.stdout));
  const report: Record<
    string,
    Record<string, { bytes: number; minorGcsPer1000: number }>
  > = {};
  for (const kind of Object.keys(KINDS)) {
    report[kind] = {};
    for (const name of Object.keys(IMPLEMENTATIONS)) {
      const gcs = (await scavenges(name, kind, GC_STEPS)) -
        (await scavenges(name, kind, 0));
      report[kind]![name] = {
        bytes: bytes[kind][name],
        minorGcsPer1000: Math.max(0, (gcs * 1000) / GC_STEPS),
      };
    }
  }
  console.log(JSON.stringify(report));
}
