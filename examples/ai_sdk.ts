/**
 * One real client: the Vercel AI SDK. `toAISDK` turns the step's assembly
 * into the call's `system` (one system message per cache block, with the
 * Anthropic breakpoints the plan chose) and `tools`; in a multi-step run the
 * prompt is assembled again before every step, and the tools a
 * {@linkcode ToolRegistry} holds are executed by it.
 *
 * @module
 */

import {
  generateText,
  type GenerateTextResult,
  jsonSchema,
  type LanguageModel,
  stepCountIs,
  type ToolSet,
} from "ai";
import type { PromptAssembly } from "@dsh/system-prompt";
import { toAISDK } from "@dsh/system-prompt/adapters";
import type { Agent } from "./agent.ts";
import type { AgentLoop, StepRequest } from "./plugins/agent_loop.ts";
import type { ToolRegistry } from "./tool_registry.ts";

/**
 * The call's `system` and `tools` for an assembly. A tool the registry
 * holds gets an `execute` that runs it there; any other has none (the
 * caller runs it).
 */
export function aiSdkRequest(
  assembly: PromptAssembly,
  model: string,
  registry?: ToolRegistry,
): { system: ReturnType<typeof toAISDK>["system"]; tools: ToolSet } {
  const { system, tools } = toAISDK(assembly, { jsonSchema, model });
  const set: ToolSet = tools;
  for (const name of Object.keys(tools)) {
    if (registry?.has(name)) {
      set[name] = {
        ...tools[name]!,
        execute: (input: unknown) => registry.execute(name, input),
      };
    }
  }
  return { system, tools: set };
}

/** Runs one agent-loop step and sends its prompt and tools to `model`. */
export async function generateStep(
  loop: AgentLoop,
  agent: Agent,
  model: LanguageModel,
  message: string,
): Promise<GenerateTextResult<ToolSet, never>> {
  const { assembly } = await loop.step(agent);
  return await generateText({
    model,
    ...aiSdkRequest(assembly, agent.model),
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
    ...aiSdkRequest(first.assembly, agent.model, options.registry),
    prompt: message,
    stopWhen: stepCountIs(options.maxSteps ?? 5),
    prepareStep: async ({ stepNumber }) => {
      if (stepNumber === 0) return {};
      const request = await loop.step(agent, options.now());
      requests.push(request);
      return { system: aiSdkRequest(request.assembly, agent.model).system };
    },
  });
  return { result, requests };
}
