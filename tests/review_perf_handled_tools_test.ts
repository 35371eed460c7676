// The duplicate check after the handlers reads the final tools array; an
// array whose items answer differently on a second read (a proxy, an
// index getter) must give a clear error, never a search past the resolved
// copies that reads the item again and again.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { PromptAssembly, ToolSchema } from "../mod.ts";
import { checkHandledTools } from "../src/core/_resolve_assembly.ts";
import { PromptError } from "../src/core/errors.ts";

const tool = (name: string): ToolSchema => ({
  name,
  description: name,
  parameters: {},
});

describe("checkHandledTools() on tools that change while read", () => {
  it("reads each item a bounded number of times and fails loudly", () => {
    const a = tool("a");
    const b = tool("b");
    const resolved = [a, b];
    let reads = 0;
    const tools = new Proxy([a, tool("c")], {
      get(target, key, receiver) {
        if (key !== "0") return Reflect.get(target, key, receiver);
        reads++;
        // A bound only so that the unfixed check ends: it read forever.
        if (reads > 10_000) return undefined;
        return reads === 1 ? a : tool("z");
      },
    });
    const assembly: PromptAssembly = { sections: [], tools, variables: {} };
    assert.throws(
      () => checkHandledTools(assembly, resolved, ["a", "b"]),
      (error) =>
        error instanceof PromptError && error.code === "invalid-value" &&
        /item 0 of tools changed/.test(error.message),
    );
    assert.ok(reads <= 2, `item 0 read ${reads} times`);
  });
});
