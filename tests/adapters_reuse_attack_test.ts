// Attacks on what adapters trust and reuse: blocks the renderer joined are
// trusted only with their own step's prompt, and the plans that share
// frozen system blocks and tool runs between requests say, for every
// adapter, counter and option, what a fresh registry's step says.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  PromptError,
  type RenderedStep,
  type Stability,
  SystemPrompt,
  type ToolSchema,
} from "@dsh/system-prompt";
import type { AdapterOptions } from "@dsh/system-prompt/adapters";
import { EVERY_ADAPTER as ADAPTERS } from "./support/every_adapter.ts";

/** Everything a request says, as JSON: its fields, plan and context message. */
function whole(request: { plan: unknown; contextMessage?: unknown }): string {
  return JSON.stringify({
    ...request,
    plan: request.plan,
    contextMessage: request.contextMessage,
  });
}

/** A request as JSON, or the refusal's message. */
function attempt(run: () => { plan: unknown; contextMessage?: unknown }) {
  try {
    return whole(run());
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

const words = (n: number) => "Read before you edit. ".repeat(n);

interface Shape {
  sections: { size: number; stability: Stability | undefined }[];
  tools: { size: number; deferred: boolean; session: boolean }[];
  context: boolean;
}

/** The state a step reads: each section's version and the clock. */
interface State {
  versions: number[];
  time: string;
}

function build(shape: Shape, state: State): SystemPrompt {
  const prompt = new SystemPrompt();
  shape.sections.forEach((s, i) => {
    prompt.scope(`owner-${i}`).section({
      name: `s${i}`,
      order: i,
      text: () => `${words(s.size)}v${state.versions[i]}`,
      ...(s.stability === undefined ? {} : { stability: s.stability }),
    });
  });
  const made = (session: boolean) =>
    shape.tools.flatMap((t, i): ToolSchema[] =>
      t.session !== session ? [] : [{
        name: `t${i}`,
        description: words(t.size),
        parameters: { type: "object", properties: { x: { type: "string" } } },
        ...(t.deferred ? { deferLoading: true } : {}),
      }]
    );
  const statics = made(false);
  const sessions = made(true);
  prompt.scope("tools").tools(() => statics);
  prompt.scope("mcp").tools(() => sessions, { stability: "session" });
  if (shape.context) {
    prompt.context({ name: "clock", order: 0, text: () => state.time });
  }
  return prompt;
}

const shapes: fc.Arbitrary<Shape> = fc.record({
  sections: fc.array(
    fc.record({
      size: fc.nat({ max: 300 }),
      stability: fc.constantFrom<Stability | undefined>(
        undefined,
        "static",
        "session",
        "step",
      ),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  tools: fc.array(
    fc.record({
      size: fc.nat({ max: 200 }),
      deferred: fc.boolean(),
      session: fc.boolean(),
    }),
    { maxLength: 4 },
  ),
  context: fc.boolean(),
});

// Counters: two that agree with themselves, one that answers more each
// call, one that throws on a marked text.
const third = (t: string) => Math.ceil(t.length / 3);
const fifth = (t: string) => Math.ceil(t.length / 5);
let calls = 0;
const drifting = (t: string) => t.length + calls++;
const throwing = (t: string) => {
  if (t.includes("v3")) throw new Error("counter down");
  return t.length;
};
const COUNTERS = [undefined, third, fifth, drifting, throwing];

const options: fc.Arbitrary<AdapterOptions> = fc.record({
  model: fc.constantFrom(undefined, "claude-sonnet-4-5", "gpt-4o", "unknown"),
  countTokens: fc.constantFrom(...COUNTERS),
  cache: fc.constantFrom<AdapterOptions["cache"]>(
    undefined,
    false,
    { reserve: 0 },
    { reserve: 3 },
    { ttl: "1h" },
    { reserve: 2, ttl: "1h" },
  ),
}).map((o) => {
  const out: AdapterOptions = {};
  if (o.model !== undefined) out.model = o.model;
  if (o.countTokens !== undefined) out.countTokens = o.countTokens;
  if (o.cache !== undefined) out.cache = o.cache;
  return out;
});

describe("plans reused between requests", () => {
  it("say for every step, adapter, counter and option what a fresh registry's step says (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        shapes,
        fc.array(
          fc.record({
            change: fc.option(fc.nat(), { nil: undefined }),
            time: fc.constantFrom("09:00", "09:01"),
            requests: fc.array(
              fc.tuple(fc.nat({ max: ADAPTERS.length - 1 }), options),
              { minLength: 1, maxLength: 6 },
            ),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        async (shape, steps) => {
          const state: State = {
            versions: shape.sections.map(() => 0),
            time: "09:00",
          };
          const prompt = build(shape, state);
          const seen: RenderedStep[] = [];
          for (const { change, time, requests } of steps) {
            if (change !== undefined) {
              state.versions[change % state.versions.length]! += 1;
            }
            state.time = time;
            const step = await prompt.render({}, { agent: "a" });
            const fresh = await build(shape, state).render({}, { agent: "a" });
            seen.push(step);
            for (const [a, opts] of requests) {
              const [name, adapt] = ADAPTERS[a]!;
              const ours = attempt(() => adapt(step, opts));
              assert.equal(ours, attempt(() => adapt(fresh, opts)), name);
              // The same step again: the same answer.
              assert.equal(attempt(() => adapt(step, opts)), ours, name);
            }
            // An earlier step still answers what it answered.
            const old = seen[0]!;
            const [, first] = ADAPTERS[0]!;
            const fromOld = attempt(() => first(old, { countTokens: third }));
            // A JSON round trip keeps the blocks' content; the tools are
            // kept as they were (JSON drops who provided them).
            const copy = {
              ...JSON.parse(JSON.stringify(old)),
              tools: old.tools,
            } as RenderedStep;
            assert.equal(
              fromOld,
              attempt(() => first(copy, { countTokens: third })),
            );
          }
        },
      ),
      { numRuns: 120, seed: 20261202 },
    );
  });

  it("cannot be edited through one request, so the next is as a fresh one", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: words(400) });
    prompt.section({
      name: "rules",
      order: 1,
      text: words(300),
      stability: "session",
    });
    prompt.tools(() => [{
      name: "bash",
      description: words(100),
      parameters: { type: "object" },
    }]);
    const step = await prompt.render({}, { agent: "a" });
    for (const [name, adapt] of ADAPTERS) {
      const request = adapt(step, { model: "claude-sonnet-4-5" }) as {
        plan: {
          blocks: { sections: string[]; tokens: number }[];
          choices: { chosen: boolean }[];
          toolTokens: number[];
          notes: string[];
        };
      };
      const before = JSON.stringify(request.plan);
      const plan = request.plan;
      assert.throws(() => plan.blocks[0]!.sections.push("x"), TypeError, name);
      assert.throws(() => (plan.blocks[0]!.tokens = 0), TypeError, name);
      assert.throws(() => (plan.choices[0]!.chosen = true), TypeError, name);
      assert.throws(() => plan.toolTokens.push(1), TypeError, name);
      assert.throws(() => plan.notes.push("x"), TypeError, name);
      const again = adapt(step, { model: "claude-sonnet-4-5", cache: {} });
      assert.equal(JSON.stringify(again.plan), before, name);
    }
  });

  it("recover from a counter that threw, with no count of it kept", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: words(400) });
    prompt.tools(() => [{
      name: "bash",
      description: words(100),
      parameters: { type: "object" },
    }]);
    const step = await prompt.render({}, { agent: "a" });
    let down = true;
    for (const [name, adapt] of ADAPTERS) {
      // A counter of its own: counts are remembered per counter.
      const flaky = (t: string) => {
        if (down) throw new Error("down");
        return t.length;
      };
      down = true;
      assert.throws(() => adapt(step, { countTokens: flaky }), PromptError);
      down = false;
      const fresh = await (async () => {
        const p = new SystemPrompt();
        p.section({ name: "persona", order: 0, text: words(400) });
        p.tools(() => [{
          name: "bash",
          description: words(100),
          parameters: { type: "object" },
        }]);
        return await p.render({}, { agent: "a" });
      })();
      assert.equal(
        whole(adapt(step, { countTokens: flaky })),
        whole(adapt(fresh, { countTokens: flaky })),
        name,
      );
    }
  });
});

