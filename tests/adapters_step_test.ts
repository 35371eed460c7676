// The adapters from a rendered step: the same request as from the
// assembly, remembered while the step's parts stand, and never stale.
import { describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  PromptError,
  type RenderedStep,
  type Stability,
  SystemPrompt,
  type ToolSchema,
} from "@dsh/system-prompt";
import {
  type AdapterOptions,
  toAISDK,
  toAnthropic,
  toOpenAIChat,
  toOpenAIResponses,
} from "@dsh/system-prompt/adapters";
import { estimateTokens } from "@dsh/system-prompt/inspect";
import { EVERY_ADAPTER as ADAPTERS } from "./support/every_adapter.ts";

const jsonSchema = (schema: object) => ({ jsonSchema: schema });

const words = (n: number) => "Read before you edit. ".repeat(n);
const tool = (name: string, size = 1): ToolSchema => ({
  name,
  description: words(size),
  parameters: { type: "object", properties: { x: { type: "string" } } },
});

/** Everything a request says: its fields, its plan, its context message. */
const whole = (request: { plan: unknown; contextMessage?: unknown }) => ({
  ...request,
  plan: request.plan,
  contextMessage: request.contextMessage,
});

const stability = fc.constantFrom<Stability | undefined>(
  undefined,
  "static",
  "session",
  "step",
);
const itemFields = { size: fc.nat({ max: 40 }), stability };
const item = fc.record(itemFields);
const section = fc.record({
  size: fc.nat({ max: 200 }),
  stability,
  items: fc.option(
    fc.array(
      fc.record({
        ...itemFields,
        nested: fc.option(fc.array(item, { maxLength: 3 }), { nil: undefined }),
      }),
      { maxLength: 4 },
    ),
    { nil: undefined },
  ),
});
const registry = fc.record({
  sections: fc.array(section, { minLength: 1, maxLength: 5 }),
  tools: fc.array(fc.nat({ max: 300 }), { maxLength: 4 }),
  context: fc.boolean(),
});

type Shape = typeof registry extends fc.Arbitrary<infer T> ? T : never;

function build(shape: Shape, clock: { time: string }): SystemPrompt {
  const prompt = new SystemPrompt();
  const at = (s: Stability | undefined) =>
    s === undefined ? {} : { stability: s };
  shape.sections.forEach((s, i) => {
    const scope = prompt.scope(`owner-${i}`);
    const name = `s${i}`;
    const text = s.stability === "step"
      ? () => `${words(s.size)}${clock.time}`
      : words(s.size);
    scope.section({
      name,
      order: i,
      text,
      ...at(s.stability),
      ...(s.items ? { list: { footer: "end" } } : {}),
    });
    s.items?.forEach((it, k) => {
      scope.item(name, {
        name: `i${k}`,
        order: k,
        text: it.stability === "step"
          ? () => `${words(it.size)}${clock.time}`
          : `${words(it.size)}i${k}`,
        ...at(it.stability),
        ...(it.nested ? { list: {} } : {}),
      });
      it.nested?.forEach((n, j) =>
        scope.item([name, `i${k}`], {
          name: `n${j}`,
          order: j,
          text: `${words(n.size)}n${j}`,
          ...at(n.stability),
        })
      );
    });
  });
  const tools = shape.tools.map((size, i) => tool(`t${i}`, size));
  prompt.tools(() => tools);
  if (shape.context) {
    prompt.context({ name: "clock", order: 0, text: () => clock.time });
  }
  return prompt;
}

