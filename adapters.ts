/**
 * Provider requests: an assembly turned into the fields each provider's
 * official SDK takes (system text with cache breakpoints, tools in the
 * provider's wire shape, the runtime context as a message), and the cache
 * plan behind the breakpoints, by each provider's documented rules.
 *
 * - {@linkcode toAnthropic}, {@linkcode toOpenAIResponses},
 *   {@linkcode toOpenAIChat}, {@linkcode toBedrock}, {@linkcode toGemini},
 *   {@linkcode toAISDK}.
 * - {@linkcode cacheAnthropicMessages}, {@linkcode cacheBedrockMessages},
 *   {@linkcode cacheAISDKMessages}: the host's last message marked in the
 *   slot the plan reserved.
 * - {@linkcode planCache} and the profiles {@linkcode ANTHROPIC},
 *   {@linkcode BEDROCK}, {@linkcode OPENAI}, {@linkcode GEMINI}.
 *
 * No SDK is imported: the results are plain objects whose types are
 * assignable to each SDK's parameter types.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderPrompt, SystemPrompt } from "@dsh/system-prompt";
 * import { toAnthropic } from "@dsh/system-prompt/adapters";
 *
 * const prompt = new SystemPrompt();
 * prompt.section({ name: "persona", order: 0, text: "You are a coding agent." });
 * prompt.tools(() => [{ name: "bash", description: "Runs a command.", parameters: { type: "object" } }]);
 * const assembly = await prompt.assemble();
 *
 * const { system, tools, plan } = toAnthropic(assembly, { model: "claude-sonnet-4-5" });
 * assert.equal(system.map((block) => block.text).join(""), renderPrompt(assembly));
 * assert.equal(tools[0]?.name, "bash");
 * // Too short to cache on this model: no breakpoint is wasted on it.
 * assert.ok(plan.choices.every((choice) => choice.reason === "under-minimum"));
 * ```
 *
 * @module
 */

export * from "./src/adapters/ai_sdk.ts";
export * from "./src/adapters/attributes.ts";
export * from "./src/adapters/cache_report.ts";
export * from "./src/adapters/ledger.ts";
export * from "./src/adapters/pricing.ts";
export * from "./src/adapters/anthropic.ts";
export * from "./src/adapters/bedrock.ts";
export * from "./src/adapters/gemini.ts";
export * from "./src/adapters/json.ts";
export * from "./src/adapters/messages.ts";
export * from "./src/adapters/openai.ts";
export * from "./src/adapters/plan.ts";
export * from "./src/adapters/plan_cache.ts";
export * from "./src/adapters/usage.ts";
export * from "./src/adapters/profiles.ts";
