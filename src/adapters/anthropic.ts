/**
 * `toAnthropic`: the `system` and `tools` of an Anthropic Messages request.
 *
 * @module
 */

import type { PromptAssembly, RenderedStep, StepBlock } from "../../mod.ts";
import { Adapter, unmarked, userMessage } from "./_request.ts";
import { type ToolEntry, wireOf } from "./_counts.ts";
import type { JsonObject } from "./json.ts";
import type { AdapterOptions, CachePlan } from "./plan.ts";
import { ANTHROPIC } from "./profiles.ts";

/**
 * The `system` and `tools` of an Anthropic Messages request for a step
 * (from `render()`) or an assembly, with cache breakpoints where
 * {@linkcode planCache} puts them by the Anthropic profile (tools, then
 * system, are the cached prefix). The blocks' texts join to exactly the
 * step's prompt (`renderPrompt(assembly)`). The result is frozen, `plan`
 * and `contextMessage` are not enumerable: spread it into the SDK call.
 *
 * @param source The step or the assembly.
 * @param options The model, profile, token counter and cache options.
 * @returns The request fields, the context message and the plan.
 * @throws {PromptError} As {@linkcode planCache} does.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderPrompt, SystemPrompt } from "@dsh/system-prompt";
 * import { toAnthropic } from "@dsh/system-prompt/adapters";
 *
 * const prompt = new SystemPrompt<{ time: string }>();
 * prompt.section({ name: "persona", order: 0, text: "You are a careful coding agent. ".repeat(200) });
 * prompt.section({ name: "clock", order: 900, stability: "step", text: (c) => `It is ${c.time}.` });
 * const step = await prompt.render({ time: "09:00" }, { agent: "main" });
 *
 * const request = toAnthropic(step, { model: "claude-sonnet-4-5" });
 * assert.deepEqual(request.system.map((b) => b.cache_control), [{ type: "ephemeral" }, undefined]);
 * assert.equal(request.system.map((b) => b.text).join(""), step.prompt);
 * assert.equal(request.plan.choices[0]?.reason, "stable-prefix");
 * assert.deepEqual(Object.keys(request), ["system", "tools"]);
 * // The same step again: the same request.
 * assert.equal(toAnthropic(step, { model: "claude-sonnet-4-5" }), request);
 * // The same content as an assembly: an equal request.
 * const assembly = await prompt.assemble({ time: "09:00" });
 * assert.deepEqual(toAnthropic(assembly, { model: "claude-sonnet-4-5" }), request);
 * assert.equal(renderPrompt(assembly), step.prompt);
 * ```
 */
export function toAnthropic(
  source: PromptAssembly | RenderedStep,
  options: AdapterOptions = {},
): AnthropicRequest {
  return ANTHROPIC_REQUESTS.request(source, { options });
}

const toolOf = (tool: ToolEntry): AnthropicTool => {
  const schema = tool.parameters as JsonObject;
  const wire: AnthropicTool = {
    name: tool.name,
    description: tool.description,
    // A spread keeps the copy's key order: `type` first, then the rest.
    input_schema:
      (schema.type === undefined
        ? Object.freeze({ type: "object", ...schema })
        : schema) as AnthropicTool["input_schema"],
  };
  if (tool.deferred) wire.defer_loading = true;
  return wire;
};

const textBlock = (block: StepBlock): AnthropicTextBlock => ({
  type: "text",
  text: block.text,
});
const TEXT_BLOCKS = new WeakMap<StepBlock, AnthropicTextBlock>();

const ANTHROPIC_REQUESTS = new Adapter<AnthropicRequest>(ANTHROPIC, {
  defers: () => true,
  system: (_prompt, blocks, mark) => ({
    system: Object.freeze(blocks.map((block, i) => {
      const cache_control = mark(i, "ephemeral");
      return cache_control === undefined
        ? unmarked(TEXT_BLOCKS, block, textBlock)
        : Object.freeze({ ...textBlock(block), cache_control });
    })) as AnthropicTextBlock[],
  }),
  tools: (tools, mark) => ({
    tools: Object.freeze(tools.map((tool, i) => {
      const wire = wireOf(tool, toolOf, toolOf);
      // After the tools, or after the static ones before a session tool.
      const cache_control = mark({ tool: i }, "ephemeral");
      return cache_control === undefined
        ? wire
        : Object.freeze({ ...wire, cache_control });
    })) as AnthropicTool[],
  }),
  message: userMessage,
});

/**
 * A cache breakpoint: `ttl` is absent for the default 5 minutes.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AnthropicCacheControl } from "@dsh/system-prompt/adapters";
 *
 * const mark: AnthropicCacheControl = { type: "ephemeral", ttl: "1h" };
 * assert.equal(mark.ttl, "1h");
 * ```
 */
export type AnthropicCacheControl = { type: "ephemeral"; ttl?: "1h" };

/**
 * A text block of `system`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AnthropicTextBlock } from "@dsh/system-prompt/adapters";
 *
 * const block: AnthropicTextBlock = { type: "text", text: "Hi." };
 * assert.equal(block.type, "text");
 * ```
 */
export interface AnthropicTextBlock {
  /** Always `"text"`. */
  type: "text";
  /** A block of the prompt, with the separator before it. */
  text: string;
  /** Present where the plan put a breakpoint. */
  cache_control?: AnthropicCacheControl;
}

/**
 * A client tool.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AnthropicTool } from "@dsh/system-prompt/adapters";
 *
 * const tool: AnthropicTool = { name: "bash", description: "Runs a command.", input_schema: { type: "object" } };
 * assert.equal(tool.input_schema.type, "object");
 * ```
 */
export interface AnthropicTool {
  /** The tool's name. */
  name: string;
  /** The tool's description. */
  description: string;
  /** The parameters, with `type: "object"` added when they had no `type`. */
  input_schema: { type: "object"; [key: string]: unknown };
  /**
   * `true` for a tool with `deferLoading`: out of the prompt until the
   * model's tool search loads it (add a tool search tool to the request).
   */
  defer_loading?: true;
  /** Present where the plan put a breakpoint. */
  cache_control?: AnthropicCacheControl;
}

/**
 * What {@linkcode toAnthropic} returns: spread `system` and `tools` into
 * `messages.create()`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type AnthropicRequest, toAnthropic } from "@dsh/system-prompt/adapters";
 *
 * const request: AnthropicRequest = toAnthropic({ sections: [], tools: [], variables: {} });
 * assert.deepEqual(request.system, []);
 * ```
 */
export interface AnthropicRequest {
  /** The system prompt in blocks, with the plan's `cache_control` marks. */
  system: AnthropicTextBlock[];
  /**
   * The tools; the last one in the prompt carries a mark when the plan put
   * one there, and the last static one before the first session tool too.
   */
  tools: AnthropicTool[];
  /** The runtime context as a user message; absent when there is none. */
  contextMessage?: { role: "user"; content: string };
  /** Where the breakpoints are, and why. */
  plan: CachePlan;
}
