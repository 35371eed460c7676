/**
 * The subagent tool: no section. It resolves its backend when it loads and
 * derives its description from `inheritsParentContext`, so the model is told
 * the truth about what the subagent can see.
 *
 * @module
 */

import type { ToolSchema } from "@dsh/system-prompt";
import type { Plugin } from "../host.ts";
import type { SubagentProvider } from "./subagent_backends.ts";

/** The subagent tool's schema for one backend. */
export function subagentTool(provider: SubagentProvider): ToolSchema {
  const context = provider.inheritsParentContext
    ? "The subagent starts with a copy of this conversation, so it already " +
      "knows everything said so far: the prompt needs only the new " +
      "instruction, not the background."
    : "The subagent starts with an empty context: it cannot see this " +
      "conversation, the files you have read or the decisions made so far. " +
      "Write the prompt as a complete brief: the goal, the relevant paths and " +
      "facts, the constraints, and what it must report back.";
  return {
    name: "subagent",
    description:
      `Delegates a task to a subagent (${provider.runs}) and returns ` +
      `its final message. ${context}`,
    parameters: {
      type: "object",
      properties: {
        prompt: { type: "string", description: "The task for the subagent." },
      },
      required: ["prompt"],
      additionalProperties: false,
    },
  };
}

/** Registers the subagent tool for the backend loaded before it. */
export const subagentPlugin: Plugin = {
  name: "subagent",
  load({ prompt, service }) {
    const provider = service("subagent-backend");
    if (provider === undefined) {
      throw new Error(
        'no subagent backend is registered; list "spawn", "acp" or "fork" ' +
          'before "subagent" in the plugins',
      );
    }
    const tool = subagentTool(provider);
    prompt.tools(() => [tool]);
  },
};
