/**
 * `toAnthropic`: the `system` and `tools` of an Anthropic Messages request.
 *
 * @module
 */

import type { PromptAssembly } from "../../mod.ts";
import { parametersOf, prepare, userMessage } from "./_request.ts";
import type { AdapterOptions, CachePlan } from "./plan.ts";
import { ANTHROPIC } from "./profiles.ts";

/**
 * The `system` and `tools` of an Anthropic Messages request for an
 * assembly, with cache breakpoints where {@linkcode planCache} puts them
 * by the Anthropic profile (tools, then system, are the cached prefix).
 * The blocks' texts join to exactly `renderPrompt(assembly)`.
 *
 * @param assembly The assembly.
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
 * const assembly = await prompt.assemble({ time: "09:00" });
 *
 * const { system, plan } = toAnthropic(assembly, { model: "claude-sonnet-4-5" });
 * assert.deepEqual(system.map((b) => b.cache_control), [{ type: "ephemeral" }, undefined]);
 * assert.equal(system.map((b) => b.text).join(""), renderPrompt(assembly));
 * assert.equal(plan.choices[0]?.reason, "stable-prefix");
 * ```
 */
export function toAnthropic(
  assembly: PromptAssembly,
  options: AdapterOptions = {},
): AnthropicRequest {
  const { plan, mark, finish } = prepare(assembly, ANTHROPIC, options);
  const control = (after: "tools" | number) => {
    const cache_control = mark(after, "ephemeral");
    return cache_control === undefined ? {} : { cache_control };
  };
  const last = assembly.tools.length - 1;
  return finish<AnthropicRequest>({
    system: plan.blocks.map((block, i) => ({
      type: "text",
      text: block.text,
      ...control(i),
    })),
    tools: assembly.tools.map((tool, i) => {
      const schema = parametersOf(tool);
      return {
        name: tool.name,
        description: tool.description,
        input_schema: (schema.type === undefined
          ? { type: "object", ...schema }
          : schema) as AnthropicTool["input_schema"],
        ...(i === last ? control("tools") : {}),
      };
    }),
    plan,
  }, userMessage);
}

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
  /** The tools; the last one carries a mark when the plan put one there. */
  tools: AnthropicTool[];
  /** The runtime context as a user message; absent when there is none. */
  contextMessage?: { role: "user"; content: string };
  /** Where the breakpoints are, and why. */
  plan: CachePlan;
}
