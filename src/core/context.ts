/**
 * What every part of the registry is a function of: the context of one
 * `assemble()` call, a section's text, and how often a section changes.
 *
 * @module
 */

/**
 * What one `assemble()` call is for. Declared empty and merge-extensible:
 * another package adds its fields by declaration merging, and every provider
 * must tolerate their absence (a bare `assemble()` passes `{}`).
 *
 * @example Augmenting the context
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 *
 * interface Agent {
 *   model: string;
 * }
 * // In a consumer module:
 * // declare module "@dsh/system-prompt" {
 * //   interface AssembleContext { agent?: Agent }
 * // }
 * // A JSR package cannot declare modules; it narrows the registry instead:
 * const prompt = new SystemPrompt<{ agent?: Agent }>();
 * prompt.variable("model", (context) => context.agent?.model);
 * const assembly = await prompt.assemble({ agent: { model: "m-1" } });
 * assert.equal(assembly.variables.model, "m-1");
 * ```
 */
// deno-lint-ignore no-empty-interface -- merge-extensible by design
export interface AssembleContext {}

/**
 * A section's text: a string, or a function of the context that returns one.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AssembleContext, SectionText } from "@dsh/system-prompt";
 *
 * const text: SectionText<AssembleContext> = () => "Be brief.";
 * assert.equal(typeof text, "function");
 * ```
 */
export type SectionText<C> = string | ((context: C) => string);

/**
 * How often a section's rendered text changes, for prompt caching:
 * `"static"` (never, while the registry lives; the default), `"session"`
 * (now and then: a working directory, a git branch) or `"step"` (every
 * step: a clock). See `cacheBlocks`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { Stability } from "@dsh/system-prompt";
 *
 * const clock: Stability = "step";
 * assert.equal(clock, "step");
 * ```
 */
export type Stability = "static" | "session" | "step";
