/**
 * What `SystemPrompt.registrations()` describes.
 *
 * @module
 */

/**
 * The live registrations of a registry and their owners (absent for the
 * root registry), in the order an assembly uses them. Inspection tools read
 * it for what an assembly does not record, such as who owns a variable.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type PromptRegistrations, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * prompt.scope("bash").tools(() => []);
 * const registrations: PromptRegistrations = prompt.registrations();
 * assert.deepEqual(registrations.toolProviders, [{ owner: "bash" }]);
 * ```
 */
export interface PromptRegistrations {
  /** The sections, sorted as an assembly lists them; `list` marks a list. */
  sections: { name: string; order: number; list?: true; owner?: string }[];
  /** The variables, in registration order. */
  variables: { name: string; owner?: string }[];
  /** The tool providers, in registration order. */
  toolProviders: { owner?: string }[];
  /** The `system-prompt/assemble` handlers, by function name or `#index`. */
  handlers: { handler: string; owner?: string }[];
  /** The items registered with `item()`, by list, in registration order. */
  items: { list: string; name: string; owner?: string }[];
  /** The item providers registered with `items()`, in registration order. */
  itemProviders: { list: string; owner?: string }[];
}
