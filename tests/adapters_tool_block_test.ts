// The tool block across cache epochs, adapter side: a breakpoint after the
// static tools that come before the first session tool, and deferred tools
// sent as each provider documents them, never counted in the prefix and
// never marked.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SystemPrompt, TOOL_ORDER_REST, type ToolSchema } from "../mod.ts";
import {
  ANTHROPIC,
  BEDROCK,
  type CachePlan,
  planCache,
  toAISDK,
  toAnthropic,
  toBedrock,
  toGemini,
  toOpenAIChat,
  toOpenAIResponses,
} from "../adapters.ts";
import { estimateTokens } from "../inspect.ts";
import { stepPrefix } from "../src/adapters/_ledger_parts.ts";

const MODEL = "claude-sonnet-4-5"; // minimum 1024 tokens
const BEDROCK_MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0";
const words = (n: number) => "Read the file before you edit it. ".repeat(n);
const jsonSchema = (schema: object) => ({ jsonSchema: schema });

const tool = (name: string, size: number, extra = {}): ToolSchema => ({
  name,
  description: `${name}: ${words(size)}`,
  parameters: { type: "object", properties: { path: { type: "string" } } },
  ...extra,
});

/** Built-in tools first (static), an MCP server's after them (session). */
function harness(
  mcp: () => ToolSchema[],
  options: { builtinSize?: number; persona?: number } = {},
) {
  const size = options.builtinSize ?? 120;
  const prompt = new SystemPrompt<{ time: string }>({
    toolOrder: ["bash", "read", "edit", TOOL_ORDER_REST],
  });
  prompt.section({
    name: "persona",
    order: 0,
    text: words(options.persona ?? 200),
  });
  prompt.section({
    name: "clock",
    order: 900,
    stability: "step",
    text: (c) => `It is ${c.time}.`,
  });
  prompt.scope("mcp:docs").tools(mcp, { stability: "session" });
  prompt.scope("builtin").tools(() => [
    tool("bash", size),
    tool("read", size),
    tool("edit", size),
  ]);
  return prompt;
}

const summary = (plan: CachePlan) =>
  plan.choices.map((c) => [c.after, c.tool, c.chosen, c.reason]);

describe("planCache: the tools breakpoint after the static run", () => {
  it("offers a tools-static place after the last static tool before the first session tool, and spends one there", async () => {
    const prompt = harness(() => [tool("search", 40), tool("fetch", 40)]);
    const step = await prompt.render({ time: "09:00" });
    assert.deepEqual(step.tools.map((t) => t.name), [
      "bash",
      "read",
      "edit",
      "fetch",
      "search",
    ]);
    const plan = planCache(step, ANTHROPIC, { model: MODEL });
    assert.deepEqual(summary(plan), [
      ["tools-static", 2, true, "tools-static"],
      ["tools", 4, true, "tools"],
      [0, undefined, true, "stable-prefix"],
      [1, undefined, false, "after-step"],
    ]);
    const [staticRun, tools] = plan.choices;
    assert.match(
      staticRun!.detail,
      /before the first session tool \("fetch"\)/,
    );
    assert.match(staticRun!.detail, /read again after a session tool changed/);
    const sum = (to: number) =>
      plan.toolTokens.slice(0, to + 1).reduce((a, b) => a + b, 0);
    assert.equal(staticRun!.tokens, sum(2));
    assert.equal(tools!.tokens, sum(4));
  });

  it("offers none when no session tool follows the static ones, or when every tool is a session tool", async () => {
    const none = harness(() => []);
    const plan = planCache(await none.render({ time: "09:00" }), ANTHROPIC, {
      model: MODEL,
    });
    assert.ok(plan.choices.every((c) => c.after !== "tools-static"));
    assert.equal(plan.choices[0]?.reason, "tools");

    const all = new SystemPrompt();
    all.section({ name: "persona", order: 0, text: words(200) });
    all.tools(() => [tool("search", 200)], { stability: "session" });
    const only = planCache(await all.render(), ANTHROPIC, { model: MODEL });
    assert.deepEqual(only.choices.map((c) => c.after), ["tools", 0]);
  });

  it("skips it under the minimum, and when the budget is spent on what keeps more cached", async () => {
    const small = harness(() => [tool("search", 200)], { builtinSize: 5 });
    const step = await small.render({ time: "09:00" });
    const plan = planCache(step, ANTHROPIC, { model: MODEL });
    const [staticRun] = plan.choices;
    assert.equal(staticRun?.after, "tools-static");
    assert.equal(staticRun?.chosen, false);
    assert.equal(staticRun?.reason, "under-minimum");
    assert.match(
      staticRun!.detail,
      /a prefix of \d+ tokens, under the minimum of 1024/,
    );

    const big = harness(() => [tool("search", 40)]);
    const tight = planCache(await big.render({ time: "09:00" }), ANTHROPIC, {
      model: MODEL,
      cache: { reserve: 2 },
    });
    assert.deepEqual(summary(tight), [
      ["tools-static", 2, true, "tools-static"],
      ["tools", 3, false, "over-budget"],
      [0, undefined, true, "stable-prefix"],
      [1, undefined, false, "after-step"],
    ]);
  });

  it("on Bedrock, weighs each checkpoint's increment", async () => {
    // The MCP tools alone are an increment under the minimum: the end of
    // the tools would starve, the static run does not.
    const prompt = harness(() => [tool("search", 5)]);
    const plan = planCache(await prompt.render({ time: "09:00" }), BEDROCK, {
      model: BEDROCK_MODEL,
    });
    const byAfter = new Map(plan.choices.map((c) => [c.after, c]));
    assert.equal(byAfter.get("tools-static")?.chosen, true);
    assert.equal(byAfter.get("tools")?.chosen, false);
    assert.equal(byAfter.get("tools")?.reason, "under-minimum");
  });
});

