/**
 * One real client: the Vercel AI SDK. The system prompt is exactly
 * `renderPrompt(assembly)` and the tools are exactly `assembly.tools`; in a
 * multi-step run the prompt is assembled again before every step, and the
 * tools a {@linkcode ToolRegistry} holds are executed by it.
 *
 * @module
 */

import {
  generateText,
  type GenerateTextResult,
  jsonSchema,
  type LanguageModel,
  stepCountIs,
  tool,
  type ToolSet,
} from "ai";
import type { ToolSchema } from "@dsh/system-prompt";
import type { Agent } from "./agent.ts";
import type { AgentLoop, StepRequest } from "./plugins/agent_loop.ts";
import type { ToolRegistry } from "./tool_registry.ts";

/**
 * The assembly's tools as an AI SDK tool set. A tool the registry holds
 * gets an `execute` that runs it there; any other has none (the caller runs
 * it).
 */
export function toAiSdkTools(
  tools: readonly ToolSchema[],
  registry?: ToolRegistry,
): ToolSet {
  const set: ToolSet = {};
  for (const { name, description, parameters } of tools) {
    const inputSchema = jsonSchema(
      parameters as Parameters<typeof jsonSchema>[0],
    );
    set[name] = registry?.has(name)
      ? tool({
        description,
        inputSchema,
        execute: (input: unknown) => registry.execute(name, input),
      })
      : tool({ description, inputSchema });
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

/** Options of {@linkcode runAgentLoop}. */
export interface AgentLoopOptions {
  /** The registry that executes the tools the model calls. */
  registry: ToolRegistry;
  /** The time of each step, ISO 8601 (the clock plugin's `date`). */
  now(): string;
  /** Stop after this many model calls. @default {5} */
  maxSteps?: number;
}

/** What {@linkcode runAgentLoop} returns. */
export interface AgentLoopResult {
  /** The AI SDK's result, with every step. */
  result: GenerateTextResult<ToolSet, never>;
  /** The request of each model call: its prompt was assembled for that step. */
  requests: StepRequest[];
}

/**
 * A multi-step agent loop: the model may call tools, the registry executes
 * them, and before every model call the system prompt is assembled again
 * for the time of that step.
 */
export async function runAgentLoop(
  loop: AgentLoop,
  agent: Agent,
  model: LanguageModel,
  message: string,
  options: AgentLoopOptions,
): Promise<AgentLoopResult> {
  const first = await loop.step(agent, options.now());
  const requests = [first];
  const result = await generateText({
    model,
    system: first.system,
    tools: toAiSdkTools(first.tools, options.registry),
    prompt: message,
    stopWhen: stepCountIs(options.maxSteps ?? 5),
    prepareStep: async ({ stepNumber }) => {
      if (stepNumber === 0) return {};
      const request = await loop.step(agent, options.now());
      requests.push(request);
      return { system: request.system };
    },
  });
  return { result, requests };
}
