/**
 * `toAISDK`: the `system` and `tools` of the Vercel AI SDK's
 * `generateText` / `streamText`, without importing the SDK: the host
 * passes its `jsonSchema` function.
 *
 * @module
 */

import type { PromptAssembly, RenderedStep, StepBlock } from "../../mod.ts";
import { Adapter, type Marker, unmarked, userMessage } from "./_request.ts";
import { type ToolEntry, wireOf } from "./_counts.ts";
import type { AdapterOptions, CachePlan } from "./plan.ts";
import { describeValue } from "../core/_describe.ts";
import { failure } from "../core/_messages.ts";
import { ANTHROPIC } from "./profiles.ts";

/**
 * The `system` and `tools` of an AI SDK call: one system message per block
 * of the plan, the breakpoints as the provider's `providerOptions` (by
 * default the Anthropic profile: `{ anthropic: { cacheControl } }`; with
 * the Bedrock profile `{ bedrock: { cachePoint } }`; none for a provider
 * that caches by itself). The messages' contents join to exactly
 * the step's prompt (`renderPrompt(assembly)`). Every tool name is an own
 * property of `tools` (`__proto__` too).
 *
 * @typeParam S What `jsonSchema` returns.
 * @param source A step from `render()`, or an assembly.
 * @param options The SDK's `jsonSchema`, and the adapter options.
 * @returns The call's fields, the context message and the plan.
 * @throws {PromptError} As {@linkcode planCache} does.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { toAISDK } from "@dsh/system-prompt/adapters";
 *
 * const jsonSchema = (schema: object) => ({ jsonSchema: schema });
 * const { system, tools } = toAISDK({
 *   sections: [{ name: "persona", order: 0, text: "You are a coding agent." }],
 *   tools: [{ name: "bash", description: "Runs a command.", parameters: { type: "object" } }],
 *   variables: {},
 * }, { jsonSchema });
 * assert.deepEqual(system, [{ role: "system", content: "You are a coding agent." }]);
 * assert.deepEqual(tools.bash?.inputSchema, { jsonSchema: { type: "object" } });
 * ```
 */
export function toAISDK<S>(
  source: PromptAssembly | RenderedStep,
  options: AISDKOptions<S>,
): AISDKRequest<S> {
  const jsonSchema = options.jsonSchema;
  if (typeof jsonSchema !== "function") {
    throw failure({
      code: "invalid-option",
      action: "build the request",
      problem: `its jsonSchema option is ${
        describeValue(jsonSchema)
      }, not the AI SDK's jsonSchema function`,
    });
  }
  return AI_SDK.request(source, { options, extra: jsonSchema }) as AISDKRequest<
    S
  >;
}

/**
 * The breakpoint as the provider's options, for the profile's provider;
 * for Anthropic, a deferred tool's `deferLoading` too.
 */
function cacheOptions(
  mark: Marker,
  provider: string,
  after: number | { tool: number },
  deferred = false,
) {
  let providerOptions: AISDKCacheOptions | undefined;
  if (provider === "anthropic") {
    const cacheControl = mark(after, "ephemeral");
    if (cacheControl && deferred) {
      providerOptions = { anthropic: { cacheControl, deferLoading: true } };
    } else if (cacheControl) {
      providerOptions = { anthropic: { cacheControl } };
    } else if (deferred) {
      providerOptions = { anthropic: { deferLoading: true } };
    }
  } else if (provider === "bedrock") {
    const cachePoint = mark(after, "default");
    if (cachePoint) providerOptions = { bedrock: { cachePoint } };
  }
  if (providerOptions === undefined) return {};
  // Frozen: the remembered request shares it with every caller.
  Object.values(providerOptions).forEach(Object.freeze);
  return { providerOptions: Object.freeze(providerOptions) };
}

const systemMessage = (block: StepBlock): AISDKSystemMessage => ({
  role: "system",
  content: block.text,
});
const SYSTEM_MESSAGES = new WeakMap<StepBlock, AISDKSystemMessage>();