describe("adapters from a rendered step", () => {
  it("give for a step what they give for the assembly of the same content (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        registry,
        fc.constantFrom("claude-sonnet-4-5", undefined),
        async (shape, model) => {
          const clock = { time: "09:00" };
          const prompt = build(shape, clock);
          for (const time of ["09:00", "09:01", "09:01"]) {
            clock.time = time;
            const step = await prompt.render({}, { agent: "a" });
            const assembly = await prompt.assemble();
            for (const [name, adapt] of ADAPTERS) {
              const count = (t: string) => Math.ceil(t.length / 3);
              const options = {
                ...(model ? { model } : {}),
                countTokens: count,
              };
              assert.deepEqual(
                whole(adapt(step, options)),
                whole(adapt(assembly, options)),
                name,
              );
            }
            const a = toAnthropic(step, model ? { model } : {});
            assert.equal(a.system.map((b) => b.text).join(""), step.prompt);
          }
        },
      ),
      { numRuns: 150, seed: 20261202 },
    );
  });

  it("return the same result for the same step and equal option values", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: words(300) });
    prompt.tools(() => [tool("bash")]);
    const step = await prompt.render({}, { agent: "a" });
    for (const [name, adapt] of ADAPTERS) {
      const first = adapt(step, {
        model: "claude-sonnet-4-5",
        cache: { ttl: "1h" },
      });
      const again = adapt(step, {
        model: "claude-sonnet-4-5",
        cache: { ttl: "1h" },
      });
      assert.equal(again, first, name);
      // An options object edited between calls is read again.
      const options: AdapterOptions = { model: "claude-sonnet-4-5" };
      const before = adapt(step, options);
      options.cache = false;
      const after = adapt(step, options);
      assert.notEqual(after, before, name);
      assert.deepEqual(
        whole(after),
        whole(adapt(await prompt.assemble(), options)),
      );
    }
  });

  it("reuse the system blocks, tools and plan when only the context changed", async () => {
    const clock = { time: "09:00" };
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: words(300) });
    prompt.context({ name: "clock", order: 0, text: () => clock.time });
    prompt.tools(() => [tool("bash"), tool("read")]);
    const first = await prompt.render({}, { agent: "a" });
    clock.time = "09:01";
    const second = await prompt.render({}, { agent: "a" });
    assert.notEqual(second, first);
    assert.equal(second.blocks, first.blocks);
    const a = toAnthropic(first);
    const b = toAnthropic(second);
    assert.equal(b.system, a.system);
    assert.equal(b.tools, a.tools);
    assert.equal(b.plan, a.plan);
    assert.deepEqual(b.contextMessage, { role: "user", content: "09:01" });
    assert.deepEqual(a.contextMessage, { role: "user", content: "09:00" });
  });

  it("count the tokens of the changed block only", async () => {
    const state = { cwd: "/repo" };
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: words(300) });
    prompt.section({
      name: "workspace",
      order: 1,
      stability: "session",
      text: () => `Work in ${state.cwd}.`,
    });
    prompt.section({ name: "rules", order: 2, text: words(10) });
    prompt.tools(() => [tool("bash"), tool("read")]);
    const countTokens = mock.fn((text: string) => text.length);
    toAnthropic(await prompt.render({}, { agent: "a" }), { countTokens });
    // Three blocks (static, session, static) and two tools.
    assert.equal(countTokens.mock.callCount(), 5);
    state.cwd = "/other";
    const step = await prompt.render({}, { agent: "a" });
    const { plan } = toAnthropic(step, { countTokens });
    assert.equal(countTokens.mock.callCount(), 6);
    assert.equal(
      countTokens.mock.calls[5]!.arguments[0],
      "\n\nWork in /other.",
    );
    assert.deepEqual(
      plan.blocks.map((b) => b.tokens),
      step.blocks.map((b) => b.text.length),
    );
    // A fresh assembly of the same content counts nothing again.
    toAnthropic(await prompt.assemble(), { countTokens });
    assert.equal(countTokens.mock.callCount(), 6);
  });

  it("never answer a step with another's request: other registries, other agents, the agent changed since", async () => {
    const make = (persona: string) => {
      const prompt = new SystemPrompt();
      prompt.section({ name: "persona", order: 0, text: persona });
      prompt.tools(() => [tool("bash")]);
      return prompt;
    };
    const one = make("One.");
    const two = make("Two.");
    const a = await one.render({}, { agent: "x" });
    const b = await two.render({}, { agent: "x" });
    assert.equal(toOpenAIResponses(a).instructions, "One.");
    assert.equal(toOpenAIResponses(b).instructions, "Two.");
    one.section({ name: "extra", order: 1, text: "More." });
    const c = await one.render({}, { agent: "x" });
    assert.equal(toOpenAIResponses(c).instructions, "One.\n\nMore.");
    // The old step still gives its own request.
    assert.equal(toOpenAIResponses(a).instructions, "One.");
  });

  it("read a hand-made step afresh each call, and refuse blocks that do not join to its prompt", () => {
    const step: RenderedStep = {
      prompt: "Hi.",
      tools: [tool("bash")],
      context: "",
      blocks: [{
        text: "Hi.",
        stability: "static",
        parts: ["a"],
        spans: [{ start: 0, end: 3 }],
      }],
    };
    const first = toAnthropic(step);
    (step.tools[0] as { description: string }).description = "Edited.";
    assert.equal(toAnthropic(step).tools[0]!.description, "Edited.");
    assert.notEqual(toAnthropic(step), first);
    const bad = { ...step, prompt: "Bye." };
    assert.throws(() => toAnthropic(bad), (error) => {
      assert.ok(error instanceof PromptError);
      assert.equal(error.code, "invalid-value");
      assert.match(
        error.message,
        /^Cannot build the request: the step's blocks do not join to its prompt/,
      );
      return true;
    });
  });

  it("refuse a rendered step's blocks paired with another prompt", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: "You help." });
    const step = await prompt.render({}, { agent: "a" });
    assert.equal(toAnthropic(step).system[0]!.text, "You help.");
    const { tools, context, blocks } = step;
    const moved: RenderedStep = { prompt: "You harm.", tools, context, blocks };
    assert.throws(() => toAnthropic(moved), {
      name: "PromptError",
      message: /^Cannot build the request: the step's blocks do not join/,
    });
  });

  it("refuse a countTokens that throws or returns a non-count, naming it", async () => {
    const prompt = new SystemPrompt();
    prompt.section({
      name: "persona",
      order: 0,
      text: "A prompt nobody counted yet.",
    });
    const step = await prompt.render();
    const boom = new Error("boom");
    for (const [name, adapt] of ADAPTERS) {
      assert.throws(() =>
        adapt(step, {
          countTokens: () => {
            throw boom;
          },
        }), (error) => {
        assert.ok(error instanceof PromptError, name);
        assert.equal(error.code, "invalid-option");
        assert.equal(error.cause, boom);
        assert.match(error.message, /countTokens threw/);
        return true;
      });
      for (const value of [NaN, -1, Infinity, "3"]) {
        assert.throws(
          () => adapt(step, { countTokens: () => value as number }),
          { code: "invalid-option", message: /countTokens returned/ },
          name,
        );
      }
    }
  });

  it("put every tool name in the AI SDK's tool set, __proto__ too", async () => {
    const names = [
      "__proto__",
      "constructor",
      "toString",
      "hasOwnProperty",
      "bash",
    ];
    const prompt = new SystemPrompt();
    prompt.tools(() => names.map((n) => tool(n)));
    // Deno removes Object.prototype.__proto__; Node, Bun and browsers have
    // it, and an assignment `tools["__proto__"] = …` sets the prototype.
    const native = Object.getOwnPropertyDescriptor(
      Object.prototype,
      "__proto__",
    );
    if (native === undefined) {
      Object.defineProperty(Object.prototype, "__proto__", {
        get(this: object) {
          return Object.getPrototypeOf(this);
        },
        set(this: object, value: unknown) {
          if (typeof value === "object") Object.setPrototypeOf(this, value);
        },
        configurable: true,
      });
    }
    try {
      await everyName(prompt, names);
    } finally {
      if (native === undefined) {
        delete (Object.prototype as { __proto__?: unknown }).__proto__;
      }
    }
  });
});

