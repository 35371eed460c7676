// Tool stability and deferred tools, registry side: tools(provider,
// { stability }) travels with the registry's copy (toolStability), and
// deferLoading is carried on it.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PromptError, SystemPrompt, type ToolSchema } from "../mod.ts";
import { toolOwner, toolStability } from "../inspect.ts";

const tool = (name: string): ToolSchema => ({
  name,
  description: name,
  parameters: {},
});

describe("tools(provider, { stability })", () => {
  it("is static by default, session when asked, on the registry, scopes and layers", async () => {
    const prompt = new SystemPrompt();
    prompt.tools(() => [tool("a")]);
    prompt.scope("mcp").tools(() => [tool("b")], { stability: "session" });
    prompt.layer("sub").tools(() => [tool("c")], { stability: "session" });
    prompt.layer("sub").scope("x").tools(() => [tool("d")], {
      stability: "static",
    });
    prompt.tools(() => [tool("e")], {});
    const { tools } = await prompt.assemble({}, { layer: "sub" });
    assert.deepEqual(tools.map((t) => [t.name, toolStability(t)]), [
      ["a", "static"],
      ["b", "session"],
      ["c", "session"],
      ["d", "static"],
      ["e", "static"],
    ]);
    const step = await prompt.render({}, { layer: "sub" });
    assert.deepEqual(step.tools.map(toolStability), tools.map(toolStability));
    assert.equal(toolOwner(step.tools[1]!), "mcp");
    // A handler's spread keeps it (through parameters); its own tool has none.
    assert.equal(toolStability({ ...tools[1]! }), "session");
    assert.equal(toolStability(tool("z")), undefined);
  });

  it("follows a tool that moves to a provider of another stability", async () => {
    let moved = false;
    const prompt = new SystemPrompt();
    const mcp = prompt.scope("mcp");
    mcp.tools(() => moved ? [] : [tool("x")]);
    mcp.tools(() => moved ? [tool("x")] : [], { stability: "session" });
    assert.equal(toolStability((await prompt.render()).tools[0]!), "static");
    moved = true;
    assert.equal(toolStability((await prompt.render()).tools[0]!), "session");
    assert.equal(toolStability((await prompt.assemble()).tools[0]!), "session");
  });

  it("refuses another stability (invalid-option) and non-string or non-object options (TypeError)", () => {
    const prompt = new SystemPrompt();
    assert.throws(
      () => prompt.scope("s").tools(() => [], { stability: "step" as never }),
      (e) =>
        e instanceof PromptError && e.code === "invalid-option" &&
        e.owner === "s" &&
        e.message ===
          'Cannot add tool provider of "s": stability is "step", not "static" or "session"',
    );
    assert.throws(
      () => prompt.tools(() => [], { stability: 1 as never }),
      TypeError,
    );
    assert.throws(() => prompt.tools(() => [], 5 as never), TypeError);
    assert.throws(() => prompt.tools(() => [], null as never), TypeError);
    assert.deepEqual(prompt.registrations().toolProviders, []);
  });

  it("keeps registrations() and change events as they were", () => {
    const prompt = new SystemPrompt();
    const events: unknown[] = [];
    prompt.on("system-prompt/change", (change) => void events.push(change));
    prompt.scope("mcp").tools(() => [], { stability: "session" });
    assert.deepEqual(prompt.registrations().toolProviders, [{ owner: "mcp" }]);
    assert.deepEqual(events, [{
      kind: "tools",
      action: "register",
      owner: "mcp",
    }]);
  });
});

describe("deferLoading", () => {
  it("is carried on the copy, and a non-boolean is invalid-value naming the tool", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("mcp").tools(
      () => [{ ...tool("a"), deferLoading: true }, tool("b")],
    );
    const [a, b] = (await prompt.render()).tools;
    assert.equal(a!.deferLoading, true);
    assert.equal(b!.deferLoading, undefined);
    assert.equal(
      JSON.stringify(a),
      '{"name":"a","description":"a","parameters":{},"deferLoading":true}',
    );
    const bad = new SystemPrompt();
    bad.scope("mcp").tools(
      () => [{ ...tool("a"), deferLoading: "yes" as never }],
    );
    await assert.rejects(bad.assemble(), {
      code: "invalid-value",
      tool: "a",
      owner: "mcp",
      message:
        'Cannot list tool "a" of "mcp": its deferLoading is a string, not a boolean',
    });
  });
});
