/**
 * The options of the registry and of one `assemble()` call.
 *
 * @module
 */

import type { PromptError } from "./errors.ts";

/**
 * The arguments of `assemble()`: the context may be left out only when every
 * field of `C` is optional, since a left-out context is `{}`.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AssembleArgs } from "@dsh/system-prompt";
 *
 * const none: AssembleArgs<{ cwd?: string }> = [];
 * const one: AssembleArgs<{ cwd: string }> = [{ cwd: "/" }];
 * assert.equal(none.length + one.length, 1);
 * ```
 */
export type AssembleArgs<C> = Record<never, never> extends C
  ? [context?: C, options?: AssembleOptions]
  : [context: C, options?: AssembleOptions];

/**
 * Options of one `assemble()` call.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type AssembleOptions, SystemPrompt } from "@dsh/system-prompt";
 *
 * const options: AssembleOptions = { audit: true };
 * const assembly = await new SystemPrompt().assemble({}, options);
 * assert.deepEqual(assembly.audit, []);
 * ```
 */
export interface AssembleOptions {
  /**
   * Record in `assembly.audit` what each `system-prompt/assemble` handler
   * added, removed or changed. Costs a snapshot of the assembly per handler.
   * @default {false}
   */
  audit?: boolean;
}

/**
 * Options of {@linkcode SystemPrompt}.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { PromptError, SystemPrompt } from "@dsh/system-prompt";
 *
 * const errors: PromptError[] = [];
 * const prompt = new SystemPrompt({ onListenerError: (e) => void errors.push(e) });
 * prompt.on("system-prompt/change", () => {
 *   throw new Error("boom");
 * });
 * prompt.variable("x", () => "1");
 * assert.equal(errors[0]?.code, "listener-failed");
 * ```
 */
export interface SystemPromptOptions {
  /**
   * Receives the `listener-failed` error of a `system-prompt/change`
   * listener that threw; the registration it was told about stands. Must
   * not throw.
   * @default {(error) => console.error(error)}
   */
  onListenerError?: (error: PromptError) => void;
  /**
   * The text placed between two rendered sections, carried by every
   * assembly as `separator`. A section's own `separator` overrides it.
   * @default {"\n\n"}
   */
  separator?: string;
}