describe("planCache: the static run's breakpoint only where it keeps more cached", () => {
  /** Built-in tools, MCP tools, a static persona, a session block, a clock. */
  async function sessionStep(personaWords: number, builtinSize = 120) {
    const prompt = harness(() => [tool("search", 40)], {
      builtinSize,
      persona: personaWords,
    });
    prompt.section({
      name: "workspace",
      order: 500,
      stability: "session",
      text: "The working directory is /repo.",
    });
    return await prompt.render({ time: "09:00" });
  }

  it("with the budget short, the end of the static system text beats the end of the tools it covers", async () => {
    const plan = planCache(await sessionStep(400), ANTHROPIC, {
      model: MODEL,
    });
    assert.deepEqual(summary(plan), [
      ["tools-static", 2, true, "tools-static"],
      ["tools", 3, false, "over-budget"],
      [0, undefined, true, "boundary"],
      [1, undefined, true, "stable-prefix"],
      [2, undefined, false, "after-step"],
    ]);
    const [staticRun, tools, persona] = plan.choices;
    assert.match(
      tools!.detail,
      /^the budget went to block 0, which keeps more cached: (\d+) tokens read after the session changes, against (\d+)$/,
    );
    // What each set reads after a session tool change and after a session
    // block change: the static run and the persona, or the static run and
    // the tools.
    assert.match(
      persona!.detail,
      new RegExp(
        `in place of "tools": ${
          staticRun!.tokens + persona!.tokens
        } tokens read after the session changes, against ${
          staticRun!.tokens + tools!.tokens
        }`,
      ),
    );
    assert.equal(persona!.ttl, "5m");
    assert.equal(tools!.ttl, undefined);
  });

  it("with two breakpoints, it yields to a later place that keeps more than the static run twice over", async () => {
    const big = planCache(await sessionStep(1200), ANTHROPIC, {
      model: MODEL,
      cache: { reserve: 2 },
    });
    assert.deepEqual(summary(big), [
      ["tools-static", 2, false, "over-budget"],
      ["tools", 3, false, "over-budget"],
      [0, undefined, true, "boundary"],
      [1, undefined, true, "stable-prefix"],
      [2, undefined, false, "after-step"],
    ]);
    assert.match(big.choices[0]!.detail, /^the budget went to block 0/);

    const small = planCache(await sessionStep(20), ANTHROPIC, {
      model: MODEL,
      cache: { reserve: 2 },
    });
    assert.deepEqual(summary(small).slice(0, 3), [
      ["tools-static", 2, true, "tools-static"],
      ["tools", 3, false, "over-budget"],
      [0, undefined, false, "over-budget"],
    ]);
  });
});

