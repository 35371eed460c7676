// examples/host.ts: PluginHost loads plugins in order, each in its own scope,
// and disposes what a failing one registered; parseConfig() names the line,
// column or path of bad config.
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
  it("rejects invalid JSON with its line and column", () => {
    const cases: [string, string][] = [
      ["{", "line 1, column 2: Expected property name or '}'"],
      ['{\n  "agent": x\n}', "line 2, column 12: Unexpected token 'x'"],
      ['{\n  "a": "true x"\n  , null: 1}', "line 3, column 5: Expected"],
      ['{"agent": {', "line 1, column 12: Expected property name or '}'"],
      ['{"agent": ', "line 1, column 11: Unexpected end of JSON input"],
    ];
    for (const [text, where] of cases) {
      assert.throws(() => parseConfig(text, "c.json"), {
        name: "HostError",
        message: new RegExp(
          `^Invalid JSON in config c\\.json at ${
            where.replace(/[.*?()[\]{}]/g, "\\$&")
          }`,
        ),
      }, text);
    }
  });

  it("rejects missing, mistyped and unknown fields with their path", () => {
    const reject = (value: unknown, message: string) =>
      assert.throws(() => parseConfig(JSON.stringify(value), "c.json"), {
        name: "HostError",
        message: `Invalid config c.json: ${message}`,
      });
    reject([], "the top level must be an object, not an array");
    reject({ ...CONFIG, agent: undefined }, '"agent" is missing');
    reject(
      { ...CONFIG, agent: { model: 1, cwd: "/" } },
      '"agent.model" must be a string, not a number',
    );
    reject(
      { ...CONFIG, agent: { model: "m", cwd: "/", modle: "m" } },
      'unknown key "agent.modle" in "agent"; did you mean "model"?',
    );
    reject(
      { ...CONFIG, tools: [] },
      'unknown key "tools" in the top level; the keys there are "agent", "persona", "plugins"',
    );
    assert.throws(
      () =>
        parseConfig(JSON.stringify({ ...CONFIG, plugins: "bash" }), "c.json"),
      /Invalid config c\.json: "plugins" must be an array of plugin names, not a string$/,
    );
  });
});
