// What the cache ledger remembers between steps, counted: its counter is
// called once per new text, a registry tool is written as JSON once per
// schema, an unchanged step costs no count and no JSON; and its edges:
// throwing and lying counters, a step of another registry, a refused
// usage leaving the ledger as it was, a long history against the
// reference that remembers nothing.
import { describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import { PromptError, SystemPrompt } from "@dsh/system-prompt";
import { CacheLedger, toAnthropic } from "@dsh/system-prompt/adapters";
import { CacheLedger as Reference } from "./support/ledger_reference/ledger.ts";

const MODEL = "claude-sonnet-4-5";

/** Two static sections in one block (so the ledger counts its parts), a session section, a clock, two tools. */
function registry(state = { notes: "Notes.", tool: "Runs a command." }) {
  const prompt = new SystemPrompt<{ clock: string }>();
  prompt.scope("agent-loop").section({
    name: "persona",
    order: 0,
    text: "You are a careful coding agent. ".repeat(200),
  });
  prompt.scope("skills").section({
    name: "rules",
    order: 10,
    text: "Run the tests before you say done. ".repeat(100),
  });
  prompt.scope("memory").section({
    name: "notes",
    order: 500,
    stability: "session",
    text: () => state.notes.repeat(100),
  });
  prompt.scope("clock").context({
    name: "clock",
    order: 0,
    text: (c) => `It is ${c.clock}.`,
  });
  prompt.scope("mcp").tools(() => [
    { name: "bash", description: state.tool, parameters: { type: "object" } },
    {
      name: "read",
      description: "Reads a file.",
      parameters: { type: "object" },
    },
  ]);
  return { prompt, state };
}

const usage = () => ({
  input_tokens: 20,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 3000,
});

describe("the cache ledger's memory", () => {
  it("calls countTokens once per new text: not again for an unchanged or context-changed step, nor in a second ledger with the same counter", async () => {
    const { prompt } = registry();
    const countTokens = mock.fn((text: string) => Math.ceil(text.length / 4));
    const ledger = new CacheLedger({ countTokens });
    const agent = {};
    for (let i = 0; i < 5; i++) {
      const step = await prompt.render({ clock: `09:0${i}` }, { agent });
      ledger.record(step, {
        request: toAnthropic(step, { model: MODEL }),
        usage: usage(),
        at: i * 1000,
        model: MODEL,
      });
    }
    const texts = countTokens.mock.calls.map((c) => c.arguments[0]);
    assert.ok(texts.length >= 2, "the block of two parts is counted");
    assert.equal(new Set(texts).size, texts.length, "no text counted twice");
    const calls = countTokens.mock.callCount();
    const again = new CacheLedger({ countTokens });
    const step = await prompt.render({ clock: "10:00" }, { agent });
    again.record(step, {
      request: toAnthropic(step, { model: MODEL }),
      usage: usage(),
      at: 0,
    });
    assert.equal(countTokens.mock.callCount(), calls);
  });

  it("writes a registry tool as JSON once per schema: an unchanged step writes none, a changed tool only itself", async () => {
    const { prompt, state } = registry();
    const ledger = new CacheLedger();
    const agent = {};
    const sent = async (clock: string) => {
      const step = await prompt.render({ clock }, { agent });
      return { step, request: toAnthropic(step, { model: MODEL }) };
    };
    const first = await sent("09:00");
    ledger.record(first.step, {
      request: first.request,
      usage: usage(),
      at: 0,
    });
    const record = async (clock: string, at: number) => {
      const { step, request } = await sent(clock);
      const stringify = mock.method(JSON, "stringify");
      try {
        ledger.record(step, { request, usage: usage(), at });
        return stringify.mock.calls.map((c) => c.arguments[0]);
      } finally {
        stringify.mock.restore();
      }
    };
    assert.deepEqual(await record("09:01", 1000), []);
    state.tool = "Runs a shell command.";
    assert.deepEqual(await record("09:02", 2000), [[
      "bash",
      "Runs a shell command.",
      { type: "object" },
    ]]);
    assert.deepEqual(await record("09:03", 3000), []);
  });

  it("refuses a countTokens that throws a non-Error or returns NaN, naming it, the thrown value as cause", async () => {
    const { prompt } = registry();
    const step = await prompt.render({ clock: "09:00" }, { agent: {} });
    const request = toAnthropic(step, { model: MODEL });
    const thrown = { not: "an Error" };
    const throwing = new CacheLedger({
      countTokens: () => {
        throw thrown;
      },
    });
    assert.throws(
      () => throwing.record(step, { request, usage: usage() }),
      (error: unknown) =>
        error instanceof PromptError && error.code === "invalid-option" &&
        /countTokens threw/.test(error.message) && error.cause === thrown,
    );
    const lying = new CacheLedger({ countTokens: () => NaN });
    assert.throws(() => lying.record(step, { request, usage: usage() }), {
      name: "PromptError",
      code: "invalid-option",
      message: /countTokens returned NaN/,
    });
  });

  it("refuses a step of another registry, even after its request's prefix was remembered", async () => {
    const { prompt } = registry();
    const other =
      registry({ notes: "Other notes, longer.", tool: "Runs." }).prompt;
    const ledger = new CacheLedger();
    const step = await prompt.render({ clock: "09:00" }, { agent: {} });
    const request = toAnthropic(step, { model: MODEL });
    ledger.record(step, { request, usage: usage(), at: 0 });
    const stranger = await other.render({ clock: "09:00" }, { agent: {} });
    assert.throws(
      () => ledger.record(stranger, { request, usage: usage(), at: 1 }),
      {
        name: "PromptError",
        code: "invalid-value",
        message: /pass the step the request was made from/,
      },
    );
  });

  it("is left as it was by a refused usage (NaN, negative, missing): its next reports are the reference's", async () => {
    const { prompt, state } = registry();
    const ledger = new CacheLedger();
    const reference = new Reference();
    const agent = {};
    for (let i = 0; i < 6; i++) {
      if (i === 3) state.notes = "Edited notes.";
      const step = await prompt.render({ clock: `09:0${i}` }, { agent });
      const request = toAnthropic(step, { model: MODEL });
      for (
        const bad of [{ input_tokens: NaN }, { input_tokens: -1 }, {
          cache_read_input_tokens: 3,
        }]
      ) {
        assert.throws(
          () =>
            ledger.record(step, { request, usage: bad as never, at: i * 1000 }),
          { code: "invalid-value" },
        );
      }
      const options = { request, usage: usage(), at: i * 1000, model: MODEL };
      assert.deepEqual(
        ledger.record(step, options),
        reference.record(step, options),
      );
    }
    assert.deepEqual(ledger.summary(), reference.summary());
  });

  it("gives the reference's reports over a long history of interleaved agents, steps recorded twice and late", async () => {
    const { prompt, state } = registry();
    const ledger = new CacheLedger({ history: 500, rows: 50 });
    const reference = new Reference({ history: 500, rows: 50 });
    for (let i = 0; i < 400; i++) {
      if (i % 37 === 0) state.notes = `Notes ${i}.`;
      if (i % 53 === 0) state.tool = `Runs ${i}.`;
      const agent = `agent-${i % 3}`;
      const step = await prompt.render({ clock: `${i}` }, { agent });
      const request = toAnthropic(step, { model: MODEL });
      const at = i * 20_000 - (i % 10 === 0 ? 300_000 : 0);
      const options = {
        request,
        usage: {
          input_tokens: 20,
          cache_read_input_tokens: i % 2 ? 2000 : 0,
          cache_creation_input_tokens: 500,
        },
        at,
        agent,
        model: MODEL,
      };
      const report = ledger.record(step, options);
      assert.deepEqual(report, reference.record(step, options));
      assert.deepEqual(
        ledger.record(step, { ...options, usage: { ...options.usage } }),
        reference.record(step, { ...options, usage: { ...options.usage } }),
      );
      assert.equal(ledger.record(step, options), report);
    }
    assert.deepEqual(ledger.summary(), reference.summary());
  });
});
