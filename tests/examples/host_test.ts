import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SystemPrompt } from "../../mod.ts";
import type { AgentContext } from "../../examples/agent.ts";
import { parseConfig } from "../../examples/config.ts";
import { HostError } from "../../examples/host_error.ts";
import { type Plugin, PluginHost } from "../../examples/host.ts";
import { startAgent } from "../../examples/start_agent.ts";

const CONFIG = parseConfig(
  JSON.stringify({
    agent: { model: "m", cwd: "/" },
    persona: { identity: "I am {{model}}.", behaviour: "Be brief." },
    plugins: ["agent-loop", "bash"],
  }),
  "inline",
);

describe("PluginHost", () => {
  it("loads plugins in the declared order, each in a scope named after it", async () => {
    const host = startAgent(CONFIG);
    assert.deepEqual(host.plugins, ["agent-loop", "bash"]);
    const { sections } = await host.prompt.assemble();
    assert.deepEqual(sections.map((s) => s.owner), ["agent-loop", "bash"]);
  });

  it("disposes what a failing plugin registered and names it", async () => {
    const host = new PluginHost(new SystemPrompt<AgentContext>(), CONFIG);
    const broken: Plugin = {
      name: "broken",
      load({ prompt }) {
        prompt.section({ name: "half", order: 1, text: "half-loaded" });
        prompt.section({ name: "half", order: 2, text: "duplicate" });
      },
    };
    assert.throws(() => host.load(broken), (error) => {
      assert.ok(error instanceof HostError);
      assert.equal(error.plugin, "broken");
      assert.equal(
        (error.cause as { code?: string }).code,
        "duplicate-section",
      );
      return true;
    });
    assert.deepEqual((await host.prompt.assemble()).sections, []);
  });

  it("refuses to load a plugin twice", () => {
    const host = startAgent(CONFIG);
    assert.throws(
      () => startAgent({ ...CONFIG, plugins: ["bash", "bash"] }),
      /already loaded/,
    );
    host.unload("bash");
    host.unload("bash");
    assert.deepEqual(host.plugins, ["agent-loop"]);
  });

  it("rejects an unknown plugin name", () => {
    assert.throws(() => startAgent({ ...CONFIG, plugins: ["nope"] }), {
      name: "HostError",
      message: /Cannot load plugin "nope": no such plugin/,
    });
  });
});

describe("parseConfig()", () => {
  it("rejects invalid JSON and missing fields with the field name", () => {
    assert.throws(
      () => parseConfig("{", "c.json"),
      /c\.json: it is not valid JSON/,
    );
    assert.throws(
      () => parseConfig("[]", "c.json"),
      /"agent\.model" must be a string/,
    );
    assert.throws(
      () =>
        parseConfig(JSON.stringify({ ...CONFIG, plugins: "bash" }), "c.json"),
      /"plugins" must be an array of plugin names/,
    );
  });
});
