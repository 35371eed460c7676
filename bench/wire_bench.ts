/**
 * The step to the wire: `render()` and an adapter (`toAnthropic`) against
 * `JSON.stringify` of the request they return (the floor: what sending it
 * costs at least), on the medium prompt of a coding agent (a persona, 20
 * plugin sections with variables, a session section, a context entry)
 * with 30 tools of real size (`tests/fixtures/coding_tools.json` three
 * times, about 31 kB of JSON) from a provider that returns fresh objects
 * around shared schemas every step; then the same objects every step, and
 * fresh objects around deep-frozen schemas (which the registry knows by
 * identity, with no walk).
 *
 * Standalone (`deno run`): each candidate has its own loop and call site,
 * batches last at least 50 ms of the process's CPU time, rounds interleave the candidates, and each
 * figure is the median of the per-round ratios. Every candidate's request
 * is checked equal to the floor's before anything is timed. Run with the
 * built-in estimate as `countTokens` (the default path) and with a trivial
 * counter:
 *
 * ```sh
 * deno run --lock=deno.lock --allow-read --allow-env --allow-sys bench/wire_bench.ts
 * ```
 *
 * @module
 */

import { readFileSync } from "node:fs";
import process from "node:process";
import { isDeepStrictEqual } from "node:util";
import {
  type RenderedStep,
  SystemPrompt,
  type ToolSchema,
} from "@dsh/system-prompt";
import { type AdapterOptions, toAnthropic } from "@dsh/system-prompt/adapters";
import { estimateTokens } from "@dsh/system-prompt/inspect";

// Read only where granted: `deno bench bench/` imports this file without
// env access.
const granted =
  Deno.permissions.querySync({ name: "env", variable: "WIRE_ROUNDS" })
    .state === "granted";
const ROUNDS = Number((granted ? Deno.env.get("WIRE_ROUNDS") : undefined) ?? 7);
const BATCH_MS = 50;

interface Context {
  cwd: string;
  clock: string;
}

const FIXTURE: ToolSchema[] = JSON.parse(
  readFileSync(
    new URL("../tests/fixtures/coding_tools.json", import.meta.url),
    "utf8",
  ),
);
/** 30 tools: the fixture three times, renamed; the schemas are shared constants. */
const SCHEMAS: readonly ToolSchema[] = [0, 1, 2].flatMap((copy) =>
  FIXTURE.map((tool) => ({
    ...tool,
    name: copy === 0 ? tool.name : `${tool.name}_${copy}`,
  }))
);

/** The same tools deep frozen (a host's constant module of schemas, frozen). */
const FROZEN: readonly ToolSchema[] = deepFreeze(structuredClone(SCHEMAS));

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const field of Object.values(value)) deepFreeze(field);
    Object.freeze(value);
  }
  return value;
}

/**
 * How the provider answers: fresh objects around the shared schema
 * constants, the same objects, or fresh objects around deep-frozen ones.
 */
type Tools =
  | "fresh wrappers"
  | "same objects"
  | "fresh wrappers, frozen schemas";

const PARAGRAPH =
  "Read the code before you change it, keep each change small, " +
  "run the tests that cover it, and say what you verified and what you did not. ";

function registry(tools: Tools): SystemPrompt<Context> {
  const prompt = new SystemPrompt<Context>();
  prompt.scope("agent-loop").section({
    name: "persona",
    order: 0,
    text: `You are {{agent}}, a coding agent in the user's terminal.\n\n${
      PARAGRAPH.repeat(12)
    }`,
  });
  prompt.scope("agent-loop").variable("agent", () => "Forge");
  for (let i = 0; i < 20; i++) {
    const scope = prompt.scope(`plugin-${i}`);
    scope.variable(`p${i}`, () => `plugin ${i} v1.${i}`);
    scope.section({
      name: `plugin:${i}`,
      order: 100 + i,
      text: `## Plugin {{p${i}}}\n\n${
        PARAGRAPH.repeat(2)
      }Use it when the task needs {{p${i}}}.`,
    });
  }
  prompt.scope("workspace").section({
    name: "workspace",
    order: 500,
    stability: "session",
    text: (c) => `The working directory is ${c.cwd}.`,
  });
  prompt.scope("clock").context({
    name: "clock",
    order: 0,
    text: (c) => `It is ${c.clock}.`,
  });
  const shared = tools === "fresh wrappers, frozen schemas" ? FROZEN : SCHEMAS;
  prompt.scope("tools").tools(() =>
    tools === "same objects" ? shared : shared.map((tool) => ({ ...tool }))
  );
  return prompt;
}

