// The check of a handler's result when a read of it changes between two
// reads: a quick walk that throws proves nothing, so the full walk decides.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderPrompt, SystemPrompt } from "../mod.ts";

describe("a handler's result read while it changes", () => {
  it("is accepted when only the quick walk's read of a section threw", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "a", order: 0, text: "A" });
    let reads = 0;
    prompt.on("system-prompt/assemble", (assembly) => {
      assembly.sections[0] = {
        name: "a",
        order: 0,
        get text() {
          if (++reads === 1) throw new Error("flaky");
          return "A2";
        },
      };
    });
    assert.equal(renderPrompt(await prompt.assemble()), "A2");
  });

  it("is accepted when only the quick walk's read of a tool threw", async () => {
    const prompt = new SystemPrompt();
    prompt.tools(() => [{ name: "t", description: "d", parameters: {} }]);
    prompt.on("system-prompt/assemble", (assembly) => {
      const { parameters } = assembly.tools[0]!;
      let reads = 0;
      const tool = {
        get name() {
          if (++reads === 1) throw new Error("once");
          return "t";
        },
        description: "d",
        parameters,
      };
      assembly.tools = [tool];
    });
    const { tools } = await prompt.assemble();
    assert.deepEqual(tools.map((t) => t.name), ["t"]);
  });

  it("is accepted when a tool item changed only between the quick walk's reads", async () => {
    const prompt = new SystemPrompt();
    prompt.tools(() => [{ name: "t", description: "d", parameters: {} }]);
    prompt.on("system-prompt/assemble", (assembly) => {
      const tool = assembly.tools[0]!;
      let reads = 0;
      const tools: typeof assembly.tools = [];
      Object.defineProperty(tools, 0, {
        enumerable: true,
        get: () => ++reads === 1 ? { ...tool } : tool,
      });
      assembly.tools = tools;
    });
    assert.equal((await prompt.assemble()).tools.length, 1);
  });
});
