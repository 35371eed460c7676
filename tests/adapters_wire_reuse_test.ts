// What each adapter builds once and reuses: the wire tools per tools list
// (a step where only a block changed keeps them), an unmarked block's wire
// object per frozen block, the step's prompt as OpenAI's and Gemini's text;
// and the attacks on that reuse (blocks that change under it, counters
// that fail, steps shared between adapters and registries).
import { describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  PromptError,
  type RenderedStep,
  type StepBlock,
  SystemPrompt,
  type ToolSchema,
} from "@dsh/system-prompt";
import { EVERY_ADAPTER as ADAPTERS } from "./support/every_adapter.ts";

const words = (n: number) => "Read before you edit. ".repeat(n);
const tool = (name: string, size = 1, deferred = false): ToolSchema => ({
  name,
  description: words(size),
  parameters: { type: "object", properties: { x: { type: "string" } } },
  ...(deferred ? { deferLoading: true } : {}),
});

/** The request's tools field, whatever the adapter calls it. */
function toolsField(request: object): unknown {
  const fields = request as Record<string, unknown>;
  return "toolConfig" in fields ? fields.toolConfig : fields.tools;
}

/** The request's system field, whatever the adapter calls it. */
function systemField(request: object): unknown {
  const fields = request as Record<string, unknown>;
  return fields.system ?? fields.instructions ?? fields.messages ??
    fields.systemInstruction;
}

/** A registry with a session section that moves with `state.cwd`. */
function registry(state: { cwd: string; time: string }) {
  const prompt = new SystemPrompt();
  prompt.section({ name: "persona", order: 0, text: words(300) });
  prompt.section({
    name: "workspace",
    order: 1,
    stability: "session",
    text: () => `Work in ${state.cwd}.`,
  });
  prompt.section({ name: "rules", order: 2, text: words(10) });
  prompt.context({ name: "clock", order: 0, text: () => state.time });
  prompt.tools(() => [tool("bash", 50), tool("read", 50), tool("edit", 50)]);
  return prompt;
}

/** A hand-made step of frozen blocks (read as a rendered step is). */
function handMade(blocks: readonly StepBlock[]): RenderedStep {
  return Object.freeze({
    prompt: blocks.map((block) => block.text).join(""),
    blocks: Object.freeze(blocks.slice()),
    tools: Object.freeze([]),
    context: "",
  }) as unknown as RenderedStep;
}

