/**
 * One real client: the Vercel AI SDK, on the fast path: `render()` gives
 * the step, `toAISDK` turns it into the call's `system` (one system message
 * per cache block, with the Anthropic breakpoints the plan chose) and
 * `tools`, and `cacheAISDKMessages` marks the conversation's last message;
 * in a multi-step run the step is rendered again before every call, and
 * the tools a {@linkcode ToolRegistry} holds are executed by it.
 *
 * @module
 */

import {
  generateText,
  type GenerateTextResult,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  stepCountIs,
  type ToolSet,
} from "ai";
import type { PromptAssembly, RenderedStep } from "@dsh/system-prompt";
import {
  type AISDKRequest,
  cacheAISDKMessages,
  toAISDK,
} from "@dsh/system-prompt/adapters";
import type { Agent } from "./agent.ts";
import type { AgentLoop } from "./plugins/agent_loop.ts";
import type { ToolRegistry } from "./tool_registry.ts";

/** An AI SDK call's fields for a step, the tools as the SDK's `ToolSet`. */
export type StepCall = Omit<AISDKRequest<unknown>, "tools"> & {
  tools: ToolSet;
};

/**
 * The call's `system` and `tools` for a step (or an assembly). A tool the
 * registry holds gets an `execute` that runs it there; any other has none
 * (the caller runs it).
 */
export function aiSdkRequest(
  source: RenderedStep | PromptAssembly,
  model: string,
  registry?: ToolRegistry,
): StepCall {
  const request: StepCall = toAISDK(source, { jsonSchema, model });
  if (registry === undefined) return request;
  // The request is frozen and shared by steps: the tools with `execute`
  // are a new set.
  const set: ToolSet = { ...request.tools };
  for (const name of Object.keys(set)) {
    if (registry.has(name)) {
      Object.defineProperty(set, name, {
        value: {
          ...set[name]!,
          execute: (input: unknown) => registry.execute(name, input),
        },
        enumerable: true,
      });
    }
  }
  return Object.defineProperty({ ...request, tools: set }, "plan", {
    value: request.plan,
  });
}

/**
 * The conversation as the step sends it: the last message marked for
 * caching in the slot the plan reserved, then the runtime context.
 */
export function stepMessages(
  request: Pick<AISDKRequest<unknown>, "plan" | "contextMessage">,
  conversation: readonly ModelMessage[],
): ModelMessage[] {
  const messages = cacheAISDKMessages(request, conversation);
  if (request.contextMessage) messages.push(request.contextMessage);
  return messages;
}

/** Runs one agent-loop step and sends its prompt and tools to `model`. */
export async function generateStep(
  loop: AgentLoop,
  agent: Agent,
  model: LanguageModel,
  message: string,
): Promise<GenerateTextResult<ToolSet, never>> {
  const request = aiSdkRequest(await loop.send(agent), agent.model);
  return await generateText({
    model,
    system: request.system,
    tools: request.tools,
    messages: stepMessages(request, [{ role: "user", content: message }]),
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
  /** The step of each model call: rendered for that call. */
  requests: RenderedStep[];
}

/**
 * A multi-step agent loop: the model may call tools, the registry executes
 * them, and before every model call the step is rendered again for the
 * time of that call (`render()`, the agent's unchanged parts kept), turned
 * into the call's `system` by the adapter (its request remembered while
 * the step's blocks stand), and the conversation's last message is marked
 * for caching.
 */
export async function runAgentLoop(
  loop: AgentLoop,
  agent: Agent,
  model: LanguageModel,
  message: string,
  options: AgentLoopOptions,
): Promise<AgentLoopResult> {
  const first = await loop.send(agent, options.now());
  const requests = [first];
  const request = aiSdkRequest(first, agent.model, options.registry);
  const result = await generateText({
    model,
    system: request.system,
    tools: request.tools,
    messages: [{ role: "user", content: message }],
    stopWhen: stepCountIs(options.maxSteps ?? 5),
    // Each call's messages are the conversation so far, unmarked: the
    // breakpoint goes on the last one and the context after it, for that
    // call only.
    prepareStep: async ({ stepNumber, messages }) => {
      let next = request;
      if (stepNumber > 0) {
        const step = await loop.send(agent, options.now());
        requests.push(step);
        next = aiSdkRequest(step, agent.model);
      }
      return { system: next.system, messages: stepMessages(next, messages) };
    },
  });
  return { result, requests };
}