describe("adapters: the marks of the tools breakpoints", () => {
  it("Anthropic marks the last static tool and the last tool; Bedrock follows each with a cachePoint; the AI SDK puts cacheControl in providerOptions", async () => {
    const prompt = harness(() => [tool("search", 40), tool("fetch", 40)]);
    const step = await prompt.render({ time: "09:00" });

    const anthropic = toAnthropic(step, { model: MODEL });
    assert.deepEqual(
      anthropic.tools.map((t) => t.cache_control),
      [undefined, undefined, { type: "ephemeral" }, undefined, {
        type: "ephemeral",
      }],
    );

    // Bedrock weighs increments: MCP tools big enough for their own.
    const big = harness(() => [tool("search", 150), tool("fetch", 150)]);
    const bedrock = toBedrock(await big.render({ time: "09:00" }), {
      model: BEDROCK_MODEL,
    });
    assert.deepEqual(
      bedrock.toolConfig!.tools.map((t) =>
        "cachePoint" in t ? "|" : t.toolSpec.name
      ),
      ["bash", "read", "edit", "|", "fetch", "search", "|"],
    );

    const sdk = toAISDK(step, { jsonSchema, model: MODEL });
    assert.deepEqual(
      Object.entries(sdk.tools).map(([name, t]) => [name, t.providerOptions]),
      [
        ["bash", undefined],
        ["read", undefined],
        ["edit", { anthropic: { cacheControl: { type: "ephemeral" } } }],
        ["fetch", undefined],
        ["search", { anthropic: { cacheControl: { type: "ephemeral" } } }],
      ],
    );
    // The TTL asked for is on every mark.
    const long = toAnthropic(step, { model: MODEL, cache: { ttl: "1h" } });
    assert.deepEqual(long.tools[2]?.cache_control, {
      type: "ephemeral",
      ttl: "1h",
    });
  });
});

