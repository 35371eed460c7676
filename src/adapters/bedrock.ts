/**
 * `toBedrock`: the `system` and `toolConfig` of an Amazon Bedrock Converse
 * request, with `cachePoint` blocks.
 *
 * @module
 */

import type { PromptAssembly, RenderedStep, StepBlock } from "../../mod.ts";
import type { JsonObject } from "./json.ts";
import { Adapter, type Marker, unmarked } from "./_request.ts";
import { type ToolEntry, wireOf } from "./_counts.ts";
import type { AdapterOptions, CachePlan } from "./plan.ts";
import { BEDROCK } from "./profiles.ts";

/**
 * The `system` and `toolConfig` of a Bedrock Converse request, with
 * `cachePoint` blocks where {@linkcode planCache} puts them by the Bedrock
 * profile, whose minimum applies to each checkpoint's increment. The text
 * blocks join to exactly the step's prompt (`renderPrompt(assembly)`). Converse wants user and
 * assistant turns to alternate: add `contextMessage.content` to the last
 * user message rather than sending a second one.
 *
 * @param source A step from `render()`, or an assembly.
 * @param options The model, profile, token counter and cache options.
 * @returns The request fields, the context message and the plan.
 * @throws {PromptError} As {@linkcode planCache} does.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { toBedrock } from "@dsh/system-prompt/adapters";
 *
 * const { system, toolConfig } = toBedrock({
 *   sections: [{ name: "persona", order: 0, text: "You are a coding agent. ".repeat(300) }],
 *   tools: [{ name: "bash", description: "Runs a command.", parameters: { type: "object" } }],
 *   variables: {},
 * }, { model: "anthropic.claude-sonnet-4-5-20250929-v1:0" });
 * assert.deepEqual(system.slice(1), [{ cachePoint: { type: "default" } }]);
 * assert.equal(toolConfig?.tools.length, 1); // the tools alone are under the minimum
 * ```
 */
export function toBedrock(
  source: PromptAssembly | RenderedStep,
  options: AdapterOptions = {},
): BedrockRequest {
  return BEDROCK_REQUESTS.request(source, { options });
}

const toolSpec = (tool: ToolEntry): BedrockTool => ({
  toolSpec: Object.freeze({
    name: tool.name,
    description: tool.description,
    inputSchema: Object.freeze({ json: tool.parameters as JsonObject }),
  }),
});

const textBlock = (block: StepBlock) => ({ text: block.text });
const TEXT_BLOCKS = new WeakMap<StepBlock, { text: string }>();

/** The checkpoint after a block or a tool, if the plan put one there. */
const point = (
  mark: Marker,
  after: number | { tool: number },
): BedrockCachePoint[] => {
  const cachePoint = mark(after, "default");
  return cachePoint === undefined ? [] : [Object.freeze({ cachePoint })];
};

const BEDROCK_REQUESTS = new Adapter<BedrockRequest>(BEDROCK, {
  defers: () => false,
  system: (_prompt, blocks, mark) => ({
    system: Object.freeze(
      blocks.flatMap((block, i) => [
        unmarked(TEXT_BLOCKS, block, textBlock),
        ...point(mark, i),
      ]),
    ) as BedrockSystemBlock[],
  }),
  // Converse has no deferred tools: each is sent in full (the plan notes
  // it). A checkpoint follows the tool the plan marked. None: no field.
  tools: (tools, mark) =>
    tools.length === 0 ? {} : {
      toolConfig: Object.freeze({
        tools: Object.freeze(tools.flatMap((tool, i) => [
          wireOf(tool, toolSpec, toolSpec),
          ...point(mark, { tool: i }),
        ])) as NonNullable<BedrockRequest["toolConfig"]>["tools"],
      }),
    },
  message: (context) => ({ role: "user", content: [{ text: context }] }),
});

/**
 * A cache checkpoint: `ttl` is absent for the default 5 minutes.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { BedrockCachePoint } from "@dsh/system-prompt/adapters";
 *
 * const point: BedrockCachePoint = { cachePoint: { type: "default" } };
 * assert.equal(point.cachePoint.type, "default");
 * ```
 */
export interface BedrockCachePoint {
  /** The checkpoint. */
  cachePoint: { type: "default"; ttl?: "1h" };
}

/**
 * A block of `system`: text, or a checkpoint after the text before it.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { BedrockSystemBlock } from "@dsh/system-prompt/adapters";
 *
 * const blocks: BedrockSystemBlock[] = [{ text: "Hi." }, { cachePoint: { type: "default" } }];
 * assert.equal(blocks.length, 2);
 * ```
 */
export type BedrockSystemBlock = { text: string } | BedrockCachePoint;

/**
 * A tool of `toolConfig.tools`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { BedrockTool } from "@dsh/system-prompt/adapters";
 *
 * const tool: BedrockTool = { toolSpec: { name: "bash", description: "", inputSchema: { json: {} } } };
 * assert.equal(tool.toolSpec.name, "bash");
 * ```
 */
export interface BedrockTool {
  /** The tool, its parameters as JSON. */
  toolSpec: {
    name: string;
    description: string;
    inputSchema: { json: JsonObject };
  };
}

/**
 * What {@linkcode toBedrock} returns.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type BedrockRequest, toBedrock } from "@dsh/system-prompt/adapters";
 *
 * const request: BedrockRequest = toBedrock({ sections: [], tools: [], variables: {} });
 * assert.equal(request.toolConfig, undefined);
 * ```
 */
export interface BedrockRequest {
  /** The system prompt's text blocks, each chosen one followed by a checkpoint. */
  system: BedrockSystemBlock[];
  /**
   * The tools, a checkpoint after them if planned (and one after the last
   * static tool before the first session tool); absent for none.
   */
  toolConfig?: { tools: (BedrockTool | BedrockCachePoint)[] };
  /** The runtime context as a user message; absent when there is none. */
  contextMessage?: { role: "user"; content: { text: string }[] };
  /** Where the breakpoints are, and why. */
  plan: CachePlan;
}
