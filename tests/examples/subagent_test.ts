// examples/plugins/subagent.ts: what the subagent tool tells its caller for
// each backend (spawn, acp, fork), and a clear error when no backend is
// loaded before it.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SystemPrompt } from "../../mod.ts";
import type { AgentContext } from "../../examples/agent.ts";
import type { AgentConfig } from "../../examples/config.ts";
import { HostError } from "../../examples/host_error.ts";
import { PluginHost } from "../../examples/host.ts";
import { subagentPlugin } from "../../examples/plugins/subagent.ts";
import {
  acpPlugin,
  forkPlugin,
  spawnPlugin,
} from "../../examples/plugins/subagent_backends.ts";

const CONFIG: AgentConfig = {
  agent: { model: "m", cwd: "/" },
  persona: { identity: "", behaviour: "" },
  plugins: [],
};

function host(): PluginHost {
  return new PluginHost(new SystemPrompt<AgentContext>(), CONFIG);
}

async function description(backend: typeof spawnPlugin): Promise<string> {
  const h = host();
  h.load(backend);
  h.load(subagentPlugin);
  const { tools, sections } = await h.prompt.assemble();
  assert.deepEqual(sections, [], "the subagent tool needs no section");
  assert.deepEqual(tools.map((t) => t.name), ["subagent"]);
  return tools[0]!.description;
}

describe("subagent tool", () => {
  it("tells a spawn subagent's caller to brief it fully", async () => {
    const text = await description(spawnPlugin);
    assert.match(text, /\(a new local agent process\)/);
    assert.match(
      text,
      /starts with an empty context: it cannot see this conversation/,
    );
    assert.match(text, /complete brief/);
    assert.doesNotMatch(text, /copy of this conversation/);
  });

  it("tells an acp subagent's caller to brief it fully", async () => {
    const text = await description(acpPlugin);
    assert.match(text, /Agent Client Protocol/);
    assert.match(text, /starts with an empty context/);
  });

  it("tells a fork's caller it already has the conversation", async () => {
    const text = await description(forkPlugin);
    assert.match(text, /\(a fork of this agent\)/);
    assert.match(text, /starts with a copy of this conversation/);
    assert.match(text, /needs only the new instruction/);
    assert.doesNotMatch(text, /empty context/);
  });

  it("fails to load with a clear error when no backend was loaded before it", async () => {
    const h = host();
    assert.throws(() => h.load(subagentPlugin), (error) => {
      assert.ok(error instanceof HostError);
      assert.equal(error.plugin, "subagent");
      assert.equal(
        error.message,
        'Cannot load plugin "subagent": no subagent backend is registered; list "spawn", ' +
          '"acp" or "fork" before "subagent" in the plugins',
      );
      return true;
    });
    assert.deepEqual((await h.prompt.assemble()).tools, []);
    assert.deepEqual(h.plugins, []);
  });

  it("fails when the backend is listed after it", () => {
    const h = host();
    assert.throws(() => h.load(subagentPlugin), HostError);
    h.load(forkPlugin);
    assert.deepEqual(h.plugins, ["fork"]);
  });
});
