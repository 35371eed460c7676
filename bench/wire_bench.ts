/**
 * The step to the wire: `render()` and each adapter (`toAnthropic`,
 * `toOpenAIResponses`, `toOpenAIChat`, `toGemini`, `toBedrock`, `toAISDK`)
 * against `JSON.stringify` of the request it returns, wrapped as a host
 * sends it to that provider's SDK (the floor: what sending it costs at
 * least), on the medium prompt of a coding agent (a persona, 20 plugin
 * sections with variables, a session section, a context entry) with 30
 * tools of real size (`tests/fixtures/coding_tools.json` three times,
 * about 31 kB of JSON) from a provider that returns fresh objects around
 * shared schemas every step; then the same objects every step, and fresh
 * objects around deep-frozen schemas (which the registry knows by
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
 * The last figure sets the step where the session section changed
 * against the same renders with no adapter: the adapter's own share
 * (reading the step's blocks included), which the floor ratios hide in
 * the noise of the render.
 *
 * Each adapter runs in its own instance of this module (imported again
 * with `?adapter=…`), so its candidates' call sites see that adapter
 * only; the library's own code is shared, as in a host that uses several.
 * `WIRE_ADAPTERS` picks adapters (comma-separated: `anthropic`,
 * `openai-responses`, `openai-chat`, `gemini`, `bedrock`, `ai-sdk`;
 * default all, Anthropic first). To keep the run near a minute,
 * `toAnthropic` runs all three tool providers and the others the first
 * (fresh wrappers) only; `WIRE_TOOLS=all` runs all three for every
 * adapter. `WIRE_ROUNDS` sets the rounds (default 7).
 *
 * @module
 */

import { cpuMs, measure, median, type Timer } from "./_rounds.ts";
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import {
  type RenderedStep,
  SystemPrompt,
  type ToolSchema,
} from "@dsh/system-prompt";
import {
  type AdapterOptions,
  toAISDK,
  toAnthropic,
  toBedrock,
  toGemini,
  toOpenAIChat,
  toOpenAIResponses,
} from "@dsh/system-prompt/adapters";
import { estimateTokens } from "@dsh/system-prompt/inspect";

// Read only where granted: `deno bench bench/` imports this file without
// env access.
const env = (name: string) =>
  Deno.permissions.querySync({ name: "env", variable: name }).state ===
      "granted"
    ? Deno.env.get(name)
    : undefined;
const ROUNDS = Number(env("WIRE_ROUNDS") ?? 7);

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
const USER = "List the files.";

/** An adapter as the bench drives it, and the body a host sends. */
interface Wire {
  /** The adapter's name in the figures. */
  label: string;
  model: string;
  /** The adapter with its options bound (each module instance has one). */
  bind(options: AdapterOptions): (source: Source) => object;
  /** The request as a host sends it: the adapter's fields and the conversation. */
  body(request: object): object;
  /** A field's length, summed so the call is not optimised away. */
  size(request: object): number;
  /** The tools on the wire. */
  tools(request: object): number;
}
type Source = Parameters<typeof toAnthropic>[0];
type Of<F extends (...args: never[]) => unknown> = ReturnType<F>;

const jsonSchema = (schema: object) => ({ jsonSchema: schema });

