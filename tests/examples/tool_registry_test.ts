// examples/tool_registry.ts: a tool registry that is a tool provider, and
// executes a tool by name (a missing one named, with a suggestion).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SystemPrompt } from "@dsh/system-prompt";
import { toolOwner } from "@dsh/system-prompt/inspect";
import type { AgentContext } from "../../examples/agent.ts";
import { ToolRegistry } from "../../examples/tool_registry.ts";

const ADD = {
  name: "add",
  description: "Adds two numbers.",
  parameters: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  },
  execute: (input: unknown) => {
    const { a, b } = input as { a: number; b: number };
    return a + b;
  },
};

describe("ToolRegistry", () => {
  it("registers itself as a tool provider: a registered tool is in the next assembly, owned by the registry's scope", async () => {
    const prompt = new SystemPrompt<AgentContext>();
    const registry = new ToolRegistry(prompt.scope("tool-registry"));
    assert.deepEqual((await prompt.assemble()).tools, []);

    const unregister = registry.register(ADD);
    const [tool, ...rest] = (await prompt.assemble()).tools;
    assert.deepEqual(rest, []);
    // The schema only: execute stays with the registry, out of the prompt.
    assert.deepEqual(Object.keys(tool!), ["name", "description", "parameters"]);
    assert.equal(tool!.description, ADD.description);
    // The registry keeps its own frozen copy: equal, never the caller's object.
    assert.deepEqual(tool!.parameters, ADD.parameters);
    assert.notEqual(tool!.parameters, ADD.parameters);
    assert.equal(toolOwner(tool!), "tool-registry");

    unregister();
    assert.deepEqual((await prompt.assemble()).tools, []);
  });

  it("executes a tool by name and names a missing one with a suggestion", async () => {
    const registry = new ToolRegistry(new SystemPrompt<AgentContext>());
    registry.register(ADD);
    assert.equal(await registry.execute("add", { a: 2, b: 3 }), 5);
    await assert.rejects(registry.execute("ad", {}), {
      message: 'no tool "ad" is registered; did you mean "add"?',
    });
    assert.throws(() => registry.register(ADD), {
      message: 'tool "add" is already registered',
    });
  });
});
