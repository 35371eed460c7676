/**
 * `toGemini`: the `systemInstruction` and `tools` of a Gemini
 * `generateContent` config. Gemini caches repeated prefixes by itself
 * (implicit caching), so there is nothing to mark.
 *
 * @module
 */

import type { PromptAssembly, RenderedStep } from "../../mod.ts";
import type { JsonObject } from "./json.ts";
import { Adapter } from "./_request.ts";
import { type ToolEntry, wireOf } from "./_counts.ts";
import type { AdapterOptions, CachePlan } from "./plan.ts";
import { GEMINI } from "./profiles.ts";

/**
 * The `systemInstruction` and `tools` of a Gemini request. The instruction's
 * text is exactly the step's prompt (`renderPrompt(assembly)`).
 *
 * @param source A step from `render()`, or an assembly.
 * @param options The model, profile, token counter and cache options.
 * @returns The config fields, the context message and the plan.
 * @throws {PromptError} As {@linkcode planCache} does.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { toGemini } from "@dsh/system-prompt/adapters";
 *
 * const { systemInstruction, tools } = toGemini({
 *   sections: [{ name: "persona", order: 0, text: "You are a coding agent." }],
 *   tools: [{ name: "bash", description: "Runs a command.", parameters: { type: "object" } }],
 *   variables: {},
 * }, { model: "gemini-2.5-flash" });
 * assert.deepEqual(systemInstruction, { parts: [{ text: "You are a coding agent." }] });
 * assert.equal(tools[0]?.functionDeclarations[0]?.name, "bash");
 * ```
 */
export function toGemini(
  source: PromptAssembly | RenderedStep,
  options: AdapterOptions = {},
): GeminiRequest {
  return GEMINI_REQUESTS.request(source, { options });
}

const declaration = (tool: ToolEntry): GeminiFunctionDeclaration => ({
  name: tool.name,
  description: tool.description,
  parametersJsonSchema: tool.parameters as JsonObject,
});

const GEMINI_REQUESTS = new Adapter<GeminiRequest>(GEMINI, {
  // Gemini has no deferred tools: each is sent in full (the plan notes it).
  defers: () => false,
  // The step's prompt is the blocks joined: no join again.
  system: (text) => ({
    systemInstruction: Object.freeze({
      parts: Object.freeze(text === "" ? [] : [Object.freeze({ text })]),
    }) as GeminiRequest["systemInstruction"],
  }),
  tools: (tools) => {
    const functionDeclarations = Object.freeze(
      tools.map((tool) => wireOf(tool, declaration, declaration)),
    ) as GeminiFunctionDeclaration[];
    return {
      tools: Object.freeze(
        functionDeclarations.length === 0
          ? []
          : [Object.freeze({ functionDeclarations })],
      ) as GeminiRequest["tools"],
    };
  },
  message: (context) => ({ role: "user", parts: [{ text: context }] }),
});

/**
 * A function declaration, its parameters as JSON Schema.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { GeminiFunctionDeclaration } from "@dsh/system-prompt/adapters";
 *
 * const fn: GeminiFunctionDeclaration = { name: "bash", description: "", parametersJsonSchema: {} };
 * assert.equal(fn.name, "bash");
 * ```
 */
export interface GeminiFunctionDeclaration {
  /** The tool's name. */
  name: string;
  /** The tool's description. */
  description: string;
  /** The parameters, as JSON Schema. */
  parametersJsonSchema: JsonObject;
}

/**
 * What {@linkcode toGemini} returns: put `systemInstruction` and `tools` in
 * the request's `config`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type GeminiRequest, toGemini } from "@dsh/system-prompt/adapters";
 *
 * const request: GeminiRequest = toGemini({ sections: [], tools: [], variables: {} });
 * assert.deepEqual(request.systemInstruction, { parts: [] });
 * ```
 */
export interface GeminiRequest {
  /** The system prompt as one text part; no part for an empty prompt. */
  systemInstruction: { parts: { text: string }[] };
  /** One tool holding every function declaration; empty for none. */
  tools: { functionDeclarations: GeminiFunctionDeclaration[] }[];
  /** The runtime context as user content; absent when there is none. */
  contextMessage?: { role: "user"; parts: { text: string }[] };
  /** Where the breakpoints are, and why. */
  plan: CachePlan;
}