describe("deferred tools", () => {
  const withDeferred = () =>
    harness(() => [
      tool("search", 40),
      tool("archive", 300, { deferLoading: true }),
    ]);

  it("are sent as defer_loading where the API documents it, never counted in the prefix, never marked", async () => {
    const step = await withDeferred().render({ time: "09:00" });
    assert.deepEqual(step.tools.map((t) => [t.name, t.deferLoading]), [
      ["bash", undefined],
      ["read", undefined],
      ["edit", undefined],
      ["archive", true],
      ["search", undefined],
    ]);
    const anthropic = toAnthropic(step, { model: MODEL });
    const archive = anthropic.tools[3]!;
    assert.equal(archive.defer_loading, true);
    assert.equal(archive.cache_control, undefined);
    assert.deepEqual(anthropic.tools[4]?.cache_control, { type: "ephemeral" });
    assert.ok(
      anthropic.tools.every((t, i) => i === 3 || !("defer_loading" in t)),
    );

    // Its tokens are in no choice's prefix.
    const without = await harness(() => [tool("search", 40)]).render({
      time: "09:00",
    });
    const plan = anthropic.plan;
    const other = planCache(without, ANTHROPIC, { model: MODEL });
    assert.deepEqual(
      plan.choices.map((c) => c.tokens),
      other.choices.map((c) => c.tokens),
    );
    assert.ok(plan.toolTokens[3]! > 1000);

    assert.equal(toOpenAIResponses(step).tools[3]?.defer_loading, true);
    assert.equal(
      toOpenAIResponses(step).tools.filter((t) => "defer_loading" in t).length,
      1,
    );
    const sdk = toAISDK(step, { jsonSchema, model: MODEL });
    assert.deepEqual(sdk.tools.archive?.providerOptions, {
      anthropic: { deferLoading: true },
    });
    assert.deepEqual(sdk.tools.search?.providerOptions, {
      anthropic: { cacheControl: { type: "ephemeral" } },
    });
  });

  it("a deferred tool last: the end-of-tools mark goes on the last tool in the prompt", async () => {
    const prompt = harness(() => [
      tool("search", 40),
      tool("zz-archive", 40, { deferLoading: true }),
    ]);
    const step = await prompt.render({ time: "09:00" });
    const request = toAnthropic(step, { model: MODEL });
    assert.deepEqual(request.tools.map((t) => [t.name, t.cache_control]), [
      ["bash", undefined],
      ["read", undefined],
      ["edit", { type: "ephemeral" }],
      ["search", { type: "ephemeral" }],
      ["zz-archive", undefined],
    ]);
    assert.equal(request.plan.choices[1]?.tool, 3);

    // Every tool deferred: no tools place at all.
    const all = new SystemPrompt();
    all.section({ name: "persona", order: 0, text: words(200) });
    all.tools(() => [tool("a", 300, { deferLoading: true })]);
    const deferred = toAnthropic(await all.render(), { model: MODEL });
    assert.deepEqual(deferred.plan.choices.map((c) => c.after), [0]);
    assert.equal(deferred.tools[0]?.cache_control, undefined);
  });

  it("are sent in full, counted, and noted where the API has no deferred tools (Chat Completions, Bedrock Converse, Gemini, the AI SDK off Anthropic)", async () => {
    const step = await withDeferred().render({ time: "09:00" });
    const note =
      /Tool "archive" has deferLoading, which this request's API does not take: it is sent in full and counted/;
    const chat = toOpenAIChat(step);
    assert.ok(!("defer_loading" in chat.tools![3]!));
    assert.ok(!("defer_loading" in chat.tools![3]!.function));
    assert.ok(chat.plan.notes.some((n) => note.test(n)));

    const bedrock = toBedrock(step, { model: BEDROCK_MODEL });
    assert.deepEqual(
      Object.keys(bedrock.toolConfig!.tools[4]!),
      ["toolSpec"],
    );
    assert.ok(bedrock.plan.notes.some((n) => note.test(n)));
    const counted = bedrock.plan.choices.find((c) => c.after === "tools")!;
    assert.equal(
      counted.tokens,
      bedrock.plan.toolTokens.reduce((a, b) => a + b, 0),
    );

    const gemini = toGemini(step);
    assert.deepEqual(
      Object.keys(gemini.tools[0]!.functionDeclarations[3]!),
      ["name", "description", "parametersJsonSchema"],
    );
    assert.ok(gemini.plan.notes.some((n) => note.test(n)));

    const sdk = toAISDK(step, { jsonSchema, profile: BEDROCK });
    assert.equal(
      JSON.stringify(sdk.tools.archive?.providerOptions),
      undefined,
    );
    assert.ok(sdk.plan.notes.some((n) => note.test(n)));
    // Anthropic and Responses defer it: no note.
    assert.ok(!toAnthropic(step).plan.notes.some((n) => note.test(n)));
    assert.ok(!toOpenAIResponses(step).plan.notes.some((n) => note.test(n)));
  });

  it("a tool that becomes deferred, or stops being, is a new request", async () => {
    let deferLoading = false;
    const prompt = new SystemPrompt();
    prompt.tools(() => [tool("a", 3, { deferLoading })]);
    const first = toAnthropic(await prompt.render());
    deferLoading = true;
    const second = toAnthropic(await prompt.render());
    assert.equal(first.tools[0]?.defer_loading, undefined);
    assert.equal(second.tools[0]?.defer_loading, true);
    deferLoading = false;
    assert.equal(
      toAnthropic(await prompt.render()).tools[0]?.defer_loading,
      undefined,
    );
  });
});

describe("the cache ledger's prefix beside the tool block", () => {
  it("marks the static run's last tool, leaves a deferred tool out, and gives MCP tools their session stability", async () => {
    const step = await harness(() => [
      tool("search", 40),
      tool("archive", 300, { deferLoading: true }),
    ]).render({ time: "09:00" });
    const request = toAnthropic(step, { model: MODEL });
    const prefix = stepPrefix(step, {
      plan: request.plan,
      count: estimateTokens,
    });
    const tools = prefix.parts.filter((part) => part.kind === "tool");
    assert.deepEqual(tools.map((part) => [part.name, part.stability]), [
      ["bash", "static"],
      ["read", "static"],
      ["edit", "static"],
      ["search", "session"],
    ]);
    const chosen = request.plan.choices.filter((c) => c.chosen);
    assert.deepEqual(
      prefix.breakpoints.map((b) => prefix.parts[b.index]!.end),
      chosen.map((c) => c.tokens),
    );
    assert.equal(prefix.expected, chosen.at(-1)!.tokens);
  });
});
