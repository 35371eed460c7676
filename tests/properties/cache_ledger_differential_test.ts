// The ledger remembers between steps (prefixes, block parts, tool hashes,
// the uses index); the reference ledger (tests/support/ledger_reference,
// the code before it remembered anything) works everything out again each
// step. Over random sessions (three agents, two providers, random edits of
// the context, a tool, a session or a static section, tools as the same
// objects or fresh wrappers, steps or assemblies, late records, the same
// usage twice, a small history) their reports and summaries are equal, and
// stepAttributes' manifest is the reference prefix's.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { SystemPrompt, type ToolSchema } from "@dsh/system-prompt";
import {
  CacheLedger,
  stepAttributes,
  toAnthropic,
  toOpenAIResponses,
} from "@dsh/system-prompt/adapters";
import { estimateTokens } from "@dsh/system-prompt/inspect";
import { CacheLedger as Reference } from "../support/ledger_reference/ledger.ts";
import { stepPrefix as referencePrefix } from "../support/ledger_reference/_ledger_parts.ts";

const RUNS = { numRuns: 150, seed: 20261202 };
const MINUTE = 60_000;

interface State {
  tools: string[];
  notes: string;
  rules: string;
  clock: string;
}

function registry(state: State, fresh: boolean): SystemPrompt<object> {
  const prompt = new SystemPrompt<object>();
  prompt.scope("agent-loop").section({
    name: "persona",
    order: 0,
    text: "You are a coding agent; be careful and brief. ".repeat(120),
  });
  prompt.scope("skills").section({
    name: "rules",
    order: 100,
    text: () => state.rules,
  });
  prompt.scope("memory").section({
    name: "notes",
    order: 500,
    stability: "session",
    text: () => state.notes,
  });
  prompt.scope("clock").context({
    name: "clock",
    order: 0,
    text: () => state.clock,
  });
  const made: ToolSchema[] = [];
  for (
    const [i, owner] of [[0, "mcp:a"], [1, "mcp:a"], [2, "mcp:b"]] as const
  ) {
    prompt.scope(owner).tools(() => {
      const tool = {
        name: `t${i}`,
        description: state.tools[i]!,
        parameters: { type: "object" },
      };
      if (fresh || made[i]?.description !== tool.description) made[i] = tool;
      return [fresh ? { ...made[i]! } : made[i]!];
    });
  }
  return prompt;
}

const stepArb = fc.record({
  agent: fc.constantFrom("a", "b", "c"),
  gap: fc.constantFrom(-30_000, 0, 1_000, 30_000, 6 * MINUTE, 70 * MINUTE),
  edit: fc.constantFrom(
    "none",
    "none",
    "context",
    "tool:t0",
    "tool:t2",
    "rules",
    "notes",
  ),
  read: fc.constantFrom("all", "all", "none", "half", "static"),
  model: fc.constantFrom("claude-sonnet-4-5", "claude-opus-4-1"),
  openai: fc.boolean(),
  assembly: fc.constantFrom(false, false, false, true),
  twice: fc.constantFrom(false, false, false, true),
});

describe("the ledger against the reference that remembers nothing", () => {
  it("gives the same reports, summaries and manifests over random sessions", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { minLength: 1, maxLength: 24 }),
        fc.boolean(),
        fc.constantFrom(2, 4, 32),
        async (steps, fresh, history) => {
          const state: State = {
            tools: [
              "Searches. ".repeat(80),
              "Lists. ".repeat(80),
              "Reads. ".repeat(80),
            ],
            notes: "Notes 0. ".repeat(60),
            rules: "Rule set 0. ".repeat(60),
            clock: "It is 09:00.",
          };
          const prompt = registry(state, fresh);
          const count = (text: string) => Math.ceil(text.length / 4);
          const ledger = new CacheLedger({ history, countTokens: count });
          const reference = new Reference({ history, countTokens: count });
          let at = Date.UTC(2026, 11, 1, 9);
          for (const [n, s] of steps.entries()) {
            const text = (word: string) => `${word} ${n}. `.repeat(60);
            if (s.edit === "context") state.clock = `It is ${n}.`;
            if (s.edit === "tool:t0") state.tools[0] = text("Searches");
            if (s.edit === "tool:t2") state.tools[2] = text("Reads");
            if (s.edit === "rules") state.rules = text("Rules");
            if (s.edit === "notes") state.notes = text("Notes");
            at += s.gap;
            const step = s.assembly
              ? await prompt.assemble({})
              : await prompt.render({}, { agent: s.agent });
            const options = { model: s.model, countTokens: count };
            const request = s.openai
              ? toOpenAIResponses(step, options)
              : toAnthropic(step, options);
            const expected = Math.max(
              0,
              ...request.plan.choices.map((c) => c.tokens),
            );
            const read = {
              all: expected,
              none: 0,
              half: expected >> 1,
              static: request.plan.choices.find((c) =>
                c.reason === "static-prefix"
              )?.tokens ?? 0,
            }[s.read];
            const usage = s.openai
              ? {
                input_tokens: expected + 30,
                input_tokens_details: { cached_tokens: read },
                output_tokens: 5,
              }
              : {
                input_tokens: 30,
                cache_read_input_tokens: read,
                cache_creation_input_tokens: expected - read,
              };
            const record = {
              request,
              usage,
              at,
              agent: s.agent,
              model: s.model,
            };
            const times = s.twice ? 2 : 1;
            for (let k = 0; k < times; k++) {
              const report = ledger.record(step, record);
              assert.deepEqual(report, reference.record(step, record));
              const attributes = stepAttributes(step, { request, report });
              const parts = referencePrefix(step, {
                plan: request.plan,
                count: estimateTokens,
              }).parts;
              assert.deepEqual(
                attributes["dsh.system_prompt.part.hash"],
                parts.map((p) => p.hash),
              );
              assert.deepEqual(
                attributes["dsh.system_prompt.part.tokens"],
                parts.map((p) => p.tokens),
              );
            }
          }
          assert.deepEqual(ledger.summary(), reference.summary());
        },
      ),
      RUNS,
    );
  });
});
