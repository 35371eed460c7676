// The agent-loop plugin of examples/: the default config rendered, per-agent
// variables, the prompt built with renderPrompt(assembly) alone, and a plugin
// unloaded without a trace.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { renderPrompt } from "../../mod.ts";
import { type AgentConfig, parseConfig } from "../../examples/config.ts";
import { startAgent } from "../../examples/start_agent.ts";
import { persona } from "./io.ts";

async function config(name: string): Promise<AgentConfig> {
  return parseConfig(await readFile(persona(name), "utf8"), name);
}

const BASH_HABIT =
  "After every bash command, check its exit code before you rely on its output: " +
  "a non-zero exit means the step failed, even when the output looks plausible.";
const READ_NUDGE =
  "read is not a shell: give it one path, with no globs, pipes or quotes. " +
  "To look at a file, use read rather than cat, head or sed through bash.";

describe("agent-loop plugin", () => {
  it("renders the default config's whole prompt: persona first, then tool guidance by order", async () => {
    const cfg = await config("default.json");
    const loop = startAgent(cfg).service("agent-loop")!;
    const { system, tools, assembly } = await loop.step(cfg.agent);
    assert.equal(
      system,
      [
        "You are Dash, a software engineering agent running on claude-sonnet-4-5.",
        "Your working directory is /home/dev/project. " +
        "Work in small steps and verify each one before the next. Read before you edit, and " +
        "prefer the smallest change that solves the problem. When you are unsure, say so and " +
        "say what would settle it. Report what you did and what you saw, not what you hoped.",
        BASH_HABIT,
        READ_NUDGE,
      ].join("\n\n"),
    );
    assert.deepEqual(
      assembly.sections.map((s) => [s.name, s.order, s.owner]),
      [["agent:persona", 0, "agent-loop"], ["tool:bash", 105, "bash"], [
        "tool:read",
        110,
        "read",
      ]],
    );
    assert.deepEqual(tools.map((t) => t.name), [
      "bash",
      "read",
      "subagent",
      "todo",
    ]);
  });

  it("substitutes {{model}} and {{cwd}} in the ACP persona", async () => {
    const cfg = await config("acp.json");
    const { system } = await startAgent(cfg).service("agent-loop")!.step(
      cfg.agent,
    );
    assert.ok(
      system.startsWith(
        "You are Dash, a coding agent running on claude-sonnet-4-5 inside an editor session " +
          "rooted at /workspace/service.",
      ),
    );
    assert.match(
      system,
      /Stay inside \/workspace\/service unless asked otherwise\./,
    );
    assert.doesNotMatch(system, /\{\{/);
  });

  it("resolves the variables per agent", async () => {
    const cfg = await config("default.json");
    const loop = startAgent(cfg).service("agent-loop")!;
    const [a, b] = await Promise.all([
      loop.step({ model: "m-a", cwd: "/a" }),
      loop.step({ model: "m-b", cwd: "/b" }),
    ]);
    assert.match(a.system, /running on m-a\./);
    assert.match(b.system, /running on m-b\./);
    assert.equal(a.assembly.variables.cwd, "/a");
  });

  it("builds the prompt with renderPrompt(assembly) and nothing else", async () => {
    const cfg = await config("default.json");
    const { system, assembly } = await startAgent(cfg).service("agent-loop")!
      .step(cfg.agent);
    assert.equal(system, renderPrompt(assembly));
  });

  it("keeps persona words in config: no persona or section names a tool list", async () => {
    for (
      const name of ["default.json", "acp.json", "fork.json", "dated.json"]
    ) {
      const cfg = await config(name);
      const persona = `${cfg.persona.identity} ${cfg.persona.behaviour}`;
      for (const tool of ["bash", "todo", "subagent"]) {
        assert.doesNotMatch(
          persona,
          new RegExp(`\\b${tool}\\b`),
          `${name} mentions ${tool}`,
        );
      }
      assert.match(cfg.persona.identity, /\{\{model\}\}/);
    }
  });
});

describe("plugin unloading", () => {
  it("removes the plugin's sections and tools", async () => {
    const cfg = await config("default.json");
    const host = startAgent(cfg);
    host.unload("bash");
    const { system, tools } = await host.service("agent-loop")!.step(cfg.agent);
    assert.ok(!system.includes(BASH_HABIT));
    assert.ok(system.includes(READ_NUDGE));
    assert.deepEqual(tools.map((t) => t.name), ["read", "subagent", "todo"]);
  });

  it("withdraws the unloaded plugin's services", async () => {
    const cfg = await config("default.json");
    const host = startAgent(cfg);
    host.unload("spawn");
    assert.equal(host.service("subagent-backend"), undefined);
    host.unload("agent-loop");
    assert.equal(host.service("agent-loop"), undefined);
    assert.deepEqual(Object.keys((await host.prompt.assemble()).variables), []);
  });
});
