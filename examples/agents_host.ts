/**
 * A multi-agent host shaped like the upstream harness: one registry serves
 * a main agent (an agent preset layer) and a subagent (a layer whose
 * parent is the preset), each with its own persona, tools and handler on
 * top of the shared plugins. Facts that change during a session (the
 * clock, git status, open todos) are runtime-context entries: the system
 * prompt stays byte-identical, and a `ContextChannel` per agent says when
 * the context message must be sent again.
 *
 * @module
 */

import {
  ContextChannel,
  type RenderedStep,
  SystemPrompt,
  TOOL_ORDER_REST,
  type ToolSchema,
} from "@dsh/system-prompt";

/** What changes during a session, as the host's providers read it. */
export interface SessionState {
  now: string;
  branch: string;
  status: string[];
  todos: string[];
}

/** Words that come from configuration, not from code. */
export interface HostConfig {
  harness: string;
  deployment: string;
  presets: { reviewer: string; explorer: string };
  toolOrder: string[];
}

/** The configuration the example and its tests use. */
export const CONFIG: HostConfig = {
  harness: "You run inside the Dash harness. Tools run on the user's machine.",
  deployment: "You are Dash, a general software agent.",
  presets: {
    reviewer:
      "You are Dash Review: you read diffs and report defects, most severe first.",
    explorer:
      "You explore the repository for the reviewer and answer with file paths and line numbers.",
  },
  toolOrder: ["read", "grep", TOOL_ORDER_REST],
};

const tool = (name: string, description: string): ToolSchema => ({
  name,
  description,
  parameters: { type: "object", properties: {} },
});

// One object per tool, so a step whose tools did not change reuses them.
const TOOLS = {
  read: tool("read", "Reads a file."),
  grep: tool("grep", "Searches files for a pattern."),
  bash: tool("bash", "Runs a shell command."),
  todo: tool("todo", "Edits the todo list."),
};

/** The agents this host runs, and their layer keys. */
export const AGENTS = {
  reviewer: "reviewer",
  explorer: "reviewer/explorer",
} as const;

/** Builds the registry: shared plugins, two layers, three context plugins. */
export function createHost(
  config: HostConfig,
  state: SessionState,
): SystemPrompt {
  const prompt = new SystemPrompt({ toolOrder: config.toolOrder });
  const host = prompt.scope("host");
  host.section({
    name: "harness",
    order: -100,
    text: config.harness,
    literal: true,
  });
  host.context({
    name: "context:framing",
    order: -1,
    text: "Current context:",
  });
  prompt.scope("deployment").section({
    name: "persona",
    order: 0,
    text: config.deployment,
    literal: true,
  });
  const shared = prompt.scope("tools");
  shared.tools(() => [TOOLS.read, TOOLS.grep, TOOLS.bash]);

  // Three plugins own the runtime context, each one fact.
  prompt.scope("clock").context({
    name: "date",
    order: 10,
    separator: "\n",
    text: () => `Date: ${state.now}`,
  });
  const git = prompt.scope("git");
  git.variable("git.branch", () => state.branch);
  git.context({
    name: "git",
    order: 20,
    separator: "\n",
    text: () =>
      `Git branch {{git.branch}}: ${
        state.status.length === 0 ? "clean" : state.status.join(", ")
      }`,
  });
  prompt.scope("todo").context({
    name: "todos",
    order: 30,
    separator: "\n",
    text: () =>
      state.todos.length === 0 ? "" : `Open todos: ${state.todos.join("; ")}`,
  });

  // The reviewer preset: its persona shadows the deployment's.
  const reviewer = prompt.layer(AGENTS.reviewer).scope("preset:reviewer");
  reviewer.section({
    name: "persona",
    order: 0,
    text: config.presets.reviewer,
    literal: true,
  });
  reviewer.tools(() => [TOOLS.todo]);

  // The explorer subagent: its own persona, and a handler that keeps it read-only.
  const explorer = prompt.layer(AGENTS.explorer, { parent: AGENTS.reviewer })
    .scope("preset:explorer");
  explorer.section({
    name: "persona",
    order: 0,
    text: config.presets.explorer,
    literal: true,
  });
  explorer.on("system-prompt/assemble", function readOnly(assembly) {
    assembly.tools = assembly.tools.filter((t) =>
      t.name === "read" || t.name === "grep"
    );
  });
  return prompt;
}

/** One agent's view of a session: its layer and the context it last sent. */
export class Agent {
  readonly channel: ContextChannel = new ContextChannel();
  constructor(readonly prompt: SystemPrompt, readonly layer: string) {}

  /** One step: the request parts, and the context message when it changed. */
  async step(): Promise<RenderedStep & { message: string | undefined }> {
    const step = await this.prompt.render({}, {
      layer: this.layer,
      agent: this,
    });
    return { ...step, message: this.channel.next(step.context) };
  }
}

if ((import.meta as { main?: boolean }).main) {
  const state: SessionState = {
    now: "2026-12-01 09:00",
    branch: "main",
    status: [],
    todos: ["triage"],
  };
  const prompt = createHost(CONFIG, state);
  const reviewer = new Agent(prompt, AGENTS.reviewer);
  const explorer = new Agent(prompt, AGENTS.explorer);
  for (const agent of [reviewer, explorer]) {
    const step = await agent.step();
    console.log(
      `--- ${agent.layer}\n${step.prompt}\n[tools: ${
        step.tools.map((t) => t.name).join(", ")
      }]\n[context: ${step.message}]`,
    );
  }
}
