/**
 * The cache ledger's cost per step: `ledger.record(step, { request, usage })`
 * against `JSON.stringify` of the request (the floor: what sending it costs
 * at least), on a coding agent's prompt (a persona, 20 plugin sections, a
 * session section, a context entry) with 30 tools of real size
 * (`tests/fixtures/coding_tools.json` three times), steps as a host's loop
 * makes them: `render()` then `toAnthropic()`. Four kinds of step: nothing
 * changed, the context entry changed, the session section changed, one
 * tool's description changed; the tools' provider returning the same
 * objects every step, or fresh wrappers around the same schemas. And
 * `stepAttributes` after `record` for the same steps.
 *
 * Standalone (`deno run`): each candidate has its own loop; its steps are
 * rendered before the batch is timed (only `record` is), batches last at
 * least 50 ms of the process's CPU time, rounds interleave the candidates,
 * and each figure is the median of the per-round ratios. Before anything is
 * timed, every candidate's reports are checked equal to those of a fresh
 * ledger fed the same steps (memory cold), and its `stepAttributes` to a
 * fresh call's.
 *
 * ```sh
 * deno run --lock=deno.lock --allow-read --allow-env --allow-sys --v8-flags=--expose-gc bench/ledger_bench.ts
 * ```
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
  CacheLedger,
  type CacheReport,
  stepAttributes,
  toAnthropic,
} from "@dsh/system-prompt/adapters";

const granted =
  Deno.permissions.querySync({ name: "env", variable: "LEDGER_ROUNDS" })
    .state === "granted";
const ROUNDS = Number(
  (granted ? Deno.env.get("LEDGER_ROUNDS") : undefined) ?? 7,
);
const MODEL = "claude-sonnet-4-5";

interface Context {
  cwd: string;
  clock: string;
  /** The description of the first tool's edition. */
  edition: number;
}

const FIXTURE: ToolSchema[] = JSON.parse(
  readFileSync(
    new URL("../tests/fixtures/coding_tools.json", import.meta.url),
    "utf8",
  ),
);
const SCHEMAS: readonly ToolSchema[] = [0, 1, 2].flatMap((copy) =>
  FIXTURE.map((tool) => ({
    ...tool,
    name: copy === 0 ? tool.name : `${tool.name}_${copy}`,
  }))
);

type Tools = "same objects" | "fresh wrappers";
type Change = "unchanged" | "context" | "section" | "tool";

const PARAGRAPH =
  "Read the code before you change it, keep each change small, " +
  "run the tests that cover it, and say what you verified and what you did not. ";