const BASE: Context = { cwd: "/repo", clock: "09:00" };
const MODEL = "claude-sonnet-4-5";

/** A request as a host sends it: the adapter's fields and the conversation. */
function body(request: ReturnType<typeof toAnthropic>) {
  return {
    model: MODEL,
    max_tokens: 1024,
    ...request,
    messages: [{ role: "user", content: "List the files." }],
  };
}

type Candidate = (n: number) => Promise<number>;
interface Figure {
  name: string;
  /** Candidate over baseline, per round. */
  ratios: number[];
  target: string;
}

/** Iterations that last about `BATCH_MS`. */
async function calibrate(run: Candidate): Promise<number> {
  let n = 1;
  for (;;) {
    const start = cpuMs();
    await run(n);
    const ms = cpuMs() - start;
    if (ms >= BATCH_MS) return n;
    n = Math.ceil(
      n * Math.min(10, Math.max(2, (BATCH_MS * 1.2) / Math.max(ms, 0.01))),
    );
  }
}

/**
 * The process's CPU time in ms (user and system): the machine is shared,
 * and wall time would count the time other processes held the core.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Nanoseconds per iteration of each candidate, per round, interleaved. */
async function measure(candidates: Record<string, Candidate>) {
  const names = Object.keys(candidates);
  const sizes: Record<string, number> = {};
  for (const name of names) sizes[name] = await calibrate(candidates[name]!);
  const times: Record<string, number[]> = Object.fromEntries(
    names.map((n) => [n, []]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? names : names.slice().reverse();
    for (const name of order) {
      const n = sizes[name]!;
      const start = cpuMs();
      await candidates[name]!(n);
      times[name]!.push(((cpuMs() - start) * 1e6) / n);
    }
  }
  return times;
}

const median = (values: number[]) => {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
};

let sink = 0;

async function run(
  counterName: string,
  countTokens: (text: string) => number,
  tools: Tools,
) {
  const options: AdapterOptions = { model: MODEL, countTokens };
  const prompt = registry(tools);
  // Other agents already use the registry: its schemas are copied, its
  // texts parsed and counted.
  for (let i = 0; i < 4; i++) {
    toAnthropic(await prompt.render(BASE, { agent: `other-${i}` }), options);
  }
  const floorRequest = body(toAnthropic(await prompt.assemble(BASE), options));
  const floorJson = JSON.stringify(floorRequest);

  // Each candidate: its own loop, its own call sites.
  const floor: Candidate = async (n) => {
    for (let i = 0; i < n; i++) sink += JSON.stringify(floorRequest).length;
    return await sink;
  };
  const assemblyPath: Candidate = async (n) => {
    for (let i = 0; i < n; i++) {
      const request = toAnthropic(await prompt.assemble(BASE), options);
      sink += request.system.length;
    }
    return sink;
  };
  let agentId = 0;
  const coldAgent: Candidate = async (n) => {
    for (let i = 0; i < n; i++) {
      const step = await prompt.render(BASE, { agent: { id: agentId++ } });
      sink += toAnthropic(step, options).system.length;
    }
    return sink;
  };
  const steady = {};
  await prompt.render(BASE, { agent: steady });
  const renderAlone: Candidate = async (n) => {
    for (let i = 0; i < n; i++) {
      sink += (await prompt.render(BASE, { agent: steady })).prompt.length;
    }
    return sink;
  };
  const renderAdapter: Candidate = async (n) => {
    for (let i = 0; i < n; i++) {
      const step = await prompt.render(BASE, { agent: steady });
      sink += toAnthropic(step, options).system.length;
    }
    return sink;
  };
  const clocked = {};
  let minute = 0;
  const contextChanged: Candidate = async (n) => {
    for (let i = 0; i < n; i++) {
      const clock = `${minute++}`;
      const step = await prompt.render({ cwd: "/repo", clock }, {
        agent: clocked,
      });
      sink += toAnthropic(step, options).system.length;
    }
    return sink;
  };
  const moved = {};
  let dir = 0;
  const sessionChanged: Candidate = async (n) => {
    for (let i = 0; i < n; i++) {
      const cwd = `/repo/${dir++}`;
      const step = await prompt.render({ cwd, clock: "09:00" }, {
        agent: moved,
      });
      sink += toAnthropic(step, options).system.length;
    }
    return sink;
  };

  // Same output first: every path's request is the floor's (the changing
  // ones, for the step they were given).
  const check = (step: RenderedStep, expected = floorJson) =>
    assertSame(JSON.stringify(body(toAnthropic(step, options))), expected);
  assertSame(
    JSON.stringify(body(toAnthropic(await prompt.assemble(BASE), options))),
    floorJson,
  );
  check(await prompt.render(BASE, { agent: { id: -1 } }));
  check(await prompt.render(BASE, { agent: steady }));
  for (
    const context of [{ cwd: "/repo", clock: "10:00" }, {
      cwd: "/repo/x",
      clock: "09:00",
    }]
  ) {
    const expected = JSON.stringify(
      body(toAnthropic(await registry(tools).assemble(context), options)),
    );
    check(await prompt.render(context, { agent: {} }), expected);
  }
  if (!isDeepStrictEqual(JSON.parse(floorJson).tools.length, 30)) {
    throw new Error("30 tools");
  }

  const times = await measure({
    floor,
    assemblyPath,
    coldAgent,
    renderAlone,
    renderAdapter,
    contextChanged,
    sessionChanged,
  });
  const ratio = (a: string, b: string) =>
    times[a]!.map((t, i) => t / times[b]![i]!);
  const figures: Figure[] = [
    {
      name: "assemble() + toAnthropic(assembly) / stringify",
      ratios: ratio("assemblyPath", "floor"),
      target: "≤ 2×",
    },
    {
      name: "new agent's first request / stringify",
      ratios: ratio("coldAgent", "floor"),
      target: "≤ 2×",
    },
    {
      name: "unchanged step: render + adapter / render alone",
      ratios: ratio("renderAdapter", "renderAlone"),
      target: "≤ 1.5×",
    },
    {
      name: "context changed: render + adapter / stringify",
      ratios: ratio("contextChanged", "floor"),
      target: "≤ 0.3×",
    },
    {
      name: "session section changed: render + adapter / stringify",
      ratios: ratio("sessionChanged", "floor"),
      target: "≤ 1.0×",
    },
  ];
  console.log(
    `\n### tools: ${tools}; countTokens: ${counterName} (${ROUNDS} rounds, request ${floorJson.length} bytes)\n`,
  );
  console.log("| figure | median | rounds | target |");
  console.log("| --- | ---: | --- | --- |");
  for (const { name, ratios, target } of figures) {
    const shown = ratios.map((r) => `${r.toFixed(2)}×`).join(", ");
    console.log(
      `| ${name} | ${median(ratios).toFixed(2)}× | ${shown} | ${target} |`,
    );
  }
  console.log("\n| candidate | median µs |");
  console.log("| --- | ---: |");
  for (const [name, list] of Object.entries(times)) {
    console.log(`| ${name} | ${(median(list) / 1000).toFixed(1)} |`);
  }
}

function assertSame(actual: string, expected: string) {
  if (actual !== expected) {
    throw new Error(
      `Outputs differ:\n${actual.slice(0, 300)}\n${expected.slice(0, 300)}`,
    );
  }
}

const trivial = (text: string) => text.length >> 2;
const ALL: Tools[] = [
  "fresh wrappers",
  "same objects",
  "fresh wrappers, frozen schemas",
];
for (const tools of ALL) {
  await run("estimateTokens (default)", estimateTokens, tools);
  await run("trivial (length / 4)", trivial, tools);
}
if (sink === -1) console.log(sink);
