// The adapters' memories (per step, per blocks array, per tools list and
// marks, per frozen block) under options that change from call to call,
// session tools that come and go, and hand-made steps: every request is
// byte for byte the one an assembly of the same content gives, which each
// adapter builds afresh.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type RenderedStep,
  type StepBlock,
  SystemPrompt,
  type ToolSchema,
} from "@dsh/system-prompt";
import {
  type AdapterOptions,
  ANTHROPIC,
  BEDROCK,
  GEMINI,
  OPENAI,
} from "@dsh/system-prompt/adapters";
import { EVERY_ADAPTER as ADAPTERS } from "./support/every_adapter.ts";

const words = (n: number) => "Read before you edit. ".repeat(n);
const tool = (name: string, size: number, deferred = false): ToolSchema => ({
  name,
  description: words(size),
  parameters: { type: "object", properties: { x: { type: "string" } } },
  ...(deferred ? { deferLoading: true } : {}),
});

const STATIC: ToolSchema[][] = [
  [tool("bash", 300), tool("read", 300)],
  [tool("bash", 300), tool("read", 300, true)],
  [],
];
const SESSION: ToolSchema[][] = [[], [tool("docs", 200)], [
  tool("docs", 200),
  tool("web", 5, true),
]];

const counter = (text: string) => Math.ceil(text.length / 3);
const OPTIONS: AdapterOptions[] = [
  {},
  { model: "claude-sonnet-4-5" },
  { model: "gpt-5", profile: OPENAI },
  { profile: BEDROCK },
  { profile: GEMINI },
  { profile: ANTHROPIC, cache: { ttl: "1h" } },
  { cache: false },
  { countTokens: counter },
  { countTokens: counter, cache: { reserve: 1 } },
];

/** The request as JSON, its plan and context message too. */
const wire = (request: { plan: unknown; contextMessage?: unknown }) =>
  JSON.stringify([request, request.plan, request.contextMessage]);

/** A step made by hand from a rendered one: blocks copied, not frozen. */
function handMade(step: RenderedStep, freeze: boolean): RenderedStep {
  const copy = (block: StepBlock): StepBlock => {
    const made = { ...block, parts: [...block.parts], spans: [...block.spans] };
    return freeze
      ? Object.freeze(Object.assign(made, {
        parts: Object.freeze(made.parts),
        spans: Object.freeze(made.spans),
      })) as StepBlock
      : made as StepBlock;
  };
  const blocks = step.blocks.map(copy);
  return {
    ...step,
    blocks: freeze ? Object.freeze(blocks) : blocks,
  } as RenderedStep;
}

describe("adapters' memories under changing options", () => {
  it("give every step what an assembly of the same content gives, whatever the options", async () => {
    const make = (s: { cwd: number; fixed: number; session: number }) => {
      const prompt = new SystemPrompt();
      prompt.section({ name: "persona", order: 0, text: words(400) });
      prompt.section({
        name: "workspace",
        order: 1,
        stability: "session",
        text: () => `Work in /repo/${s.cwd}.`,
      });
      prompt.section({ name: "rules", order: 2, text: words(50) });
      prompt.context({ name: "clock", order: 0, text: () => `t${s.cwd}` });
      prompt.scope("core").tools(() => STATIC[s.fixed]!);
      prompt.scope("mcp").tools(() => SESSION[s.session]!, {
        stability: "session",
      });
      return prompt;
    };
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            cwd: fc.nat({ max: 2 }),
            fixed: fc.nat({ max: STATIC.length - 1 }),
            session: fc.nat({ max: SESSION.length - 1 }),
            calls: fc.array(
              fc.record({
                adapter: fc.nat({ max: ADAPTERS.length - 1 }),
                options: fc.nat({ max: OPTIONS.length - 1 }),
                hand: fc.constantFrom("step", "frozen", "open"),
              }),
              { minLength: 1, maxLength: 5 },
            ),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        async (steps) => {
          const state = { cwd: 0, fixed: 0, session: 0 };
          const prompt = make(state);
          for (const { cwd, fixed, session, calls } of steps) {
            Object.assign(state, { cwd, fixed, session });
            const rendered = await prompt.render({}, { agent: "a" });
            const assembly = await make({ ...state }).assemble({});
            for (const { adapter, options, hand } of calls) {
              const [name, adapt] = ADAPTERS[adapter]!;
              const step = hand === "step"
                ? rendered
                : handMade(rendered, hand === "frozen");
              const ours = adapt(step, OPTIONS[options]);
              assert.equal(
                wire(ours),
                wire(adapt(assembly, OPTIONS[options])),
                `${name} ${hand} ${JSON.stringify(OPTIONS[options])}`,
              );
              // The same call again: the same answer.
              assert.equal(wire(adapt(step, OPTIONS[options])), wire(ours));
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