const WIRES: Record<string, Wire> = {
  anthropic: {
    label: "toAnthropic",
    model: "claude-sonnet-4-5",
    bind: (options) => (source) => toAnthropic(source, options),
    body: (request) => ({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      ...request,
      messages: [{ role: "user", content: USER }],
    }),
    size: (request) => (request as Of<typeof toAnthropic>).system.length,
    tools: (request) => (request as Of<typeof toAnthropic>).tools.length,
  },
  "openai-responses": {
    label: "toOpenAIResponses",
    model: "gpt-5",
    bind: (options) => (source) => toOpenAIResponses(source, options),
    body: (request) => ({
      model: "gpt-5",
      ...request,
      input: [{ role: "user", content: USER }],
    }),
    size: (request) =>
      (request as Of<typeof toOpenAIResponses>).instructions.length,
    tools: (request) => (request as Of<typeof toOpenAIResponses>).tools.length,
  },
  "openai-chat": {
    label: "toOpenAIChat",
    model: "gpt-5",
    bind: (options) => (source) => toOpenAIChat(source, options),
    body: (request) => ({
      model: "gpt-5",
      ...request,
      messages: [
        ...(request as Of<typeof toOpenAIChat>).messages,
        { role: "user", content: USER },
      ],
    }),
    size: (request) => (request as Of<typeof toOpenAIChat>).messages.length,
    tools: (request) => (request as Of<typeof toOpenAIChat>).tools?.length ?? 0,
  },
  gemini: {
    label: "toGemini",
    model: "gemini-2.5-flash",
    bind: (options) => (source) => toGemini(source, options),
    body: (request) => ({
      model: "gemini-2.5-flash",
      contents: [{ role: "user", parts: [{ text: USER }] }],
      config: { ...request },
    }),
    size: (request) =>
      (request as Of<typeof toGemini>).systemInstruction.parts.length,
    tools: (request) =>
      (request as Of<typeof toGemini>).tools[0]?.functionDeclarations
        .length ?? 0,
  },
  bedrock: {
    label: "toBedrock",
    model: "anthropic.claude-sonnet-4-5-20250929-v1:0",
    bind: (options) => (source) => toBedrock(source, options),
    body: (request) => ({
      modelId: "anthropic.claude-sonnet-4-5-20250929-v1:0",
      ...request,
      messages: [{ role: "user", content: [{ text: USER }] }],
    }),
    size: (request) => (request as Of<typeof toBedrock>).system.length,
    tools: (request) =>
      (request as Of<typeof toBedrock>).toolConfig?.tools.filter((tool) =>
        "toolSpec" in tool
      ).length ?? 0,
  },
  "ai-sdk": {
    label: "toAISDK",
    model: "claude-sonnet-4-5",
    bind: (options) => {
      const all = { ...options, jsonSchema };
      return (source) => toAISDK(source, all);
    },
    body: (request) => ({
      ...request,
      messages: [{ role: "user", content: USER }],
    }),
    size: (request) => (request as Of<typeof toAISDK>).system.length,
    tools: (request) =>
      Object.keys((request as Of<typeof toAISDK>).tools).length,
  },
};

type Candidate = (n: number) => Promise<number>;
interface Figure {
  name: string;
  /** Candidate over baseline, per round. */
  ratios: number[];
  target: string;
}

/** A candidate's batch of `n` iterations, timed in CPU ms. */
const timed: Timer<Candidate> = async (run, n) => {
  const start = cpuMs();
  await run(n);
  return cpuMs() - start;
};

let sink = 0;

