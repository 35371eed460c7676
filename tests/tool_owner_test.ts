// toolOwner(): the scope whose provider supplied a tool, kept beside the
// tool (not in it, not in its JSON) through a handler's filter.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SystemPrompt } from "../mod.ts";
import { toolOwner } from "../inspect.ts";
import { owned } from "../src/core/_provenance.ts";

describe("toolOwner()", () => {
  it("names the scope whose provider supplied the tool", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("bash").tools(
      () => [{ name: "bash", description: "", parameters: {} }],
    );
    prompt.tools(() => [{ name: "root", description: "", parameters: {} }]);
    const { tools } = await prompt.assemble();
    assert.deepEqual(tools.map(toolOwner), ["bash", undefined]);
  });

  it("survives filtering, stays out of the object (a copy equals its tool) and out of JSON", () => {
    const original = { name: "t", description: "d", parameters: {} };
    const tool = owned({ ...original }, { owner: "p", layer: undefined });
    assert.equal(toolOwner([tool].filter(() => true)[0]!), "p");
    assert.deepStrictEqual(tool, original);
    assert.equal(toolOwner({ ...tool }), undefined);
    assert.equal(
      JSON.stringify(tool),
      '{"name":"t","description":"d","parameters":{}}',
    );
  });

  it("is undefined for a tool a handler made", () => {
    assert.equal(
      toolOwner({ name: "t", description: "", parameters: {} }),
      undefined,
    );
  });
});
