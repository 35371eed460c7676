/**
 * What every adapter does around its provider's shape: the plan, the
 * breakpoints it chose, the prompt's text, and the runtime context as the
 * provider's message.
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

/** A breakpoint as the providers spell it: `ttl` only for `"1h"`, not the default 5 minutes. */
export type Mark<T extends string> = { type: T; ttl?: "1h" };

/** The parts of one request before the provider's shape is applied. */
export interface Prepared {
  plan: CachePlan;
  /** The blocks' texts joined: exactly `renderPrompt(assembly)`. */
  text(): string;
  /** The breakpoint after the tools or a block, if the plan put one there. */
  mark<T extends string>(after: "tools" | number, type: T): Mark<T> | undefined;
  /** The request, with the runtime context (if any) as `contextMessage`. */
  finish<R extends { contextMessage?: unknown }>(
    request: R,
    message: (context: string) => NonNullable<R["contextMessage"]>,
  ): R;
}

export function prepare(
  assembly: PromptAssembly,
  profile: ProviderProfile,
  options: AdapterOptions,
): Prepared {
  const plan = planCache(assembly, options.profile ?? profile, options);
  const context = renderContext(assembly);
  return {
    plan,
    text: () => plan.blocks.map((block) => block.text).join(""),
    mark: (after, type) => {
      const ttl = plan.choices.find((choice) =>
        choice.chosen && choice.after === after
      )?.ttl;
      if (ttl === undefined) return undefined;
      return ttl === "1h" ? { type, ttl } : { type };
    },
    finish: (request, message) => {
      if (context !== "") request.contextMessage = message(context);
      return request;
    },
  };
}

/** The runtime context as a user message of text. */
export const userMessage = (
  content: string,
): { role: "user"; content: string } => ({ role: "user", content });

/** A tool's parameters as JSON (the registry keeps them JSON-safe). */
export const parametersOf = (tool: ToolSchema): JsonObject =>
  tool.parameters as JsonObject;
