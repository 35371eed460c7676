/**
 * One real client: the Vercel AI SDK. The system prompt is exactly
 * `renderPrompt(assembly)` and the tools are exactly `assembly.tools`.
 *
 * @module
 */

import {
  generateText,
  type GenerateTextResult,
  jsonSchema,
  type LanguageModel,
  tool,
  type ToolSet,
} from "ai";
import type { ToolSchema } from "@dsh/system-prompt";
import type { Agent } from "./agent.ts";
import type { AgentLoop } from "./plugins/agent_loop.ts";

/** The assembly's tools as an AI SDK tool set (no `execute`: the caller runs them). */
export function toAiSdkTools(tools: readonly ToolSchema[]): ToolSet {
  const set: ToolSet = {};
  for (const { name, description, parameters } of tools) {
    set[name] = tool({
      description,
      inputSchema: jsonSchema(parameters as Parameters<typeof jsonSchema>[0]),
    });
  }
  return set;
}

/** Runs one agent-loop step and sends its prompt and tools to `model`. */
export async function generateStep(
  loop: AgentLoop,
  agent: Agent,
  model: LanguageModel,
  message: string,
): Promise<GenerateTextResult<ToolSet, never>> {
  const { system, tools } = await loop.step(agent);
  return await generateText({
    model,
    system,
    tools: toAiSdkTools(tools),
    prompt: message,
  });
}
