// The cache ledger's edges: every provider's usage read, bad usage and
// requests refused with a PromptError, steps recorded twice or out of
// order, interleaved agents, the minimum, a model switch, prices, bounds,
// and hostile owners on the inspector page.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type PromptAssembly,
  PromptError,
  SystemPrompt,
} from "@dsh/system-prompt";
import {
  CacheLedger,
  priceFor,
  readUsage,
  toAISDK,
  toAnthropic,
  toBedrock,
  toGemini,
  toOpenAIChat,
  toOpenAIResponses,
} from "@dsh/system-prompt/adapters";
import { inspectorPage } from "@dsh/system-prompt/page";

const MODEL = "claude-sonnet-4-5";

/** A static persona of ~1,500 tokens, a session section and a clock. */
function assembly(notes = "Notes.", owner = "agent-loop"): PromptAssembly {
  return {
    sections: [
      {
        name: "persona",
        order: 0,
        text: "You are a careful coding agent. ".repeat(250),
        owner,
      },
      {
        name: "notes",
        order: 500,
        text: notes.repeat(200),
        owner: "memory",
        stability: "session",
      },
      {
        name: "clock",
        order: 900,
        text: "It is 09:00.",
        owner: "clock",
        stability: "step",
      },
    ],
    tools: [],
    variables: {},
  };
}

/** The tokens the plan expects to be read: its last chosen breakpoint's. */
const full = (
  request: { plan: { choices: { chosen: boolean; tokens: number }[] } },
) =>
  Math.max(
    ...request.plan.choices.filter((c) => c.chosen).map((c) => c.tokens),
  );
const write = (n: number) => ({
  input_tokens: 10,
  cache_creation_input_tokens: n,
  cache_read_input_tokens: 0,
});
const read = (n: number) => ({
  input_tokens: 10,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: n,
});