/** Every tool name is an own key of the tool set, of a spread and of its JSON. */
async function everyName(prompt: SystemPrompt, names: string[]) {
  for (const source of [await prompt.render(), await prompt.assemble()]) {
    const { tools } = toAISDK(source, { jsonSchema });
    assert.deepEqual(Object.keys(tools), source.tools.map((t) => t.name));
    assert.deepEqual(Object.keys(tools).sort(), names.slice().sort());
    assert.ok(Object.hasOwn(tools, "__proto__"));
    assert.equal(Object.getPrototypeOf(tools), Object.prototype);
    assert.deepEqual(Object.keys({ ...tools }), Object.keys(tools));
    const parsed = JSON.parse(JSON.stringify(tools));
    assert.deepEqual(Object.keys(parsed), Object.keys(tools));
  }
}

describe("adapters from a rendered step, at scale", () => {
  it("handle a huge prompt and many tools", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: words(100_000) });
    const tools = Array.from({ length: 500 }, (_, i) => tool(`t${i}`, 20));
    prompt.tools(() => tools);
    const step = await prompt.render();
    const request = toAnthropic(step, { model: "claude-sonnet-4-5" });
    assert.equal(request.system[0]!.text, step.prompt);
    assert.equal(request.tools.length, 500);
    assert.equal(request.plan.blocks[0]!.tokens, estimateTokens(step.prompt));
  });
});

