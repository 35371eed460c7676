/**
 * Tools whatever the provider returns, 30 real-size tools (the coding
 * harness's ten of `tests/fixtures/coding_tools.json`, three times over,
 * about 37 kB of JSON), one step at a time through `prompt.render(context,
 * { agent })` and through `assemble()`:
 *
 * - `stable array`: the provider returns one array, the same every step
 *   (the baseline);
 * - `fresh wrappers`: a fresh array of fresh tool objects around shared
 *   schema constants each step;
 * - `parsed from JSON`: an MCP-style listing parsed from its JSON each
 *   step, and `JSON.parse alone`, the provider's own cost, so that the
 *   library's is the difference; `pre-parsed listings`, a different listing
 *   parsed before timing each step: the library's own cost alone;
 * - `mcpTools listing`: the same tools listed by an MCP client
 *   (`mcpTools`), whose kept listing holds deep-frozen copies of the
 *   schemas, which the registry knows by identity;
 * - `100k-node schema`: one tool whose shared schema holds 100,000 nodes,
 *   in a fresh wrapper each step, and with a fresh root object around its
 *   shared subtrees, against the same tool as a stable array.
 *
 * Every candidate of a group is checked to give the same step (the JSON of
 * its tools' names, descriptions and parameters, and of its prompt) before
 * anything is timed.
 *
 * Run: deno run -A --lock=deno.lock scripts/bench/measure.ts bench/tools_bench.ts
 *
 * @module
 */

import { readFileSync } from "node:fs";
import { addBench } from "./_bench.ts";
import { SystemPrompt, type ToolSchema } from "@dsh/system-prompt";
import { type McpToolProvider, mcpTools } from "@dsh/system-prompt/mcp";

const FIXTURE: ToolSchema[] = JSON.parse(
  readFileSync(
    new URL("../tests/fixtures/coding_tools.json", import.meta.url),
    "utf8",
  ),
);
/** 30 tools: the fixture's ten, three times, renamed. */
const TOOLS: ToolSchema[] = [0, 1, 2].flatMap((round) =>
  FIXTURE.map((tool) => ({ ...tool, name: `${tool.name}_${round}` }))
);
const JSON_TEXT = JSON.stringify(TOOLS);

/** A schema of about `nodes` nodes: objects of properties, arrays, scalars. */
function bigSchema(nodes: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  let count = 0;
  for (let i = 0; count < nodes; i++) {
    properties[`field_${i}`] = {
      type: "object",
      description: `Field ${i} of the record.`,
      properties: {
        kind: { type: "string", enum: ["a", "b", "c"] },
        size: { type: "integer", minimum: 0 },
      },
    };
    count += 14; // the nodes each field adds (objects, arrays and scalars)
  }
  return { type: "object", properties };
}
const BIG = {
  name: "big",
  description: "A big one.",
  parameters: bigSchema(100_000),
};

type Provider = () => readonly ToolSchema[];

const stable = (tools: readonly ToolSchema[]): Provider => () => tools;
const wrappers = (tools: readonly ToolSchema[]): Provider => () =>
  tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
  }));
const parsed: Provider = () => JSON.parse(JSON_TEXT);
/**
 * Listings parsed before timing, a different one each step: the library's
 * own cost on a fresh listing, without the parse (nor its garbage).
 */
const POOL: ToolSchema[][] = Array.from(
  { length: 64 },
  () => JSON.parse(JSON_TEXT),
);
let next = 0;
const pooled: Provider = () => POOL[next++ % POOL.length]!;
/** The tools as an MCP server lists them, through `mcpTools`. */
const listed = () =>
  mcpTools({
    listTools: () =>
      Promise.resolve({
        tools: TOOLS.map(({ name, description, parameters }) => ({
          name,
          description,
          inputSchema: parameters as { type: "object" },
        })),
      }),
  }, { server: "mcp" });

function registry(provider: Provider | McpToolProvider): SystemPrompt {
  const prompt = new SystemPrompt();
  prompt.scope("harness").section({
    name: "persona",
    order: 0,
    text: "You are a coding agent.",
  });
  prompt.scope("mcp").tools(provider);
  return prompt;
}

const AGENT = { id: "main" };
const renderOf = (prompt: SystemPrompt) => () =>
  prompt.render({}, { agent: AGENT });
const assembleOf = (prompt: SystemPrompt) => () => prompt.assemble({});

/** The same step from every candidate, or the bench refuses to time. */
async function checkSame(
  group: string,
  candidates: Record<string, () => Promise<unknown>>,
): Promise<void> {
  let first: string | undefined;
  for (const [name, step] of Object.entries(candidates)) {
    await step(); // a first step, then the steady one that is timed
    const { tools, prompt, sections } = await step() as {
      tools: ToolSchema[];
      [key: string]: unknown;
    };
    // Host fields (an MCP tool's `mcp`) are not sent.
    const sent = tools.map(({ name, description, parameters }) => ({
      name,
      description,
      parameters,
    }));
    const json = JSON.stringify({ tools: sent, prompt, sections });
    first ??= json;
    if (json !== first) throw new Error(`${group}: ${name} gives another step`);
  }
}

for (
  const [how, of] of [["render", renderOf], ["assemble", assembleOf]] as const
) {
  const group = `30 tools, ${how}`;
  const candidates = {
    "stable array": of(registry(stable(TOOLS))),
    "fresh wrappers": of(registry(wrappers(TOOLS))),
    "parsed from JSON": of(registry(parsed)),
    "pre-parsed listings": of(registry(pooled)),
    "mcpTools listing": of(registry(listed())),
  };
  await checkSame(group, candidates);
  for (const [name, fn] of Object.entries(candidates)) {
    addBench({ group, name, fn, baseline: name === "stable array" });
  }
  addBench({
    group,
    name: "JSON.parse alone",
    fn: () => JSON.parse(JSON_TEXT),
  });

  const big = `100k-node schema, ${how}`;
  const bigCandidates = {
    "stable array": of(registry(stable([BIG]))),
    "fresh wrapper": of(registry(wrappers([BIG]))),
    // A fresh root object around the shared subtrees (a spread schema).
    "fresh root": of(
      registry(() => [{ ...BIG, parameters: { ...BIG.parameters } }]),
    ),
  };
  await checkSame(big, bigCandidates);
  for (const [name, fn] of Object.entries(bigCandidates)) {
    addBench({ group: big, name, fn, baseline: name === "stable array" });
  }
}
