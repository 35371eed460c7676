// examples/agents_host.ts: two agents on one registry over 20 steps; each
// agent's prompt, the context message only on steps where a fact changed,
// and what explainPrompt and comparePrompts say about it.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { comparePrompts, explainPrompt } from "@dsh/system-prompt/inspect";
import {
  Agent,
  AGENTS,
  CONFIG,
  createHost,
  type SessionState,
} from "../../examples/agents_host.ts";

/** Step i of the session: the clock moves every step, git and todos now and then. */
function advance(state: SessionState, i: number): void {
  state.now = `2026-12-01 09:${String(i).padStart(2, "0")}`;
  if (i === 6) state.status = ["M src/app.ts"];
  if (i === 11) state.branch = "fix/login";
  if (i === 15) state.todos = [...state.todos, "write the test"];
}

describe("agents host: two agents, one registry, 20 steps", () => {
  it("keeps each agent's system prompt and tools byte-identical while the facts change", async () => {
    const state: SessionState = {
      now: "",
      branch: "main",
      status: [],
      todos: ["triage"],
    };
    const prompt = createHost(CONFIG, state);
    const agents = [
      new Agent(prompt, AGENTS.reviewer),
      new Agent(prompt, AGENTS.explorer),
    ];
    const prompts = new Map<Agent, Set<string>>(
      agents.map((a) => [a, new Set()]),
    );
    const tools = new Map<Agent, Set<string>>(
      agents.map((a) => [a, new Set()]),
    );
    for (let i = 0; i < 20; i++) {
      advance(state, i);
      const agent = agents[i % 2]!;
      const step = await agent.step();
      prompts.get(agent)!.add(step.prompt);
      tools.get(agent)!.add(JSON.stringify(step.tools));
    }
    for (const agent of agents) {
      assert.equal(prompts.get(agent)!.size, 1, agent.layer);
      assert.equal(tools.get(agent)!.size, 1, agent.layer);
    }
    const [reviewer] = prompts.get(agents[0]!)!;
    assert.equal(reviewer, `${CONFIG.harness}\n\n${CONFIG.presets.reviewer}`);
    assert.deepEqual(
      JSON.parse([...tools.get(agents[0]!)!][0]!).map((t: { name: string }) =>
        t.name
      ),
      [
        "read",
        "grep",
        "bash",
        "todo",
      ],
    );
    assert.deepEqual(
      JSON.parse([...tools.get(agents[1]!)!][0]!).map((t: { name: string }) =>
        t.name
      ),
      [
        "read",
        "grep",
      ],
    );
  });

  it("produces the context message exactly on the steps where a fact changed, and again after compaction", async () => {
    const state: SessionState = {
      now: "2026-12-01 09:00",
      branch: "main",
      status: [],
      todos: ["triage"],
    };
    const prompt = createHost(CONFIG, state);
    const agent = new Agent(prompt, AGENTS.reviewer);
    const sent: number[] = [];
    for (let i = 0; i < 20; i++) {
      // Here the clock moves only every fifth step.
      if (i % 5 === 0) {
        state.now = `2026-12-01 09:${String(i).padStart(2, "0")}`;
      }
      if (i === 7) state.status = ["M src/app.ts"];
      if (i === 12) agent.channel.reset(); // the history was compacted
      const step = await agent.step();
      if (step.message !== undefined) sent.push(i);
      if (i === 7) {
        assert.equal(
          step.message,
          "Current context:\nDate: 2026-12-01 09:05\nGit branch main: M src/app.ts\nOpen todos: triage",
        );
      }
    }
    assert.deepEqual(sent, [0, 5, 7, 10, 12, 15]);
  });

  it("explainPrompt names the layer and owner of every part, and the owner a shadowing persona replaced", async () => {
    const state: SessionState = {
      now: "x",
      branch: "main",
      status: [],
      todos: [],
    };
    const prompt = createHost(CONFIG, state);
    const assembly = await prompt.assemble({}, { layer: AGENTS.explorer });
    const explanation = explainPrompt(assembly);
    assert.deepEqual(
      explanation.sections.map((s) => [s.name, s.owner, s.layer, s.shadows]),
      [
        ["harness", "host", undefined, undefined],
        ["persona", "preset:explorer", AGENTS.explorer, {
          owner: "preset:reviewer",
          layer: AGENTS.reviewer,
        }],
      ],
    );
    assert.deepEqual(
      explanation.context.sections.map((s) => [s.name, s.owner]),
      [["context:framing", "host"], ["date", "clock"], ["git", "git"]],
    );
  });

  it("comparePrompts between two steps reports only a context change", async () => {
    const state: SessionState = {
      now: "09:00",
      branch: "main",
      status: [],
      todos: [],
    };
    const prompt = createHost(CONFIG, state);
    const before = await prompt.assemble({}, { layer: AGENTS.reviewer });
    state.now = "09:01";
    state.status = ["M a.ts"];
    const after = await prompt.assemble({}, { layer: AGENTS.reviewer });
    const comparison = comparePrompts(before, after);
    assert.equal(comparison.prefixBreak, undefined);
    assert.equal(comparison.sameText, true);
    assert.equal(comparison.tools.changed, false);
    assert.equal(comparison.context.changed, true);
    assert.equal(comparison.context.firstChangedEntry?.name, "date");
  });
});