async function run(
  wire: Wire,
  counterName: string,
  countTokens: (text: string) => number,
  tools: Tools,
): Promise<number[]> {
  const adapter = wire.bind({ model: wire.model, countTokens });
  const { body, size } = wire;
  const prompt = registry(tools);
  // Other agents already use the registry: its schemas are copied, its
  // texts parsed and counted.
  for (let i = 0; i < 4; i++) {
    adapter(await prompt.render(BASE, { agent: `other-${i}` }));
  }
  const floorFields = adapter(await prompt.assemble(BASE));
  const floorRequest = body(floorFields);
  const floorJson = JSON.stringify(floorRequest);

  // Each candidate: its own loop, its own call sites.
  const floor: Candidate = async (n) => {
    for (let i = 0; i < n; i++) sink += JSON.stringify(floorRequest).length;
    return await sink;
  };
  const assemblyPath: Candidate = async (n) => {
    for (let i = 0; i < n; i++) {
      const request = adapter(await prompt.assemble(BASE));
      sink += size(request);
    }
    return sink;
  };
  let agentId = 0;
  const coldAgent: Candidate = async (n) => {
    for (let i = 0; i < n; i++) {
      const step = await prompt.render(BASE, { agent: { id: agentId++ } });
      sink += size(adapter(step));
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
      sink += size(adapter(step));
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
      sink += size(adapter(step));
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
      sink += size(adapter(step));
    }
    return sink;
  };
  // The same renders with no adapter: what the adapter adds to a step
  // where a block changed (reading the step's blocks included).
  const alone = {};
  let aloneDir = 0;
  const sessionRenderAlone: Candidate = async (n) => {
    for (let i = 0; i < n; i++) {
      const cwd = `/repo/${aloneDir++}`;
      const step = await prompt.render({ cwd, clock: "09:00" }, {
        agent: alone,
      });
      sink += step.prompt.length;
    }
    return sink;
  };

  // Same output first: every path's request is the floor's (the changing
  // ones, for the step they were given).
  const check = (step: RenderedStep, expected = floorJson) =>
    assertSame(JSON.stringify(body(adapter(step))), expected);
  assertSame(
    JSON.stringify(body(adapter(await prompt.assemble(BASE)))),
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
      body(adapter(await registry(tools).assemble(context))),
    );
    check(await prompt.render(context, { agent: {} }), expected);
  }
  if (!isDeepStrictEqual(wire.tools(floorFields), 30)) {
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
    sessionRenderAlone,
  }, { rounds: ROUNDS, time: timed });
  const ratio = (a: string, b: string) =>
    times[a]!.map((t, i) => t / times[b]![i]!);
  const figures: Figure[] = [
    {
      name: `assemble() + ${wire.label}(assembly) / stringify`,
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
    {
      name: "session section changed: render + adapter / render alone",
      ratios: ratio("sessionChanged", "sessionRenderAlone"),
      target: "(the adapter's share)",
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
  return figures.map(({ ratios }) => median(ratios));
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

/** This instance's adapter: set by `?adapter=…`, none in the main one. */
const mine = new URL(import.meta.url).searchParams.get("adapter");

/** Runs this instance's adapter over the given tool providers. */
/** Runs this instance's adapter; the medians of the first tool provider. */
export async function bench(modes: readonly Tools[]): Promise<number[][]> {
  const wire = WIRES[mine ?? ""];
  if (wire === undefined) throw new Error(`No adapter "${mine}"`);
  console.log(`\n## ${wire.label} (model ${wire.model})`);
  const first: number[][] = [];
  for (const tools of modes) {
    const a = await run(
      wire,
      "estimateTokens (default)",
      estimateTokens,
      tools,
    );
    const b = await run(wire, "trivial (length / 4)", trivial, tools);
    if (first.length === 0) first.push(a, b);
  }
  if (sink === -1) console.log(sink);
  return first;
}

/** Figures' short names, in the order `run` gives them. */
const SHORT = [
  "assembly",
  "new agent",
  "unchanged",
  "context changed",
  "session changed",
  "session: adapter's share",
];

if (mine === null) {
  const summary: [string, number[][]][] = [];
  const names = env("WIRE_ADAPTERS")?.split(",").map((name) => name.trim()) ??
    Object.keys(WIRES);
  for (const name of names) {
    if (!(name in WIRES)) {
      throw new Error(
        `WIRE_ADAPTERS: no adapter "${name}" (${
          Object.keys(WIRES).join(", ")
        })`,
      );
    }
    const all = name === "anthropic" || env("WIRE_TOOLS") === "all";
    // Its own module instance: its own call sites.
    const url = new URL(import.meta.url);
    url.searchParams.set("adapter", name);
    const instance: { bench: typeof bench } = await import(url.href);
    summary.push([name, await instance.bench(all ? ALL : ALL.slice(0, 1))]);
  }
  // Side by side: every adapter's medians, tools from fresh wrappers.
  console.log("\n## Summary (tools: fresh wrappers; medians)\n");
  console.log(`| adapter | countTokens | ${SHORT.join(" | ")} |`);
  console.log(`| --- | --- |${" ---: |".repeat(SHORT.length)}`);
  for (const [name, [estimated, trivial]] of summary) {
    for (
      const [counter, medians] of [["estimate", estimated], [
        "trivial",
        trivial,
      ]] as const
    ) {
      const cells = medians!.map((m) => `${m.toFixed(2)}×`).join(" | ");
      console.log(`| ${WIRES[name]!.label} | ${counter} | ${cells} |`);
    }
  }
}
