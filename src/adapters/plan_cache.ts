/**
 * `planCache`: which blocks of a request get a cache breakpoint, and why.
 *
 * @module
 */

import type { PromptAssembly, RenderedStep } from "../../mod.ts";
import { stepBlocks } from "./_blocks.ts";
import { entriesOf } from "./_counts.ts";
import { planFrom, settingsOf } from "./_plan.ts";
import type { CachePlan, PlanCacheOptions } from "./plan.ts";
import type { ProviderProfile } from "./profiles.ts";

/**
 * Plans the cache breakpoints of one request by a provider's documented
 * rules: it never places more than the profile's maximum (less the
 * `reserve` left for messages), never at or after a `"step"` block, never
 * where the profile says nothing would be cached (a prefix, or for
 * Bedrock an increment since the previous breakpoint, under the model's
 * minimum). It picks, in this order while the budget lasts: the end of the
 * stable prefix (every later step reads it), the end of the static part
 * (with session tools, an MCP server's, after static ones: the end of
 * those static tools, `"tools-static"`), the end of the tools, other
 * stability boundaries; and says why each place was chosen or skipped
 * (the static tools' place only where it keeps more cached than another
 * use of the budget). A deferred tool (`deferLoading`, where the profile's
 * API takes it) is not in the prompt: it is counted in no prefix and never
 * marked. For a provider that caches by itself (OpenAI, Gemini) it places
 * none and notes whether the stable prefix reaches the minimum.
 *
 * @param source The assembly, or a step from `render()` (its blocks and
 * tools, no render again).
 * @param profile The provider's rules.
 * @param options The model, a token counter, the reserve and TTL.
 * @returns The plan, frozen.
 * @throws {PromptError} `invalid-option` for a `reserve` that is not a
 * non-negative integer, a TTL the profile does not offer, or a
 * `countTokens` that throws or returns anything but a non-negative finite
 * number; otherwise as `renderPrompt` does.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { BEDROCK, planCache } from "@dsh/system-prompt/adapters";
 *
 * const plan = planCache({
 *   sections: [
 *     { name: "persona", order: 0, text: "You are a coding agent. ".repeat(300) },
 *     { name: "clock", order: 900, text: "It is 09:00.", stability: "step" },
 *   ],
 *   tools: [{ name: "bash", description: "Runs a command. ".repeat(400), parameters: {} }],
 *   variables: {},
 * }, BEDROCK, { model: "anthropic.claude-sonnet-4-5-20250929-v1:0" });
 * assert.deepEqual(plan.choices.map((c) => [c.after, c.chosen, c.reason]), [
 *   ["tools", true, "tools"],
 *   [0, true, "stable-prefix"],
 *   [1, false, "after-step"],
 * ]);
 * ```
 */
export function planCache(
  source: PromptAssembly | RenderedStep,
  profile: ProviderProfile,
  options: PlanCacheOptions = {},
): CachePlan {
  const settings = settingsOf(options, profile);
  const tools = entriesOf(source.tools);
  const defers = profile.deferLoading === true;
  return planFrom(stepBlocks(source), { tools, settings, defers });
}
