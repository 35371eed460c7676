// Host fields on tools: a tool's own fields ride along into every assembly
// (the library reads only name, description and parameters), so a host can
// attach `execute` to the tool itself; examples/tool_registry.ts types it
// with `declare module` and runs the tools a step offers.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SystemPrompt } from "@dsh/system-prompt";
import { toolOwner } from "@dsh/system-prompt/inspect";
import type { AgentContext } from "../../examples/agent.ts";
import { executeFrom, ToolRegistry } from "../../examples/tool_registry.ts";

const ADD = {
  name: "add",
  description: "Adds two numbers.",
  parameters: { type: "object" },
  execute: (input: unknown) => {
    const { a, b } = input as { a: number; b: number };
    return a + b;
  },
};

describe("ToolRegistry with attach: true", () => {
  it("offers its tools with execute attached, typed by declare module, owned by its scope", async () => {
    const prompt = new SystemPrompt<AgentContext>();
    const registry = new ToolRegistry(prompt.scope("tool-registry"), {
      attach: true,
    });
    registry.register(ADD);
    const { tools } = await prompt.assemble();
    const [tool] = tools;
    assert.deepEqual(Object.keys(tool!), [
      "name",
      "description",
      "parameters",
      "execute",
    ]);
    assert.equal(tool!.execute, ADD.execute); // typed: no cast needed
    assert.equal(toolOwner(tool!), "tool-registry");
    assert.equal(
      JSON.stringify(tool),
      '{"name":"add","description":"Adds two numbers.","parameters":{"type":"object"}}',
    );
    assert.equal(await executeFrom(tools, "add", { a: 2, b: 3 }), 5);
  });

  it("runs only what the step offers: a handler that hides a tool takes its execute away", async () => {
    const prompt = new SystemPrompt<AgentContext & { readOnly?: boolean }>();
    new ToolRegistry(prompt.scope("tool-registry"), { attach: true })
      .register(ADD);
    prompt.scope("sandbox").on(
      "system-prompt/assemble",
      (assembly, context) => {
        if (context.readOnly) assembly.tools = [];
      },
    );
    const hidden = (await prompt.assemble({ readOnly: true })).tools;
    await assert.rejects(executeFrom(hidden, "add", {}), {
      message:
        'no tool "add" with an execute function is in this step\'s tools',
    });
    const shown = (await prompt.assemble()).tools;
    await assert.rejects(executeFrom(shown, "ad", {}), {
      message:
        'no tool "ad" with an execute function is in this step\'s tools; did you mean "add"?',
    });
  });

  it("keeps own fields only: a method on a class prototype is not copied", async () => {
    class AddTool {
      name = "add";
      description = "Adds.";
      parameters = {};
      execute(): number {
        return 0;
      }
    }
    const prompt = new SystemPrompt();
    prompt.tools(() => [new AddTool()]);
    const [tool] = (await prompt.assemble()).tools;
    assert.equal(tool!.execute, undefined);
  });
});
