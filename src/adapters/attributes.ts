/**
 * `stepAttributes`: a step as the attributes of the host's OpenTelemetry
 * span, under the GenAI semantic conventions, plus the library's manifest of
 * the prompt's parts. No OpenTelemetry import: plain values a span accepts.
 *
 * @module
 */

import type { PromptAssembly, RenderedStep } from "../../mod.ts";
import type { CacheReport } from "./cache_report.ts";
import { fixedPlan, fixedTool, memoFor } from "./_ledger_memo.ts";
import { planOf, stepPrefix } from "./_ledger_parts.ts";
import type { CachePlan } from "./plan.ts";
import { planCache } from "./plan_cache.ts";
import { ANTHROPIC } from "./profiles.ts";
import { estimateTokens } from "../../inspect.ts";

/**
 * A value an OpenTelemetry span attribute takes.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AttributeValue } from "@dsh/system-prompt/adapters";
 *
 * const value: AttributeValue = ["a", "b"];
 * assert.equal(value.length, 2);
 * ```
 */
export type AttributeValue =
  | string
  | number
  | boolean
  | string[]
  | number[]
  | boolean[];

/**
 * Options of {@linkcode stepAttributes}.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { StepAttributesOptions } from "@dsh/system-prompt/adapters";
 *
 * const options: StepAttributesOptions = { model: "claude-sonnet-4-5" };
 * assert.equal(options.model, "claude-sonnet-4-5");
 * ```
 */
export interface StepAttributesOptions {
  /** The adapter's result: its plan gives the blocks, the provider and the parts. */
  request?: object;
  /** The ledger's report: usage, cause, cost. */
  report?: CacheReport;
  /** The model, when no report names it. */
  model?: string;
}

/** OpenTelemetry's `gen_ai.provider.name` for each plan provider. */
const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  anthropic: "anthropic",
  openai: "openai",
  bedrock: "aws.bedrock",
  gemini: "gcp.gemini",
};

/** The JSON of a frozen plan's blocks and of a frozen step's tools: fixed. */
const INSTRUCTIONS = new WeakMap<object, string>();
const DEFINITIONS = new WeakMap<object, string>();

function remembered(
  memory: WeakMap<object, string>,
  key: object,
  fixed: boolean,
  make: () => string,
): string {
  let json = fixed ? memory.get(key) : undefined;
  if (json === undefined) {
    json = make();
    if (fixed) memory.set(key, json);
  }
  return json;
}

/** The namespace of the library's own attributes. */
const NS = "dsh.system_prompt";

/**
 * The attributes of a step for an OpenTelemetry span: under the GenAI
 * semantic conventions `gen_ai.system_instructions` (a JSON string of text
 * parts, one per cache block, that join to the prompt),
 * `gen_ai.tool.definitions` (JSON), `gen_ai.provider.name`,
 * `gen_ai.request.model`, and from a report `gen_ai.usage.input_tokens`
 * (cached included), `gen_ai.usage.cache_read.input_tokens` and
 * `gen_ai.usage.cache_creation.input_tokens`; under `dsh.system_prompt.*`
 * the manifest of parts (parallel arrays: `part.kind`, `part.name`,
 * `part.owner` (`""` for the root), `part.layer`, `part.stability`,
 * `part.tokens`, `part.hash`) and the cache report (`cache.expected`,
 * `cache.cause`, `cache.invalidated`, `cache.change.part`,
 * `cache.change.owner`, `cache.cost_usd`).
 *
 * @param step The assembly or rendered step.
 * @param options The request, the ledger's report, the model.
 * @returns Flat attributes.
 * @throws {PromptError} `invalid-value` for a `request` that is not an
 * adapter's result.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { stepAttributes, toAnthropic } from "@dsh/system-prompt/adapters";
 *
 * const assembly = {
 *   sections: [{ name: "persona", order: 0, text: "Be brief.", owner: "agent-loop" }],
 *   tools: [{ name: "bash", description: "Runs a command.", parameters: { type: "object" } }],
 *   variables: {},
 * };
 * const attributes = stepAttributes(assembly, { request: toAnthropic(assembly) });
 * assert.equal(attributes["gen_ai.provider.name"], "anthropic");
 * assert.deepEqual(JSON.parse(String(attributes["gen_ai.system_instructions"])), [{ type: "text", content: "Be brief." }]);
 * assert.deepEqual(attributes["dsh.system_prompt.part.owner"], ["", "agent-loop"]);
 * ```
 */
export function stepAttributes(
  step: PromptAssembly | RenderedStep,
  options: StepAttributesOptions = {},
): Record<string, AttributeValue> {
  const { request, report } = options;
  const plan: CachePlan = request !== undefined
    ? planOf(request)
    : planCache(step, ANTHROPIC, { cache: false });
  const out: Record<string, AttributeValue> = {};
  const provider = report?.provider ?? (request ? plan?.provider : undefined);
  if (provider !== undefined) {
    out["gen_ai.provider.name"] = PROVIDER_NAMES[provider] ?? provider;
  }
  const model = report?.model ?? options.model;
  if (model !== undefined) out["gen_ai.request.model"] = model;
  out["gen_ai.system_instructions"] = remembered(
    INSTRUCTIONS,
    plan,
    fixedPlan(plan),
    () =>
      JSON.stringify(
        plan.blocks.map((block) => ({ type: "text", content: block.text })),
      ),
  );
  const tools = step.tools;
  out["gen_ai.tool.definitions"] = remembered(
    DEFINITIONS,
    tools,
    Object.isFrozen(tools) && tools.every(fixedTool),
    () =>
      JSON.stringify(
        tools.map((tool) => ({
          type: "function",
          name: tool.name,
          description: tool.description,
          parameters: tool.parameters,
        })),
      ),
  );
  if (report !== undefined) {
    out["gen_ai.usage.input_tokens"] = report.read + report.written +
      report.uncached;
    out["gen_ai.usage.cache_read.input_tokens"] = report.read;
    out["gen_ai.usage.cache_creation.input_tokens"] = report.written;
  }
  const { parts } = stepPrefix(step, { plan, memo: memoFor(estimateTokens) });
  out[`${NS}.part.kind`] = parts.map((p) => p.kind);
  out[`${NS}.part.name`] = parts.map((p) => p.name);
  out[`${NS}.part.owner`] = parts.map((p) => p.owner ?? "");
  out[`${NS}.part.layer`] = parts.map((p) => p.layer ?? "");
  out[`${NS}.part.stability`] = parts.map((p) => p.stability);
  out[`${NS}.part.tokens`] = parts.map((p) => p.tokens);
  out[`${NS}.part.hash`] = parts.map((p) => p.hash);

  if (report !== undefined) {
    out[`${NS}.cache.expected`] = report.expected;
    out[`${NS}.cache.invalidated`] = report.invalidated;
    if (report.cause !== undefined) out[`${NS}.cache.cause`] = report.cause;
    if (report.detail !== undefined) out[`${NS}.cache.detail`] = report.detail;
    if (report.change !== undefined) {
      out[`${NS}.cache.change.part`] = report.change.name;
      out[`${NS}.cache.change.kind`] = report.change.kind;
      out[`${NS}.cache.change.owner`] = report.change.owner ?? "";
    }
    if (report.cost !== undefined) out[`${NS}.cache.cost_usd`] = report.cost;
  }
  return out;
}