describe("readUsage: each provider's usage as its SDK returns it", () => {
  it("reads Anthropic, OpenAI Responses and Chat, Bedrock, Gemini and the AI SDK (with provider metadata)", () => {
    assert.deepEqual(
      readUsage({
        input_tokens: 5,
        cache_creation_input_tokens: 100,
        cache_read_input_tokens: 900,
        cache_creation: {
          ephemeral_5m_input_tokens: 40,
          ephemeral_1h_input_tokens: 60,
        },
      }),
      {
        shape: "anthropic",
        input: 1005,
        read: 900,
        written: 100,
        uncached: 5,
        written1h: 60,
      },
    );
    assert.deepEqual(
      readUsage({
        input_tokens: 2000,
        input_tokens_details: { cached_tokens: 1920 },
      }),
      {
        shape: "openai-responses",
        input: 2000,
        read: 1920,
        written: 0,
        uncached: 80,
        written1h: 0,
      },
    );
    assert.deepEqual(readUsage({ prompt_tokens: 2000 }), {
      shape: "openai-chat",
      input: 2000,
      read: 0,
      written: 0,
      uncached: 2000,
      written1h: 0,
    });
    assert.deepEqual(
      readUsage({
        inputTokens: 7,
        cacheReadInputTokens: 3,
        cacheWriteInputTokens: 4,
        cacheDetails: [{ ttl: "1h", inputTokens: 4 }],
      }),
      {
        shape: "bedrock",
        input: 14,
        read: 3,
        written: 4,
        uncached: 7,
        written1h: 4,
      },
    );
    assert.deepEqual(
      readUsage({ promptTokenCount: 5000, cachedContentTokenCount: 4096 }).read,
      4096,
    );
    assert.deepEqual(
      readUsage({
        inputTokens: 3000,
        inputTokenDetails: {
          noCacheTokens: 100,
          cacheReadTokens: 2900,
          cacheWriteTokens: 0,
        },
      }),
      {
        shape: "ai-sdk",
        input: 3000,
        read: 2900,
        written: 0,
        uncached: 100,
        written1h: 0,
      },
    );
    const v5 = readUsage(
      { inputTokens: 3000, cachedInputTokens: 1000 },
      "ai-sdk",
      { anthropic: { cacheCreationInputTokens: 1500 } },
    );
    assert.deepEqual([v5.read, v5.written, v5.uncached], [1000, 1500, 500]);
    // Bedrock's and the AI SDK v5's bare shape are told apart by the request.
    assert.equal(readUsage({ inputTokens: 9 }, "ai-sdk").shape, "ai-sdk");
    assert.equal(readUsage({ inputTokens: 9 }).shape, "bedrock");
  });

  it("refuses a usage of no known shape, a missing total, and negative, NaN, fractional or string counts, naming the field", () => {
    const bad: [unknown, RegExp][] = [
      [{ tokens: 3 }, /no field of a known provider's usage/],
      [null, /usage must be an object, got null/],
      ["12", /usage must be an object, got a string/],
      [
        { input_tokens: -1 },
        /usage\.input_tokens must be a non-negative integer, got -1/,
      ],
      [
        { input_tokens: 1, cache_read_input_tokens: Number.NaN },
        /cache_read_input_tokens must be a non-negative integer, got NaN/,
      ],
      [{ input_tokens: 1.5 }, /got 1\.5/],
      [{ input_tokens: "3" }, /got string/],
      [
        { inputTokens: undefined, cacheReadInputTokens: 3 },
        /usage\.inputTokens must be a non-negative integer, got nothing/,
      ],
      [
        { promptTokenCount: 10, cachedContentTokenCount: 20 },
        /exceed the input/,
      ],
      [
        { input_tokens: 10, input_tokens_details: "x" },
        /input_tokens_details must be an object/,
      ],
      [{
        input_tokens: 1,
        cache_creation_input_tokens: 1,
        cache_creation: { ephemeral_1h_input_tokens: 5 },
      }, /1-hour writes \(5\) exceed all writes \(1\)/],
    ];
    for (const [usage, message] of bad) {
      assert.throws(() => readUsage(usage as never), (e: unknown) => {
        assert.ok(e instanceof PromptError);
        assert.equal(e.code, "invalid-value");
        assert.match(e.message, /^Cannot read the usage: /);
        assert.match(e.message, message);
        return true;
      });
    }
  });
});

describe("CacheLedger.record", () => {
  it("refuses a request that is no adapter's result, and a usage of another provider than the request's", () => {
    const ledger = new CacheLedger();
    const a = assembly();
    assert.throws(
      () => ledger.record(a, { request: { system: [] }, usage: write(1) }),
      { code: "invalid-value", message: /request must be an adapter's result/ },
    );
    const cases: [object, object, RegExp][] = [
      [
        toAnthropic(a),
        { prompt_tokens: 3 },
        /openai-chat's shape, but the request is for anthropic/,
      ],
      [
        toOpenAIResponses(a),
        write(3),
        /anthropic's shape, but the request is for openai-responses/,
      ],
      [toOpenAIChat(a), {
        input_tokens: 3,
        input_tokens_details: { cached_tokens: 0 },
      }, /for openai-chat/],
      [toBedrock(a), write(3), /for bedrock/],
      [
        toGemini(a),
        { inputTokens: 3 },
        /bedrock's shape, but the request is for gemini/,
      ],
      [toAISDK(a, { jsonSchema: (s: never) => s }), write(3), /for ai-sdk/],
    ];
    for (const [request, usage, message] of cases) {
      assert.throws(
        () => ledger.record(a, { request, usage: usage as never }),
        { code: "invalid-value", message },
      );
    }
    assert.equal(ledger.summary().steps, 0);
  });

  it("refuses a missing step and a usage whose fields throw, with the thrown value as the cause", () => {
    const ledger = new CacheLedger();
    const a = assembly();
    const request = toAnthropic(a);
    assert.throws(
      () => ledger.record(null as never, { request, usage: write(1) }),
      { code: "invalid-value", message: /step must be the assembly/ },
    );
    const boom = new Proxy({}, {
      has: (_, key) => key === "input_tokens",
      get: () => {
        throw "boom";
      },
    });
    assert.throws(
      () => ledger.record(a, { request, usage: boom as never }),
      (e: unknown) => {
        assert.ok(e instanceof PromptError);
        assert.equal(e.code, "invalid-value");
        assert.equal(e.cause, "boom");
        return true;
      },
    );
    const getter = Object.defineProperty(
      { input_tokens: 3 },
      "cache_read_input_tokens",
      {
        get() {
          throw new Error("no");
        },
      },
    );
    assert.throws(() => ledger.record(a, { request, usage: getter as never }), {
      code: "invalid-value",
      message: /reading a field threw/,
    });
    assert.equal(ledger.summary().steps, 0);
  });

  it("records a RenderedStep with the request made from it, owners and layers from its blocks, and refuses another step's prompt", async () => {
    const prompt = new SystemPrompt<{ notes: string }>();
    prompt.scope("agent-loop").section({
      name: "persona",
      order: 0,
      text: "You are a careful coding agent. ".repeat(250),
    });
    prompt.layer("sub").scope("memory").section({
      name: "notes",
      order: 500,
      stability: "session",
      text: (c) => c.notes.repeat(200),
    });
    prompt.scope("mcp:docs").tools(
      () => [{
        name: "docs_search",
        description: "Searches. ".repeat(50),
        parameters: { type: "object" },
      }],
    );
    const ledger = new CacheLedger();
    const step1 = await prompt.render({ notes: "Notes." }, {
      layer: "sub",
      agent: "sub",
    });
    const request1 = toAnthropic(step1, { model: MODEL });
    ledger.record(step1, {
      request: request1,
      usage: write(full(request1)),
      at: 0,
      agent: "sub",
      model: MODEL,
    });
    const step2 = await prompt.render({ notes: "Notes, edited." }, {
      layer: "sub",
      agent: "sub",
    });
    const request2 = toAnthropic(step2, { model: MODEL });
    const kept =
      request2.plan.choices.find((c) => c.reason === "static-prefix")!.tokens;
    const report = ledger.record(step2, {
      request: request2,
      usage: read(kept),
      at: 1000,
      agent: "sub",
      model: MODEL,
    });
    assert.equal(report.cause, "prefix-changed");
    assert.deepEqual(report.change, {
      kind: "section",
      name: "notes",
      owner: "memory",
      layer: "sub",
      change: "changed",
      before: kept,
    });
    assert.throws(
      () =>
        ledger.record(step1, {
          request: request2,
          usage: read(kept),
          at: 2000,
          agent: "sub",
          model: MODEL,
        }),
      {
        code: "invalid-value",
        message: /the step's prompt is not the request's/,
      },
    );
  });

  it("refuses a time that is not a finite number or a Date, and options of the wrong type", () => {
    const ledger = new CacheLedger();
    const a = assembly();
    const request = toAnthropic(a);
    assert.throws(
      () => ledger.record(a, { request, usage: write(1), at: Number.NaN }),
      { code: "invalid-option", message: /at must be a finite time, got NaN/ },
    );
    assert.throws(
      () => ledger.record(a, { request, usage: write(1), at: new Date("no") }),
      { code: "invalid-option" },
    );
    assert.throws(
      () =>
        ledger.record(a, { request, usage: write(1), at: "09:00" as never }),
      TypeError,
    );
    assert.throws(
      () => ledger.record(a, { request, usage: write(1), agent: 3 as never }),
      TypeError,
    );
    assert.throws(() => new CacheLedger({ history: 0 }), {
      code: "invalid-option",
      message: /history must be a positive integer/,
    });
    assert.throws(
      () => new CacheLedger({ countTokens: 3 as never }),
      TypeError,
    );
  });

  it("returns the first report for a usage recorded twice, counting it once", () => {
    const ledger = new CacheLedger();
    const a = assembly();
    const request = toAnthropic(a, { model: MODEL });
    const usage = write(1700);
    const first = ledger.record(a, { request, usage, at: 0, model: MODEL });
    assert.equal(
      ledger.record(a, { request, usage, at: 5, model: MODEL }),
      first,
    );
    assert.equal(ledger.summary().steps, 1);
  });

  it("judges a step recorded late against the steps sent before it only", () => {
    const ledger = new CacheLedger();
    const a = assembly();
    const request = toAnthropic(a, { model: MODEL });
    ledger.record(a, { request, usage: read(1700), at: 10_000, model: MODEL });
    const late = ledger.record(a, {
      request,
      usage: write(1700),
      at: 0,
      model: MODEL,
    });
    assert.equal(late.cause, "first-request");
  });

  it("counts a prefix another agent cached for every agent: the cache is the organisation's", () => {
    const ledger = new CacheLedger();
    const a = assembly();
    const request = toAnthropic(a, { model: MODEL });
    const n = full(request);
    assert.equal(
      ledger.record(a, {
        request,
        usage: write(n),
        at: 0,
        agent: "main",
        model: MODEL,
      }).cause,
      "first-request",
    );
    const sub = ledger.record(a, {
      request,
      usage: read(n),
      at: 1000,
      agent: "sub",
      model: MODEL,
    });
    assert.equal(sub.cause, undefined);
    // Evicted before the third agent's step, within the TTL: the ledger cannot say why.
    const evicted = ledger.record(a, {
      request,
      usage: write(n),
      at: 2000,
      agent: "other",
      model: MODEL,
    });
    assert.equal(evicted.cause, "unexplained");
  });

  it("names a model switch, a prefix under the model's minimum, and a provider that cached nothing", () => {
    const ledger = new CacheLedger();
    const a = assembly();
    const request = toAnthropic(a, { model: MODEL });
    ledger.record(a, { request, usage: write(1700), at: 0, model: MODEL });
    const switched = ledger.record(a, {
      request,
      usage: write(1700),
      at: 1000,
      model: "claude-opus-4-1",
    });
    assert.equal(switched.cause, "model-changed");
    // Planned for Sonnet (1,024), sent to Haiku 4.5 (4,096).
    const haiku = ledger.record(a, {
      request,
      usage: { input_tokens: 1710 },
      at: 2000,
      model: "claude-haiku-4-5",
    });
    assert.equal(haiku.cause, "under-minimum");
    const none = ledger.record(a, {
      request,
      usage: { input_tokens: 1710 },
      at: 3000,
      agent: "x",
      model: MODEL,
    });
    assert.equal(none.cause, "under-minimum");
  });

  it("names the section whose edit broke the prefix, its owner and layer, and prices the tokens written again", () => {
    const ledger = new CacheLedger();
    const request1 = toAnthropic(assembly("Notes."), { model: MODEL });
    ledger.record(assembly("Notes."), {
      request: request1,
      usage: write(request1.plan.choices.at(-2)!.tokens),
      at: 0,
      model: MODEL,
    });
    const edited = assembly("Notes, edited.");
    const request2 = toAnthropic(edited, { model: MODEL });
    const staticEnd =
      request2.plan.choices.find((c) => c.reason === "static-prefix")!.tokens;
    const report = ledger.record(edited, {
      request: request2,
      usage: read(staticEnd),
      at: 1000,
      model: MODEL,
    });
    assert.equal(report.cause, "prefix-changed");
    assert.deepEqual(report.change, {
      kind: "section",
      name: "notes",
      owner: "memory",
      change: "changed",
      before: staticEnd,
    });
    assert.equal(report.invalidated, report.expected - staticEnd);
    assert.ok(
      Math.abs(report.cost! - report.invalidated * 3 * (1.25 - 0.1) / 1e6) <
        1e-12,
    );
    const { owners } = ledger.summary();
    assert.deepEqual(Object.keys(owners), ["memory"]);
    assert.equal(owners.memory!.tokens, report.invalidated);
  });

  it("keeps its memory bounded: `history` steps per agent, `rows` rows", () => {
    const ledger = new CacheLedger({ history: 4, rows: 5 });
    const a = assembly();
    const request = toAnthropic(a, { model: MODEL });
    for (let i = 0; i < 100; i++) {
      ledger.record(a, {
        request,
        usage: read(1700),
        at: i * 1000,
        agent: `agent-${i % 3}`,
        model: MODEL,
      });
    }
    const summary = ledger.summary();
    assert.deepEqual([summary.steps, summary.rows.length, summary.dropped], [
      100,
      5,
      95,
    ]);
    assert.deepEqual(summary.rows.map((r) => r.step), [96, 97, 98, 99, 100]);
  });

  it("takes the host's prices before the table's, and reports no cost without a base price", () => {
    assert.deepEqual(priceFor("anthropic", "claude-next"), {
      read: 0.1,
      write: 1.25,
      write1h: 2,
    });
    const next = "claude-sonnet-4-5-next";
    const ledger = new CacheLedger({
      pricing: [{
        provider: "anthropic",
        model: next,
        input: 10,
        read: 0.1,
        write: 1.25,
        write1h: 2,
      }],
    });
    const a = assembly();
    const request = toAnthropic(a, { model: next });
    const first = ledger.record(a, {
      request,
      usage: write(full(request)),
      at: 0,
      model: next,
    });
    assert.equal(first.cost, first.invalidated * 10 * 1.15 / 1e6);
    const table = new CacheLedger().record(a, {
      request,
      usage: write(full(request)),
      at: 0,
      model: next,
    });
    assert.equal(table.cost, first.invalidated * 3 * 1.15 / 1e6);
    const unpriced = new CacheLedger().record(a, {
      request,
      usage: write(2000),
      at: 0,
      model: "claude-next",
    });
    assert.equal(unpriced.cost, undefined);
  });
});

describe("the session on the inspector page", () => {
  it("escapes hostile owners, parts and agents, and refuses a session that is not a ledger's summary", () => {
    const hostile = '<script>alert("x")</script>';
    const ledger = new CacheLedger();
    const before = assembly("Notes.", hostile);
    const after = {
      ...assembly("Notes."),
      sections: assembly("Notes.").sections.map((s) =>
        s.name === "persona" ? { ...s, owner: hostile, text: s.text + "!" } : s
      ),
    };
    ledger.record(before, {
      request: toAnthropic(before, { model: MODEL }),
      usage: write(1700),
      at: 0,
      agent: hostile,
      model: MODEL,
    });
    ledger.record(after, {
      request: toAnthropic(after, { model: MODEL }),
      usage: write(1700),
      at: 1000,
      agent: hostile,
      model: MODEL,
    });
    assert.equal(ledger.summary().rows[1]!.owner, hostile);
    const html = inspectorPage(after, { session: ledger.summary() });
    assert.ok(!html.includes(hostile));
    assert.equal(html.match(/<script>/g)?.length, 1); // the page's own
    assert.match(html, /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;/);
    assert.throws(
      () => inspectorPage(after, { session: { rows: "x" } as never }),
      TypeError,
    );
  });
});