describe("adapters reuse what did not change", () => {
  it("keep the tools field when only a block changed, byte for byte what a fresh registry gives", async () => {
    const state = { cwd: "/repo", time: "09:00" };
    const prompt = registry(state);
    for (const [name, adapt] of ADAPTERS) {
      const options = { model: "claude-sonnet-4-5" };
      state.cwd = `/repo/${name}`;
      const first = adapt(await prompt.render({}, { agent: name }), options);
      state.cwd = `/other/${name}`;
      const step = await prompt.render({}, { agent: name });
      const second = adapt(step, options);
      assert.notEqual(second.plan, first.plan, name);
      assert.notDeepEqual(systemField(second), systemField(first), name);
      assert.equal(toolsField(second), toolsField(first), name);
      const fresh = await registry({ ...state }).assemble({});
      assert.equal(
        JSON.stringify(second),
        JSON.stringify(adapt(fresh, options)),
        name,
      );
    }
  });

  it("send the step's own prompt as OpenAI's and Gemini's text, not a new join", async () => {
    const state = { cwd: "/repo", time: "09:00" };
    const step = await registry(state).render({}, { agent: "a" });
    const [, responses] = ADAPTERS.find(([n]) => n === "toOpenAIResponses")!;
    const [, chat] = ADAPTERS.find(([n]) => n === "toOpenAIChat")!;
    const [, gemini] = ADAPTERS.find(([n]) => n === "toGemini")!;
    const texts = [
      (responses(step) as unknown as { instructions: string }).instructions,
      (chat(step) as unknown as { messages: { content: string }[] })
        .messages[0]!.content,
      (gemini(step) as unknown as {
        systemInstruction: { parts: { text: string }[] };
      }).systemInstruction.parts[0]!.text,
    ];
    for (const text of texts) assert.equal(text, step.prompt);
  });

  it("keep an unmarked block's wire object while the block is kept", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "a", order: 0, text: "Short." });
    prompt.section({ name: "b", order: 1, text: "Also short." });
    prompt.section({
      name: "c",
      order: 2,
      stability: "session",
      text: "Session.",
    });
    const step = await prompt.render({}, { agent: "a" });
    assert.equal(step.blocks.length, 2);
    const [kept, changed] = step.blocks as [StepBlock, StepBlock];
    const other = Object.freeze({ ...changed, text: "\n\nMoved." });
    const next = handMade([kept, other]);
    for (const [name, adapt] of ADAPTERS) {
      // Under every minimum: no marks, every block unmarked.
      const a = adapt(step);
      const b = adapt(next);
      const wire = (request: object) => {
        const system = systemField(request);
        return Array.isArray(system)
          ? system.filter((block) => !("cachePoint" in block))
          : undefined;
      };
      const [x, y] = [wire(a), wire(b)];
      if (x === undefined || x.length !== 2) continue; // one text
      assert.equal(y![0], x[0], name);
      assert.notEqual(y![1], x[1], name);
      assert.match(JSON.stringify(y![1]), /Moved\./, name);
    }
  });

  it("read a block that is not frozen afresh, even after its text changed", () => {
    const block = {
      text: "First.",
      stability: "static",
      parts: Object.freeze([]),
      spans: Object.freeze([]),
    } as unknown as { text: string } & StepBlock;
    const step = (text: string) =>
      ({
        prompt: text,
        blocks: [block],
        tools: [],
        context: "",
      }) as unknown as RenderedStep;
    for (const [name, adapt] of ADAPTERS) {
      block.text = "First.";
      assert.match(JSON.stringify(adapt(step("First."))), /First\./, name);
      block.text = "Second.";
      const again = JSON.stringify(adapt(step("Second.")));
      assert.match(again, /Second\./, name);
      assert.doesNotMatch(again, /First\./, name);
    }
  });
});

describe("token counts between adapters", () => {
  it("the same step to every adapter, with one counter, counts each text and tool once", async () => {
    const state = { cwd: "/repo", time: "09:00" };
    const step = await registry(state).render({}, { agent: "a" });
    const countTokens = mock.fn((text: string) => text.length);
    for (const [, adapt] of ADAPTERS) adapt(step, { countTokens });
    // Three blocks and three tools.
    assert.equal(countTokens.mock.callCount(), 6);
  });

  it("a step where one block changed counts that block only, for every adapter", async () => {
    const state = { cwd: "/repo", time: "09:00" };
    const prompt = registry(state);
    for (const [name, adapt] of ADAPTERS) {
      const countTokens = mock.fn((text: string) => text.length);
      adapt(await prompt.render({}, { agent: name }), { countTokens });
      const before = countTokens.mock.callCount();
      state.cwd = `/moved/${name}`;
      adapt(await prompt.render({}, { agent: name }), { countTokens });
      assert.equal(countTokens.mock.callCount(), before + 1, name);
      assert.equal(
        countTokens.mock.calls.at(-1)!.arguments[0],
        `\n\nWork in /moved/${name}.`,
        name,
      );
      // Only the context changed: nothing counted.
      state.time = `10:00 ${name}`;
      adapt(await prompt.render({}, { agent: name }), { countTokens });
      assert.equal(countTokens.mock.callCount(), before + 1, name);
    }
  });

  it("a counter that throws a non-Error, or answers NaN, is refused with nothing remembered", async () => {
    const state = { cwd: "/never-counted", time: "09:00" };
    const step = await registry(state).render({}, { agent: "a" });
    for (const [name, adapt] of ADAPTERS) {
      for (const thrown of ["down", undefined, null, 42, { why: "down" }]) {
        const countTokens = () => {
          throw thrown;
        };
        assert.throws(() => adapt(step, { countTokens }), (error) => {
          assert.ok(error instanceof PromptError, name);
          assert.equal(error.code, "invalid-option", name);
          assert.equal(error.cause, thrown, name);
          return true;
        });
      }
      let answer = NaN;
      const flaky = (text: string) => answer === 0 ? text.length : answer;
      assert.throws(() => adapt(step, { countTokens: flaky }), {
        code: "invalid-option",
        message: /countTokens returned NaN/,
      });
      answer = 0;
      const fresh = await registry({ ...state }).render({}, { agent: "a" });
      assert.equal(
        JSON.stringify(adapt(step, { countTokens: flaky }).plan),
        JSON.stringify(adapt(fresh, { countTokens: flaky }).plan),
        name,
      );
    }
  });
});

