/**
 * The agent loop: owns the persona section and the `model` and `cwd`
 * variables, and builds each step's prompt with `assemble` + `renderPrompt`
 * and nothing else.
 *
 * @module
 */

import {
  type PromptAssembly,
  type RenderedStep,
  renderPrompt,
  type ToolSchema,
} from "@dsh/system-prompt";
import type { Agent } from "../agent.ts";
import type { Plugin } from "../host.ts";

/** What one step hands to the model. */
export interface StepRequest {
  /** The full system prompt: `renderPrompt(assembly)`, nothing added. */
  system: string;
  /** The tool schemas, as the assembly lists them. */
  tools: ToolSchema[];
  /** The assembly both came from. */
  assembly: PromptAssembly;
}

/** The loop's per-step entry point, offered to other plugins and the host. */
export interface AgentLoop {
  /** Builds one step's request for `agent`, at `time` (ISO 8601) if given. */
  step(agent: Agent, time?: string): Promise<StepRequest>;
  /**
   * Renders the step `agent` sends, at `time` if given: the fast path, its
   * unchanged parts the same objects as last step's (the agent object is
   * the memory's key). Hand it to an adapter for the provider's request.
   */
  send(agent: Agent, time?: string): Promise<RenderedStep>;
}

/** Registers `agent:persona` at order 0: identity renders before tool guidance. */
export const agentLoopPlugin: Plugin = {
  name: "agent-loop",
  load({ prompt, config, assemble, render, provide }) {
    const { identity, behaviour } = config.persona;
    prompt.section({
      name: "agent:persona",
      order: 0,
      text: `${identity}\n\n${behaviour}`,
    });
    prompt.variable("model", (context) => context.agent?.model);
    prompt.variable("cwd", (context) => context.agent?.cwd);
    provide("agent-loop", {
      step: async (agent, time) => {
        const assembly = await assemble(
          time === undefined ? { agent } : { agent, time },
        );
        return {
          system: renderPrompt(assembly),
          tools: assembly.tools,
          assembly,
        };
      },
      send: (agent, time) =>
        render(time === undefined ? { agent } : { agent, time }, agent),
    });
  },
};