function registry(tools: Tools): SystemPrompt<Context> {
  const prompt = new SystemPrompt<Context>();
  prompt.scope("agent-loop").section({
    name: "persona",
    order: 0,
    text: `You are a coding agent in the user's terminal.\n\n${
      PARAGRAPH.repeat(12)
    }`,
  });
  for (let i = 0; i < 20; i++) {
    prompt.scope(`plugin-${i}`).section({
      name: `plugin:${i}`,
      order: 100 + i,
      text: `## Plugin ${i}\n\n${PARAGRAPH.repeat(2)}Use it when asked.`,
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
  // The first tool's description follows the context's edition: one tool
  // changes when it does, the others keep their objects (or wrappers).
  let edition = -1;
  let first: ToolSchema = SCHEMAS[0]!;
  const rest = SCHEMAS.slice(1);
  prompt.scope("tools").tools((c) => {
    if (c.edition !== edition) {
      edition = c.edition;
      first = {
        ...SCHEMAS[0]!,
        description: `${SCHEMAS[0]!.description} (edition ${edition})`,
      };
    }
    const all = [first, ...rest];
    return tools === "same objects" ? all : all.map((tool) => ({ ...tool }));
  });
  return prompt;
}

interface Sent {
  step: RenderedStep;
  request: ReturnType<typeof toAnthropic>;
  usage: object;
  at: number;
}

/** The usage a provider would answer: the plan's prefix read, or after a change what its static part covers. */
function usageOf(request: ReturnType<typeof toAnthropic>, hit: boolean) {
  const chosen = request.plan.choices.filter((c) => c.chosen);
  const expected = Math.max(0, ...chosen.map((c) => c.tokens));
  const kept = hit ? expected : Math.min(
    expected,
    request.plan.choices.find((c) => c.reason === "static-prefix")?.tokens ??
      0,
  );
  return {
    input_tokens: 40,
    cache_read_input_tokens: kept,
    cache_creation_input_tokens: expected - kept,
  };
}

/** A host's loop: one agent's steps of one kind. */
class Loop {
  #prompt: SystemPrompt<Context>;
  #agent = {};
  #i = 0;
  #at = Date.UTC(2026, 11, 1, 9);
  constructor(tools: Tools, readonly change: Change) {
    this.#prompt = registry(tools);
  }
  async next(): Promise<Sent> {
    const i = this.#i++;
    const context: Context = {
      cwd: this.change === "section" ? `/repo/${i}` : "/repo",
      clock: this.change === "context" ? `09:${i}` : "09:00",
      edition: this.change === "tool" ? i : 0,
    };
    const step = await this.#prompt.render(context, { agent: this.#agent });
    const request = toAnthropic(step, { model: MODEL });
    const hit = this.change === "unchanged" || this.change === "context" ||
      i === 0;
    return {
      step,
      request,
      usage: usageOf(request, hit),
      at: this.#at += 5000,
    };
  }
  async batch(n: number): Promise<Sent[]> {
    const out: Sent[] = [];
    for (let j = 0; j < n; j++) out.push(await this.next());
    return out;
  }
}

const record = (ledger: CacheLedger, s: Sent): CacheReport =>
  ledger.record(s.step, {
    request: s.request,
    usage: s.usage,
    at: s.at,
    agent: "main",
    model: MODEL,
  });

/** A candidate: renders its batch untimed, then times `run` over it. */
interface Candidate {
  prepare(n: number): Promise<unknown>;
  run(prepared: unknown, n: number): number;
}

const timeOnce: Timer<Candidate> = async (c, n) => {
  const prepared = await c.prepare(n);
  // The steps' garbage is the renderer's: collected before `record` is timed.
  (globalThis as { gc?: () => void }).gc?.();
  const start = cpuMs();
  c.run(prepared, n);
  return cpuMs() - start;
};

let sink = 0;

/** Reports of `ledger` for `sent` equal a fresh ledger's fed the same steps. */
async function check(tools: Tools, change: Change) {
  const loop = new Loop(tools, change);
  const warm = new CacheLedger();
  const history: Sent[] = [];
  for (let i = 0; i < 40; i++) {
    const sent = await loop.next();
    history.push(sent);
    const report = record(warm, sent);
    const cold = new CacheLedger();
    let again: CacheReport | undefined;
    for (const s of history.slice(-33)) {
      again = record(cold, { ...s, usage: { ...s.usage } });
    }
    const strip = (r: CacheReport) => ({ ...r, step: 0 });
    if (!isDeepStrictEqual(strip(report), strip(again!))) {
      throw new Error(
        `${tools}, ${change}, step ${i}: reports differ\n${
          JSON.stringify(report)
        }\n${JSON.stringify(again)}`,
      );
    }
    const fresh = { ...sent.step, blocks: [...sent.step.blocks] };
    if (
      !isDeepStrictEqual(
        stepAttributes(sent.step, { request: sent.request, report }),
        stepAttributes(fresh, { request: sent.request, report }),
      )
    ) throw new Error(`${tools}, ${change}, step ${i}: attributes differ`);
  }
}

async function run(tools: Tools) {
  const changes: Change[] = ["unchanged", "context", "section", "tool"];
  for (const change of changes) await check(tools, change);

  const floorSent = await new Loop(tools, "unchanged").next();
  const floorBody = {
    model: MODEL,
    max_tokens: 1024,
    ...floorSent.request,
    messages: [{ role: "user", content: "List the files." }],
  };
  const candidates: Record<string, Candidate> = {
    floor: {
      prepare: () => Promise.resolve(undefined),
      run(_, n) {
        for (let i = 0; i < n; i++) sink += JSON.stringify(floorBody).length;
        return sink;
      },
    },
  };
  for (const change of changes) {
    const loop = new Loop(tools, change);
    const ledger = new CacheLedger();
    for (const sent of await loop.batch(8)) record(ledger, sent);
    candidates[change] = {
      prepare: (n) => loop.batch(n),
      run(prepared, n) {
        const sent = prepared as Sent[];
        for (let i = 0; i < n; i++) sink += record(ledger, sent[i]!).read;
        return sink;
      },
    };
  }
  {
    const loop = new Loop(tools, "context");
    const ledger = new CacheLedger();
    for (const sent of await loop.batch(8)) record(ledger, sent);
    candidates["context + attributes"] = {
      prepare: (n) => loop.batch(n),
      run(prepared, n) {
        const sent = prepared as Sent[];
        for (let i = 0; i < n; i++) {
          const s = sent[i]!;
          const report = record(ledger, s);
          const out = stepAttributes(s.step, { request: s.request, report });
          sink += (out["dsh.system_prompt.part.hash"] as string[]).length;
        }
        return sink;
      },
    };
  }
  const times = await measure(candidates, { rounds: ROUNDS, time: timeOnce });
  console.log(
    `\n### tools: ${tools} (${ROUNDS} rounds, request ${
      JSON.stringify(floorBody).length
    } bytes)\n`,
  );
  console.log("| record() of a step | median / stringify | rounds | µs |");
  console.log("| --- | ---: | --- | ---: |");
  for (const name of Object.keys(candidates)) {
    if (name === "floor") continue;
    const ratios = times[name]!.map((t, i) => t / times.floor![i]!);
    console.log(
      `| ${name} | ${median(ratios).toFixed(2)}× | ${
        ratios.map((r) => r.toFixed(2)).join(", ")
      } | ${(median(times[name]!) / 1000).toFixed(1)} |`,
    );
  }
  console.log(
    `| (floor: stringify) | 1.00× | | ${
      (median(times.floor!) / 1000).toFixed(1)
    } |`,
  );
}

for (const tools of ["same objects", "fresh wrappers"] as const) {
  await run(tools);
}
if (sink === -1) console.log(sink);
