/**
 * `toOpenAIResponses` and `toOpenAIChat`: the request fields of OpenAI's
 * Responses and Chat Completions APIs. OpenAI caches repeated prefixes by
 * itself, so there is nothing to mark; the plan says whether the stable
 * prefix is long enough.
 *
 * @module
 */

import type { PromptAssembly, RenderedStep } from "../../mod.ts";
import type { JsonObject } from "./json.ts";
import { Adapter, type Fields, userMessage } from "./_request.ts";
import { type ToolEntry, wireOf } from "./_counts.ts";
import type { AdapterOptions, CachePlan } from "./plan.ts";
import { OPENAI } from "./profiles.ts";

/**
 * The `instructions` and `tools` of an OpenAI Responses request.
 * `instructions` is exactly the step's prompt (`renderPrompt(assembly)`).
 *
 * @param source A step from `render()`, or an assembly.
 * @param options The model, profile, token counter and cache options.
 * @returns The request fields, the context message and the plan.
 * @throws {PromptError} As {@linkcode planCache} does.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { toOpenAIResponses } from "@dsh/system-prompt/adapters";
 *
 * const { instructions, tools, plan } = toOpenAIResponses({
 *   sections: [{ name: "persona", order: 0, text: "You are {{model}}." }],
 *   tools: [{ name: "bash", description: "Runs a command.", parameters: { type: "object" } }],
 *   variables: { model: "gpt-5" },
 * }, { model: "gpt-5" });
 * assert.equal(instructions, "You are gpt-5.");
 * assert.deepEqual(tools[0], {
 *   type: "function", name: "bash", description: "Runs a command.", parameters: { type: "object" }, strict: false,
 * });
 * assert.match(plan.notes[0]!, /under the minimum of 1024/);
 * ```
 */
export function toOpenAIResponses(
  source: PromptAssembly | RenderedStep,
  options: AdapterOptions = {},
): OpenAIResponsesRequest {
  return RESPONSES.request(source, { options });
}

const responsesTool = (tool: ToolEntry): OpenAIFunctionTool => ({
  type: "function",
  name: tool.name,
  description: tool.description,
  parameters: tool.parameters as JsonObject,
  strict: false,
  ...(tool.deferred ? { defer_loading: true as const } : {}),
});

const RESPONSES = new Adapter<OpenAIResponsesRequest>(OPENAI, {
  defers: () => true,
  // The step's prompt is the blocks joined: no join again.
  system: (prompt) => ({ instructions: prompt }),
  tools: (tools) => ({
    tools: Object.freeze(
      tools.map((tool) => wireOf(tool, responsesTool, responsesTool)),
    ) as OpenAIFunctionTool[],
  }),
  message: userMessage,
});

/**
 * A function tool of the Responses API.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { OpenAIFunctionTool } from "@dsh/system-prompt/adapters";
 *
 * const tool: OpenAIFunctionTool = { type: "function", name: "bash", description: "", parameters: {}, strict: false };
 * assert.equal(tool.strict, false);
 * ```
 */
export interface OpenAIFunctionTool {
  /** Always `"function"`. */
  type: "function";
  /** The tool's name. */
  name: string;
  /** The tool's description. */
  description: string;
  /** The parameters, as JSON Schema. */
  parameters: JsonObject;
  /** `false`: the schemas are sent as they are, not in strict mode. */
  strict: boolean;
  /**
   * `true` for a tool with `deferLoading`: loaded by the model's tool
   * search (add a `tool_search` tool to the request).
   */
  defer_loading?: true;
}

/**
 * What {@linkcode toOpenAIResponses} returns.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type OpenAIResponsesRequest, toOpenAIResponses } from "@dsh/system-prompt/adapters";
 *
 * const request: OpenAIResponsesRequest = toOpenAIResponses({ sections: [], tools: [], variables: {} });
 * assert.equal(request.instructions, "");
 * ```
 */
export interface OpenAIResponsesRequest {
  /** The system prompt. */
  instructions: string;
  /** The tools, in assembly order. */
  tools: OpenAIFunctionTool[];
  /** The runtime context as an input message; absent when there is none. */
  contextMessage?: { role: "user"; content: string };
  /** Where the breakpoints are, and why. */
  plan: CachePlan;
}

/**
 * The system message and `tools` of an OpenAI Chat Completions request.
 * The message's content is exactly the step's prompt (`renderPrompt(assembly)`).
 *
 * @param source A step from `render()`, or an assembly.
 * @param options The model, profile, token counter and cache options.
 * @returns The request fields, the context message and the plan.
 * @throws {PromptError} As {@linkcode planCache} does.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { toOpenAIChat } from "@dsh/system-prompt/adapters";
 *
 * const { messages, tools } = toOpenAIChat({
 *   sections: [{ name: "persona", order: 0, text: "You are a coding agent." }],
 *   tools: [{ name: "bash", description: "Runs a command.", parameters: {} }],
 *   variables: {},
 * });
 * assert.deepEqual(messages, [{ role: "system", content: "You are a coding agent." }]);
 * assert.equal(tools?.[0]?.function.name, "bash");
 * ```
 */
export function toOpenAIChat(
  source: PromptAssembly | RenderedStep,
  options: AdapterOptions = {},
): OpenAIChatRequest {
  return CHAT.request(source, { options });
}

const chatTool = (tool: ToolEntry): OpenAIChatTool => ({
  type: "function",
  function: Object.freeze({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters as JsonObject,
  }),
});

const CHAT = new Adapter<OpenAIChatRequest>(OPENAI, {
  // Chat Completions has no deferred tools: each is sent in full.
  defers: () => false,
  system: (content) => ({
    messages: Object.freeze(
      content === ""
        ? []
        : [Object.freeze({ role: "system" as const, content })],
    ) as OpenAIChatRequest["messages"],
  }),
  // Chat Completions refuses an empty `tools`: none is no field.
  tools: (tools): Fields<Pick<OpenAIChatRequest, "tools" | "plan">> =>
    tools.length === 0 ? {} : {
      tools: Object.freeze(
        tools.map((tool) => wireOf(tool, chatTool, chatTool)),
      ) as OpenAIChatTool[],
    },
  message: userMessage,
});

/**
 * A function tool of Chat Completions.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { OpenAIChatTool } from "@dsh/system-prompt/adapters";
 *
 * const tool: OpenAIChatTool = { type: "function", function: { name: "bash", description: "", parameters: {} } };
 * assert.equal(tool.function.name, "bash");
 * ```
 */
export interface OpenAIChatTool {
  /** Always `"function"`. */
  type: "function";
  /** The tool's name, description and JSON Schema parameters. */
  function: { name: string; description: string; parameters: JsonObject };
}

/**
 * What {@linkcode toOpenAIChat} returns: put the conversation after
 * `messages`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type OpenAIChatRequest, toOpenAIChat } from "@dsh/system-prompt/adapters";
 *
 * const request: OpenAIChatRequest = toOpenAIChat({ sections: [], tools: [], variables: {} });
 * assert.deepEqual(request.messages, []);
 * ```
 */
export interface OpenAIChatRequest {
  /** The system prompt as the first message; empty for an empty prompt. */
  messages: { role: "system"; content: string }[];
  /** The tools, in assembly order; absent for none (the API refuses `[]`). */
  tools?: OpenAIChatTool[];
  /** The runtime context as a user message; absent when there is none. */
  contextMessage?: { role: "user"; content: string };
  /** Where the breakpoints are, and why. */
  plan: CachePlan;
}
