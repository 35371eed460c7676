// SystemPrompt.render(), one call per step: byte for byte what assemble()
// and the renderers give, one memory per agent (bounded, least recently used
// string keys forgotten first), the same step back when nothing changed, and
// the same errors as assemble().
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  renderContext,
  renderPrompt,
  SystemPrompt,
  type ToolSchema,
} from "../mod.ts";
import { toolOwner } from "../inspect.ts";
import { stepBlocks } from "../src/adapters/_blocks.ts";

const tool = (name: string): ToolSchema => ({
  name,
  description: `${name} tool`,
  parameters: { type: "object" },
});

function host(state: { branch: string; clock: string; tools: ToolSchema[] }) {
  const prompt = new SystemPrompt();
  prompt.scope("loop").section({
    name: "persona",
    order: 0,
    text: "You are on {{branch}}.",
  });
  prompt.scope("git").variable("branch", () => state.branch);
  prompt.scope("clock").context({
    name: "now",
    order: 0,
    text: () => `Now: ${state.clock}`,
  });
  prompt.scope("tools").tools(() => state.tools);
  return prompt;
}

describe("SystemPrompt.render()", () => {
  it("gives byte for byte what assemble() and the renderers give", async () => {
    const state = { branch: "main", clock: "9:00", tools: [tool("bash")] };
    const prompt = host(state);
    const assembly = await prompt.assemble();
    const step = await prompt.render();
    assert.deepEqual({ ...step, blocks: step.blocks }, {
      prompt: renderPrompt(assembly),
      tools: assembly.tools,
      context: renderContext(assembly),
      blocks: stepBlocks(assembly),
    });
  });

  it("returns an agent's unchanged step as the same object, and a changed one afresh", async () => {
    const state = { branch: "main", clock: "9:00", tools: [tool("bash")] };
    const prompt = host(state);
    const first = await prompt.render({}, { agent: "main" });
    assert.equal(await prompt.render({}, { agent: "main" }), first);
    state.clock = "9:01";
    const second = await prompt.render({}, { agent: "main" });
    assert.notEqual(second, first);
    assert.equal(second.prompt, first.prompt);
    assert.equal(second.context, "Now: 9:01");
    // Unchanged tools: the same frozen array.
    assert.equal(second.tools, first.tools);
    assert.ok(
      Object.isFrozen(second.tools) && Object.isFrozen(second.tools[0]),
    );
  });

  it("keeps each agent's memory apart, for string and object keys", async () => {
    const state = { branch: "main", clock: "9:00", tools: [] };
    const prompt = host(state);
    const agent = {};
    const a = await prompt.render({}, { agent: "a" });
    const b = await prompt.render({}, { agent });
    state.branch = "dev";
    const b2 = await prompt.render({}, { agent });
    assert.equal(b2.prompt, "You are on dev.");
    state.branch = "main";
    assert.equal(await prompt.render({}, { agent: "a" }), a);
    assert.notEqual(await prompt.render({}, { agent }), b);
  });

  it("forgets the least recently used string keys past its bound (1,024 agents)", async () => {
    const prompt = host({ branch: "main", clock: "9:00", tools: [] });
    const first = await prompt.render({}, { agent: "agent-0" });
    for (let i = 1; i <= 1024; i++) {
      await prompt.render({}, { agent: `agent-${i}` });
    }
    const again = await prompt.render({}, { agent: "agent-0" });
    assert.notEqual(again, first);
    assert.deepEqual(again, first);
  });

  it("returns the same step when a tool moves from one provider to another of the same owner", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "a", order: 0, text: "A" });
    const [one, two] = [tool("one"), tool("two")];
    let moved = false;
    prompt.tools(() => moved ? [one, two] : [one]);
    prompt.tools(() => moved ? [] : [two]);
    const first = await prompt.render({}, { agent: "x" });
    moved = true;
    const second = await prompt.render({}, { agent: "x" });
    assert.equal(second, first);
  });

  it("notices a change inside a reused array", async () => {
    const tools = [tool("bash")];
    const prompt = host({ branch: "main", clock: "9:00", tools });
    const first = await prompt.render({}, { agent: "x" });
    tools.push(tool("read"));
    const second = await prompt.render({}, { agent: "x" });
    assert.deepEqual(second.tools.map((t) => t.name), ["bash", "read"]);
    assert.notEqual(second.tools, first.tools);
  });

  it("with a handler, assembles and renders; tools are frozen copies", async () => {
    const prompt = host({
      branch: "main",
      clock: "9:00",
      tools: [tool("bash")],
    });
    prompt.on("system-prompt/assemble", (assembly) => {
      assembly.tools = [...assembly.tools, tool("extra")];
    });
    const step = await prompt.render();
    assert.deepEqual(step.tools.map((t) => t.name), ["bash", "extra"]);
    assert.ok(Object.isFrozen(step.tools) && Object.isFrozen(step.tools[1]));
  });

  it("with a handler, gives each tool as the handler left it, with its owner", async () => {
    const prompt = host({
      branch: "main",
      clock: "9:00",
      tools: [tool("a"), tool("b"), tool("c"), tool("d")],
    });
    prompt.scope("edit").on("system-prompt/assemble", (assembly) => {
      assembly.tools = assembly.tools
        .filter((t) => t.name !== "b")
        .map((t) =>
          t.name === "c"
            ? { ...t, description: "edited" }
            : t.name === "d"
            ? { ...t, hint: "added" }
            : t
        );
    });
    for (let step = 0; step < 2; step++) {
      const { tools } = await prompt.render({}, { agent: "main" });
      const assembled = (await prompt.assemble()).tools;
      assert.deepEqual(tools, assembled);
      assert.deepEqual(tools.map((t) => t.name), ["a", "c", "d"]);
      assert.equal(tools[1]!.description, "edited");
      assert.equal(
        (tools[2] as ToolSchema & { hint?: string }).hint,
        "added",
      );
      assert.deepEqual(tools.map(toolOwner), ["tools", "tools", "tools"]);
      assert.ok(tools.every((t) => Object.isFrozen(t)));
    }
  });
  it("fails with the errors assemble() and renderPrompt() give", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("p").section({ name: "s", order: 0, text: "{{nope}}" });
    await assert.rejects(prompt.render(), {
      code: "unknown-variable",
      section: "s",
    });
    const aborted = new AbortController();
    aborted.abort(new Error("stop"));
    await assert.rejects(prompt.render({}, { signal: aborted.signal }), {
      code: "aborted",
    });
  });

  it("equals assemble() + renderPrompt() + renderContext() over random steps and agents (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            agent: fc.constantFrom("a", "b", undefined),
            branch: fc.constantFrom("main", "dev"),
            clock: fc.constantFrom("1", "2"),
            tools: fc.subarray(["bash", "read", "grep"]),
            handler: fc.boolean(),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        async (steps) => {
          const state = {
            branch: "main",
            clock: "1",
            tools: [] as ToolSchema[],
          };
          const prompt = host(state);
          const shared = new Map<string, ToolSchema>();
          let off: (() => void) | undefined;
          for (const step of steps) {
            state.branch = step.branch;
            state.clock = step.clock;
            state.tools = step.tools.map((n) =>
              shared.get(n) ?? shared.set(n, tool(n)).get(n)!
            );
            if (step.handler && off === undefined) {
              off = prompt.on(
                "system-prompt/assemble",
                (a) => void (a.variables.branch += "!"),
              );
            } else if (!step.handler && off !== undefined) {
              off();
              off = undefined;
            }
            const step_ = await prompt.render({}, { agent: step.agent });
            const rendered = { ...step_, blocks: step_.blocks };
            const assembly = await prompt.assemble();
            assert.deepEqual(rendered, {
              prompt: renderPrompt(assembly),
              tools: assembly.tools,
              context: renderContext(assembly),
              blocks: stepBlocks(assembly),
            });
          }
        },
      ),
      { numRuns: 300, seed: 20261201 },
    );
  });
});