describe("blocks trusted only with their own step's prompt", () => {
  it("join to their own step's prompt when read late, in any order (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        shapes,
        fc.array(fc.option(fc.nat(), { nil: undefined }), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.func(fc.boolean()),
        async (shape, changes, readNow) => {
          const state: State = {
            versions: shape.sections.map(() => 0),
            time: "09:00",
          };
          const prompt = build(shape, state);
          const steps: { step: RenderedStep; fresh: RenderedStep }[] = [];
          for (const [i, change] of changes.entries()) {
            if (change !== undefined) {
              state.versions[change % state.versions.length]! += 1;
            }
            const step = await prompt.render({}, { agent: "a" });
            const fresh = await build(shape, state).render({}, { agent: "a" });
            if (readNow(i)) void step.blocks;
            steps.push({ step, fresh });
          }
          for (const { step, fresh } of steps.reverse()) {
            assert.deepEqual(step.blocks, fresh.blocks);
            assert.equal(step.blocks.map((b) => b.text).join(""), step.prompt);
            for (const [name, adapt] of ADAPTERS) {
              assert.equal(whole(adapt(step)), whole(adapt(fresh)), name);
            }
          }
        },
      ),
      { numRuns: 100, seed: 20261203 },
    );
  });

  async function twoSteps() {
    const state = { time: "09:00", rules: "Be brief." };
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: words(300) });
    prompt.section({
      name: "rules",
      order: 1,
      text: () => state.rules,
      stability: "session",
    });
    prompt.section({
      name: "clock",
      order: 2,
      text: () => state.time,
      stability: "step",
    });
    prompt.tools(() => [{
      name: "bash",
      description: "Runs.",
      parameters: { type: "object" },
    }]);
    const first = await prompt.render({}, { agent: "a" });
    void first.blocks;
    state.time = "09:01";
    const second = await prompt.render({}, { agent: "a" });
    void second.blocks;
    return { prompt, first, second, state };
  }

  it("refuse a real step's blocks with another step's prompt, for every adapter", async () => {
    const { first, second } = await twoSteps();
    assert.notEqual(first.prompt, second.prompt);
    const mixed = [
      { ...second, prompt: first.prompt, blocks: second.blocks },
      {
        prompt: second.prompt,
        tools: first.tools,
        context: "",
        blocks: first.blocks,
      },
      {
        prompt: first.prompt + " ",
        tools: first.tools,
        context: "",
        blocks: first.blocks,
      },
      {
        prompt: first.prompt.slice(1),
        tools: first.tools,
        context: "",
        blocks: first.blocks,
      },
    ];
    for (const [name, adapt] of ADAPTERS) {
      for (const step of mixed) {
        assert.throws(
          () => adapt(step as RenderedStep),
          (error: unknown) =>
            error instanceof PromptError && error.code === "invalid-value" &&
            /do not join to its prompt/.test(error.message),
          name,
        );
      }
      // And the real steps still answer as before.
      assert.equal(
        whole(adapt(first)),
        whole(adapt({ ...first, blocks: first.blocks } as RenderedStep)),
      );
    }
  });

  it("trust a real step's blocks with the same prompt in another string", async () => {
    const { first } = await twoSteps();
    const same = [...first.prompt].join("");
    const hand = {
      prompt: same,
      tools: first.tools,
      context: first.context,
      blocks: first.blocks,
    };
    const round = JSON.parse(JSON.stringify(first)) as RenderedStep;
    for (const [name, adapt] of ADAPTERS) {
      const real = whole(adapt(first));
      assert.equal(whole(adapt(hand)), real, name);
      assert.equal(whole(adapt(round)), real, name);
      assert.equal(
        whole(adapt({ ...first, blocks: first.blocks } as RenderedStep)),
        real,
        name,
      );
    }
  });

  it("check one registry's blocks with another registry's prompt", async () => {
    const a = await twoSteps();
    const b = await twoSteps();
    b.state.rules = "Be thorough.";
    const other = await b.prompt.render({}, { agent: "a" });
    for (const [name, adapt] of ADAPTERS) {
      // The same content: what the other registry's own step gives.
      const swapped = { ...b.second, blocks: a.second.blocks } as RenderedStep;
      assert.equal(whole(adapt(swapped)), whole(adapt(b.second)), name);
      // Other content: refused.
      const wrong = { ...other, blocks: a.second.blocks } as RenderedStep;
      assert.throws(() => adapt(wrong), PromptError, name);
      const wrong2 = { ...a.second, blocks: other.blocks } as RenderedStep;
      assert.throws(() => adapt(wrong2), PromptError, name);
    }
  });

  it("check a vouched blocks array's slices, copies and hand-made blocks", async () => {
    const { first } = await twoSteps();
    const blocks = first.blocks;
    const cases: { blocks: unknown; prompt: string; ok: boolean }[] = [
      {
        blocks: blocks.slice(1),
        prompt: blocks.slice(1).map((b) => b.text).join(""),
        ok: true,
      },
      { blocks: blocks.slice(1), prompt: first.prompt, ok: false },
      { blocks: [...blocks], prompt: first.prompt, ok: true },
      { blocks: blocks.map((b) => ({ ...b })), prompt: first.prompt, ok: true },
      { blocks: [...blocks].reverse(), prompt: first.prompt, ok: false },
      {
        blocks: [{ ...blocks[0]!, text: first.prompt }],
        prompt: first.prompt,
        ok: true,
      },
      {
        blocks: [{ ...blocks[0]!, stability: "forever" }],
        prompt: blocks[0]!.text,
        ok: false,
      },
      { blocks: [null], prompt: "", ok: false },
    ];
    for (const [name, adapt] of ADAPTERS) {
      for (const { blocks, prompt, ok } of cases) {
        const step = {
          prompt,
          tools: first.tools,
          context: "",
          blocks,
        } as RenderedStep;
        if (ok) {
          const got = adapt(step) as { plan: { blocks: { text: string }[] } };
          assert.equal(
            got.plan.blocks.map((b) => b.text).join(""),
            prompt,
            name,
          );
        } else {
          assert.throws(() => adapt(step), PromptError, name);
        }
      }
    }
  });
});