describe("requests the provider accepts", () => {
  it("toOpenAIChat sends no tools field when there are no tools (Chat Completions rejects an empty array)", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: "Be brief." });
    for (const source of [await prompt.render(), await prompt.assemble()]) {
      const request = toOpenAIChat(source);
      assert.equal("tools" in request, false);
      assert.equal(
        JSON.stringify(request),
        '{"messages":[{"role":"system","content":"Be brief."}]}',
      );
    }
  });

  it("every adapter's result holds only request fields: plan and contextMessage are not enumerable", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: words(300) });
    prompt.context({ name: "clock", order: 0, text: "09:00" });
    prompt.tools(() => [tool("bash")]);
    const fields: Record<string, string[]> = {
      toAnthropic: ["system", "tools"],
      toOpenAIResponses: ["instructions", "tools"],
      toOpenAIChat: ["messages", "tools"],
      toBedrock: ["system", "toolConfig"],
      toGemini: ["systemInstruction", "tools"],
      toAISDK: ["system", "tools"],
      "toAISDK (Bedrock)": ["system", "tools"],
    };
    for (const source of [await prompt.render(), await prompt.assemble()]) {
      for (const [name, adapt] of ADAPTERS) {
        const request = adapt(source, { model: "claude-sonnet-4-5" });
        assert.deepEqual(Object.keys(request), fields[name], name);
        assert.deepEqual(
          Object.keys(JSON.parse(JSON.stringify(request))),
          fields[name],
          name,
        );
        assert.deepEqual(Object.keys({ ...request }), fields[name], name);
        assert.ok(request.plan, name);
        assert.ok(request.contextMessage, name);
        assert.ok(Object.isFrozen(request), name);
      }
    }
  });
});

describe("the requests adapters remember", () => {
  it("are frozen at every depth, so no caller can edit what the next one gets", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: "A. ".repeat(2000) });
    prompt.section({
      name: "clock",
      order: 9,
      stability: "session",
      text: "B. ".repeat(2000),
    });
    prompt.tools(() => [
      { name: "bash", description: "Runs. ".repeat(400), parameters: {} },
      {
        name: "find",
        description: "Finds.",
        parameters: { type: "object", properties: { q: { type: "string" } } },
        deferLoading: true,
      },
    ]);
    const step = await prompt.render({}, { agent: "a" });
    const open: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (typeof value !== "object" || value === null) return;
      // The AI SDK's schema is what the host's jsonSchema helper made.
      if (path.endsWith(".inputSchema")) return;
      if (!Object.isFrozen(value)) open.push(path);
      for (const [key, field] of Object.entries(value)) {
        walk(field, `${path}.${key}`);
      }
    };
    for (const [name, adapt] of ADAPTERS) {
      walk(adapt(step, { model: "claude-sonnet-4-5" }), name);
    }
    assert.deepEqual(open, []);
  });
});