const AI_SDK = new Adapter<AISDKRequest<unknown>>(ANTHROPIC, {
  // Only the Anthropic provider documents deferred tools
  // (`providerOptions.anthropic.deferLoading`).
  defers: (profile) => profile.provider === "anthropic",
  system: (_prompt, blocks, mark, plan) => ({
    system: Object.freeze(blocks.map((block, i) => {
      const marked = cacheOptions(mark, plan.provider, i);
      return "providerOptions" in marked
        ? Object.freeze({ ...systemMessage(block), ...marked })
        : unmarked(SYSTEM_MESSAGES, block, systemMessage);
    })) as AISDKSystemMessage[],
  }),
  tools(tools, mark, plan, extra) {
    const jsonSchema = extra as (schema: object) => unknown;
    const toolOf = (tool: ToolEntry): AISDKTool<unknown> => ({
      description: tool.description,
      inputSchema: jsonSchema(tool.parameters),
    });
    // Every name is an own property, `__proto__` too.
    const set: Record<string, AISDKTool<unknown>> = {};
    tools.forEach((tool, i) => {
      const wire = wireOf(tool, jsonSchema, toolOf);
      const marked = cacheOptions(
        mark,
        plan.provider,
        { tool: i },
        tool.deferred,
      );
      const value = "providerOptions" in marked
        ? Object.freeze({ ...wire, ...marked })
        : wire;
      Object.defineProperty(set, tool.name, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    });
    return { tools: Object.freeze(set) };
  },
  message: userMessage,
});

/**
 * The provider options that carry a breakpoint: Anthropic's `cacheControl`
 * or Bedrock's `cachePoint`, by the profile's provider; and, with the
 * Anthropic provider, a deferred tool's `deferLoading`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AISDKCacheOptions } from "@dsh/system-prompt/adapters";
 *
 * const options: AISDKCacheOptions = { anthropic: { cacheControl: { type: "ephemeral" } } };
 * assert.ok("anthropic" in options);
 * ```
 */
export type AISDKCacheOptions =
  | {
    anthropic:
      | { cacheControl: { type: "ephemeral"; ttl?: "1h" }; deferLoading?: true }
      | { deferLoading: true };
  }
  | { bedrock: { cachePoint: { type: "default"; ttl?: "1h" } } };

/**
 * A system message of `system`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AISDKSystemMessage } from "@dsh/system-prompt/adapters";
 *
 * const message: AISDKSystemMessage = { role: "system", content: "Hi." };
 * assert.equal(message.role, "system");
 * ```
 */
export type AISDKSystemMessage = {
  role: "system";
  content: string;
  providerOptions?: AISDKCacheOptions;
};

/**
 * A tool of `tools`, without `execute` (add one to run it in the SDK).
 *
 * @typeParam S What the host's `jsonSchema` returns.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AISDKTool } from "@dsh/system-prompt/adapters";
 *
 * const tool: AISDKTool<object> = { description: "Runs a command.", inputSchema: {} };
 * assert.equal(tool.description, "Runs a command.");
 * ```
 */
export type AISDKTool<S> = {
  /** The tool's description. */
  description: string;
  inputSchema: S;
  providerOptions?: AISDKCacheOptions;
};

/**
 * Options of {@linkcode toAISDK}.
 *
 * @typeParam S What `jsonSchema` returns.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AISDKOptions } from "@dsh/system-prompt/adapters";
 *
 * const options: AISDKOptions<object> = { jsonSchema: () => ({}) };
 * assert.equal(typeof options.jsonSchema, "function");
 * ```
 */
export interface AISDKOptions<S> extends AdapterOptions {
  /**
   * The AI SDK's `jsonSchema` (from `"ai"`): called with each tool's
   * parameters. Typed loosely so that the SDK's own function fits.
   */
  jsonSchema: (schema: never) => S;
}

/**
 * What {@linkcode toAISDK} returns.
 *
 * @typeParam S What the host's `jsonSchema` returns.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type AISDKRequest, toAISDK } from "@dsh/system-prompt/adapters";
 *
 * const request: AISDKRequest<object> = toAISDK(
 *   { sections: [], tools: [], variables: {} },
 *   { jsonSchema: () => ({}) },
 * );
 * assert.deepEqual(request.tools, {});
 * ```
 */
export interface AISDKRequest<S> {
  /** The system prompt as system messages, one per block. */
  system: AISDKSystemMessage[];
  /** The tools by name. */
  tools: Record<string, AISDKTool<S>>;
  /** The runtime context as a user message; absent when there is none. */
  contextMessage?: { role: "user"; content: string };
  /** Where the breakpoints are, and why. */
  plan: CachePlan;
}
