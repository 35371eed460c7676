// The tool block across a reconnect: built-in tools (static, first by
// `toolOrder`) and an MCP server's (session, some deferred), random schemas.
// A listing that only reorders keys, at any depth and in the tools' own
// fields, gives every adapter's request byte for byte through `render()`
// steps, with its breakpoints, and a simulated provider reads the whole
// prefix up to the last breakpoint from cache; a change in one session
// tool still reads the static tools.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type RenderedStep,
  SystemPrompt,
  TOOL_ORDER_REST,
  type ToolSchema,
} from "@dsh/system-prompt";
import {
  toAISDK,
  toAnthropic,
  toBedrock,
  toGemini,
  toOpenAIChat,
  toOpenAIResponses,
} from "@dsh/system-prompt/adapters";
import { type Json, permuted, schema } from "../support/json_permutations.ts";
import {
  anthropicPieces,
  bedrockPieces,
  PrefixCache,
} from "../support/prefix_cache.ts";

const RUNS = { numRuns: 150, seed: 20261202 };
const MODEL = "claude-sonnet-4-5";
const BEDROCK_MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0";

const words = (n: number) => "Check the exit code of every command. ".repeat(n);
const spec = fc.record({ parameters: schema, deferLoading: fc.boolean() });
const listing = fc.record({
  builtin: fc.array(schema, { minLength: 1, maxLength: 3 }),
  mcp: fc.array(spec, { minLength: 1, maxLength: 3 }),
  seed: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
});

const jsonSchema = (schema: object) => ({ jsonSchema: schema });
const ADAPTERS: ((step: RenderedStep) => unknown)[] = [
  (step) => toAnthropic(step, { model: MODEL }),
  (step) => toOpenAIResponses(step, { model: "gpt-5" }),
  (step) => toOpenAIChat(step, { model: "gpt-5" }),
  (step) => toBedrock(step, { model: BEDROCK_MODEL }),
  (step) => toGemini(step, { model: "gemini-2.5-flash" }),
  (step) => toAISDK(step, { jsonSchema, model: MODEL }),
];
const bytes = (step: RenderedStep) =>
  ADAPTERS.map((adapter) => JSON.stringify(adapter(step)));

/** A harness whose MCP listing the test swaps between steps. */
function harness(builtin: ToolSchema[], names: string[]) {
  const server: { tools: unknown[] } = { tools: [] };
  const prompt = new SystemPrompt({
    toolOrder: [...builtin.map((tool) => tool.name), TOOL_ORDER_REST],
  });
  prompt.section({ name: "persona", order: 0, text: words(120) });
  prompt.scope("builtin").tools(() => builtin);
  prompt.scope("mcp:docs").tools(() => server.tools as ToolSchema[], {
    stability: "session",
  });
  return { prompt, server, names };
}

describe("the tool block across a reconnect that reorders keys", () => {
  it("every adapter's request is byte-equal, and a simulated provider reads the whole prefix from cache", async () => {
    await fc.assert(
      fc.asyncProperty(listing, async ({ builtin, mcp, seed }) => {
        const tools = builtin.map((parameters, i): ToolSchema => ({
          name: `builtin_${i}`,
          description: `Built-in ${i}. ${words(60)}`,
          parameters,
        }));
        const listed = mcp.map(({ parameters, deferLoading }, i) => ({
          name: `docs_${i}`,
          description: `Docs ${i}. ${words(20)}`,
          parameters,
          ...(deferLoading ? { deferLoading } : {}),
        }));
        const { prompt, server } = harness(tools, []);
        server.tools = listed;
        const first = await prompt.render();
        const before = bytes(first);

        // The reconnect: the same tools, every object's keys reordered.
        server.tools = listed.map((tool) => permuted(tool as Json, seed));
        const second = await prompt.render();
        assert.deepEqual(bytes(second), before);

        for (
          const [pieces, minTokens] of [
            [
              (s: RenderedStep) =>
                anthropicPieces(toAnthropic(s, { model: MODEL })),
              1024,
            ],
            [
              (s: RenderedStep) =>
                bedrockPieces(toBedrock(s, { model: BEDROCK_MODEL })),
              1024,
            ],
          ] as const
        ) {
          const cache = new PrefixCache({ minTokens });
          const one = cache.send(pieces(first), 0);
          const two = cache.send(pieces(second), 60_000);
          assert.equal(one.read, 0);
          assert.equal(two.read, one.written);
          assert.ok(two.read > 0);
        }
      }),
      RUNS,
    );
  });

  it("a session tool's change keeps the static tools' tokens cached (Anthropic)", async () => {
    await fc.assert(
      fc.asyncProperty(listing, async ({ builtin, mcp }) => {
        const tools = builtin.map((parameters, i): ToolSchema => ({
          name: `builtin_${i}`,
          description: `Built-in ${i}. ${words(180)}`,
          parameters,
        }));
        const listed = mcp.map(({ parameters }, i) => ({
          name: `docs_${i}`,
          description: `Docs ${i}.`,
          parameters,
        }));
        const { prompt, server } = harness(tools, []);
        server.tools = listed;
        const cache = new PrefixCache({ minTokens: 1024 });
        const first = toAnthropic(await prompt.render(), { model: MODEL });
        cache.send(anthropicPieces(first), 0);
        // The server changes its first tool: a new epoch for the MCP tools
        // only (a tool added last would keep the tools before it cached).
        server.tools = [
          { ...listed[0]!, description: "Docs 0, changed." },
          ...listed.slice(1),
        ];
        const second = toAnthropic(await prompt.render(), { model: MODEL });
        const staticRun = second.plan.choices.find((c) =>
          c.after === "tools-static"
        )!;
        assert.equal(staticRun.chosen, true);
        const pieces = anthropicPieces(second);
        const sent = cache.send(pieces, 60_000);
        // Exactly the built-in tools, by the provider's own count.
        const builtins = pieces.slice(0, staticRun.tool! + 1);
        assert.equal(staticRun.tool, tools.length - 1);
        assert.equal(sent.read, builtins.reduce((n, p) => n + p.tokens, 0));
      }),
      { ...RUNS, numRuns: 60 },
    );
  });
});