describe("reuse under changing tools and blocks (property)", () => {
  it("every adapter, steps in any order, gives what a fresh registry gives", async () => {
    const TOOLSETS: ToolSchema[][] = [
      [tool("bash", 400), tool("read", 400)],
      [tool("bash", 400), tool("read", 400, true)],
      [tool("bash", 400), tool("read", 400), tool("grep", 400)],
      [],
    ];
    const make = (s: { cwd: number; tools: number; persona: number }) => {
      const prompt = new SystemPrompt();
      prompt.section({ name: "persona", order: 0, text: words(s.persona) });
      prompt.section({
        name: "workspace",
        order: 1,
        stability: "session",
        text: () => `Work in /repo/${s.cwd}.`,
      });
      prompt.section({ name: "rules", order: 2, text: words(100) });
      prompt.tools(() => TOOLSETS[s.tools]!);
      return prompt;
    };
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 600 }),
        fc.array(
          fc.record({
            cwd: fc.nat({ max: 2 }),
            tools: fc.nat({ max: TOOLSETS.length - 1 }),
            adapters: fc.array(fc.nat({ max: ADAPTERS.length - 1 }), {
              minLength: 1,
              maxLength: 4,
            }),
            model: fc.constantFrom("claude-sonnet-4-5", "gpt-5", undefined),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        async (persona, steps) => {
          const state = { cwd: 0, tools: 0, persona };
          const prompt = make(state);
          for (const { cwd, tools, adapters, model } of steps) {
            Object.assign(state, { cwd, tools });
            const step = await prompt.render({}, { agent: "a" });
            const assembly = await make({ ...state }).assemble({});
            const options = model === undefined ? {} : { model };
            for (const a of adapters) {
              const [name, adapt] = ADAPTERS[a]!;
              const ours = adapt(step, options);
              assert.equal(
                JSON.stringify({ ...ours, plan: ours.plan }),
                JSON.stringify((({ plan, ...rest }) => ({ ...rest, plan }))(
                  adapt(assembly, options),
                )),
                name,
              );
            }
          }
        },
      ),
      { numRuns: 80, seed: 20261202 },
    );
  });
});

describe("reuse at scale", () => {
  it("a huge prompt whose last block changes keeps its tools and sends the whole prompt", async () => {
    const state = { tail: 0 };
    const prompt = new SystemPrompt();
    for (let i = 0; i < 200; i++) {
      prompt.section({ name: `s${i}`, order: i, text: words(200) });
    }
    prompt.section({
      name: "tail",
      order: 1000,
      stability: "session",
      text: () => `Tail ${state.tail}.`,
    });
    const many = Array.from({ length: 300 }, (_, i) => tool(`t${i}`, 5));
    prompt.tools(() => many);
    for (const [name, adapt] of ADAPTERS) {
      state.tail += 1;
      const a = adapt(await prompt.render({}, { agent: name }));
      state.tail += 1;
      const step = await prompt.render({}, { agent: name });
      const b = adapt(step);
      assert.equal(toolsField(b), toolsField(a), name);
      assert.ok(step.prompt.length > 800_000, name);
      assert.ok(JSON.stringify(b).includes(`Tail ${state.tail}.`), name);
    }
  });
});
