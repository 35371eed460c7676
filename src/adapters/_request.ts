/**
 * What every adapter computes first: the plan, the runtime context's text,
 * and where the plan put a breakpoint.
 *
 * @module
 */

import {
  type PromptAssembly,
  renderContext,
  type ToolSchema,
} from "../../mod.ts";
import type { JsonObject } from "./json.ts";
import { type AdapterOptions, type CachePlan, planCache } from "./plan.ts";
import type { ProviderProfile } from "./profiles.ts";

/** The parts of one request before the provider's shape is applied. */
export interface Prepared {
  plan: CachePlan;
  /** The runtime context's text; `""` for none. */
  context: string;
  /** The TTL of the breakpoint after the tools or a block, if the plan put one. */
  mark(after: "tools" | number): "5m" | "1h" | undefined;
}

export function prepare(
  assembly: PromptAssembly,
  profile: ProviderProfile,
  options: AdapterOptions,
): Prepared {
  const plan = planCache(assembly, options.profile ?? profile, options);
  return {
    plan,
    context: renderContext(assembly),
    mark: (after) =>
      plan.choices.find((choice) => choice.chosen && choice.after === after)
        ?.ttl,
  };
}

/** A tool's parameters as JSON (the registry keeps them JSON-safe). */
export const parametersOf = (tool: ToolSchema): JsonObject =>
  tool.parameters as JsonObject;
