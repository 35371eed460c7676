// render() remembers each agent's last step and, on a changed step, builds
// and renders again only the top-level parts whose own calls or referenced
// variables changed. This model test drives random registries (lists with
// registered and provided items, footers, literal parts, separators, a
// complete section, context entries) through random steps of two agents,
// with variables that come and go (an absent value referenced fails the
// step), texts that switch and stabilities that differ; every step's
// result — text, tools, context, blocks and its Anthropic request, or the
// error — must equal assemble() + renderPrompt() + renderContext() and the
// request of the assembly on a twin registry.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import {
  PromptError,
  renderContext,
  renderPrompt,
  type StepBlock,
  SystemPrompt,
  type ToolSchema,
} from "../../mod.ts";
import { toAnthropic } from "../../adapters.ts";
import { stepBlocks } from "../../src/adapters/_blocks.ts";

const RUNS = { numRuns: 2_000, seed: 20261201 };
const VARIABLES = ["v0", "v1", "v2", "v3"];

interface World {
  /** Each variable's value this step (`undefined`: none). */
  values: (string | undefined)[];
  /** Which of two texts each function part returns this step. */
  flip: boolean;
  /** How many items each provider returns this step. */
  provided: number;
}

const ref = fc.constantFrom(...VARIABLES).map((name) => `{{${name}}}`);
const text = fc.array(fc.oneof(ref, fc.constantFrom("a", " b ", "\n", "")), {
  minLength: 1,
  maxLength: 3,
}).map((pieces) => pieces.join(""));

const stability = fc.constantFrom(undefined, "static", "session", "step");

const partShape = fc.record({
  text,
  other: text,
  stability,
  dynamic: fc.boolean(),
  literal: fc.boolean(),
  separator: fc.option(fc.constantFrom(" | ", "\n---\n"), { nil: undefined }),
  list: fc.option(
    fc.record({
      items: fc.array(fc.record({ text, literal: fc.boolean(), stability }), {
        maxLength: 3,
      }),
      provider: fc.boolean(),
      footer: fc.option(text, { nil: undefined }),
    }),
    { nil: undefined },
  ),
});

const registryShape = fc.record({
  sections: fc.array(partShape, { minLength: 1, maxLength: 5 }),
  contexts: fc.array(partShape, { maxLength: 2 }),
  complete: fc.option(fc.nat({ max: 4 }), { nil: undefined }),
});

type Shape = typeof registryShape extends fc.Arbitrary<infer T> ? T : never;

function build(shape: Shape, world: World): SystemPrompt {
  const prompt = new SystemPrompt();
  VARIABLES.forEach((name, i) =>
    prompt.scope(`var-${i}`).variable(name, () => world.values[i])
  );
  const add = (
    kind: "section" | "context",
    p: Shape["sections"][0],
    i: number,
  ) => {
    const name = `${kind[0]}${i}`;
    const scope = prompt.scope(`owner-${name}`);
    const entry = {
      name,
      order: i,
      text: p.dynamic ? () => (world.flip ? p.other : p.text) : p.text,
      ...(p.literal ? { literal: true } : {}),
      ...(p.stability !== undefined ? { stability: p.stability } : {}),
      ...(p.separator !== undefined ? { separator: p.separator } : {}),
      ...(p.list !== undefined
        ? {
          list: p.list.footer !== undefined ? { footer: p.list.footer } : {},
        }
        : {}),
      ...(kind === "section" && shape.complete === i ? { complete: true } : {}),
    };
    if (kind === "section") scope.section(entry);
    else scope.context(entry);
    p.list?.items.forEach((item, k) =>
      scope.item(name, {
        name: `i${k}`,
        order: k,
        text: item.text,
        ...(item.literal ? { literal: true } : {}),
        ...(item.stability !== undefined ? { stability: item.stability } : {}),
      })
    );
    if (p.list?.provider) {
      scope.items(
        name,
        () =>
          Array.from({ length: world.provided }, (_, k) => ({
            name: `p${k}`,
            order: 10 + k,
            text: k % 2 === 0 ? p.text : p.other,
            ...(k === 1 ? { stability: "step" as const } : {}),
          })),
      );
    }
  };
  shape.sections.forEach((p, i) => add("section", p, i));
  shape.contexts.forEach((p, i) => add("context", p, i));
  prompt.tools(() => world.flip ? [tool("b"), tool("a")] : [tool("a")]);
  return prompt;
}

const TOOLS = new Map<string, ToolSchema>();
function tool(name: string): ToolSchema {
  let found = TOOLS.get(name);
  if (found === undefined) {
    found = { name, description: `tool ${name}`, parameters: {} };
    TOOLS.set(name, found);
  }
  return found;
}

const worldStep = fc.record({
  agent: fc.constantFrom("a", "b"),
  values: fc.array(
    fc.option(fc.constantFrom("x", "y", "{{v0}}", " z "), { nil: undefined }),
    { minLength: VARIABLES.length, maxLength: VARIABLES.length },
  ),
  flip: fc.boolean(),
  provided: fc.nat({ max: 2 }),
});

async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    return `ok ${JSON.stringify(await run())}`;
  } catch (error) {
    assert.ok(error instanceof PromptError, String(error));
    return `${error.code}: ${error.message}`;
  }
}

describe("render() with per-agent memory (property)", () => {
  it("equals assemble() + renderPrompt() + renderContext() step after step", async () => {
    await fc.assert(
      fc.asyncProperty(
        registryShape,
        fc.array(worldStep, { minLength: 1, maxLength: 12 }),
        async (shape, steps) => {
          const world: World = { values: [], flip: false, provided: 0 };
          const lastBlocks = new Map<
            string,
            { blocks: readonly StepBlock[] }
          >();
          const rendered = build(shape, world);
          const assembled = build(shape, world);
          for (const step of steps) {
            Object.assign(world, step);
            const actual = await outcome(async () => {
              // A failed step forgets: the agent's next step starts afresh.
              const last = lastBlocks.get(step.agent);
              lastBlocks.delete(step.agent);
              const { prompt, tools, context, blocks } = await rendered.render(
                {},
                { agent: step.agent },
              );
              // Unchanged, the blocks are the agent's last ones.
              if (last && isDeepStrictEqual(blocks, last.blocks)) {
                assert.equal(blocks, last.blocks);
              }
              lastBlocks.set(step.agent, { blocks });
              assert.equal(blocks.map((b) => b.text).join(""), prompt);
              const tokens = toAnthropic({ prompt, tools, context, blocks }, {
                countTokens: (t) => t.length,
              });
              const request = { ...tokens, plan: tokens.plan };
              const names = tools.map((t) => t.name);
              return { prompt, tools: names, context, blocks, request };
            });
            const expected = await outcome(async () => {
              const assembly = await assembled.assemble();
              const tokens = toAnthropic(assembly, {
                countTokens: (t) => t.length,
              });
              return {
                prompt: renderPrompt(assembly),
                tools: assembly.tools.map((t) => t.name),
                context: renderContext(assembly),
                blocks: stepBlocks(assembly),
                request: { ...tokens, plan: tokens.plan },
              };
            });
            assert.equal(actual, expected);
          }
        },
      ),
      RUNS,
    );
  });
});
