/**
 * The registration methods shared by the registry and its scopes.
 *
 * @module
 */

import type { Disposer } from "./disposer.ts";
import type { EventHandler, PromptEvents } from "./events.ts";
import type { ItemProvider, PromptItem } from "./items.ts";
import type { AssembleContext } from "./context.ts";
import type { PromptSection, ToolProvider, VariableProvider } from "./types.ts";

/**
 * The registration methods shared by the registry and its scopes.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type PromptRegistrar, SystemPrompt } from "@dsh/system-prompt";
 *
 * function install(registrar: PromptRegistrar): void {
 *   registrar.section({ name: "tool:read", order: 110, text: "read is not a shell." });
 * }
 * const prompt = new SystemPrompt();
 * install(prompt.scope("read"));
 * assert.equal((await prompt.assemble()).sections[0]?.owner, "read");
 * ```
 */
export interface PromptRegistrar<C = AssembleContext> {
  /**
   * Adds a section.
   *
   * @param section `{ name, order, text }`: a non-empty name unique among
   * live sections, a finite order, a string or a function of the context.
   * @returns Its disposer.
   * @throws {TypeError} If a field has the wrong JS type.
   * @throws {PromptError} `invalid-section` for an empty name or a
   * non-finite order; `duplicate-section` for a live name.
   */
  section(section: PromptSection<C>): Disposer;
  /**
   * Adds a variable, referenced from section text as `{{name}}`.
   *
   * @param name A reference name, unique among live variables.
   * @param provider Returns the value for one assembly, or `undefined`.
   * @returns Its disposer.
   * @throws {TypeError} If the provider is not a function.
   * @throws {PromptError} `invalid-variable-name` for a name a reference
   * cannot spell; `duplicate-variable` for a live name.
   */
  variable(name: string, provider: VariableProvider<C>): Disposer;
  /**
   * Adds a tool provider, evaluated at every assembly.
   *
   * @param provider Returns this assembly's tools.
   * @returns Its disposer.
   * @throws {TypeError} If the provider is not a function.
   */
  tools(provider: ToolProvider<C>): Disposer;
  /**
   * Adds an item to a list: the section named `list`, which must declare
   * `list` to render it, and need not exist yet.
   *
   * @param list The list's section name.
   * @param item `{ name, order, text, literal?, trim?, stability? }`: a name
   * unique within the list, an order that is a finite number or a function
   * of the context, a string or a function of the context.
   * @returns Its disposer.
   * @throws {TypeError} If a field has the wrong JS type.
   * @throws {PromptError} `invalid-item` for an empty name or a non-finite
   * order; `duplicate-item` for a name the list already has.
   */
  item(list: string, item: PromptItem<C>): Disposer;
  /**
   * Adds an item provider to a list: a collection that arrives with each
   * step (context files, skills), evaluated at every assembly.
   *
   * @param list The list's section name.
   * @param provider Returns this assembly's items.
   * @returns Its disposer.
   * @throws {TypeError} If the provider is not a function.
   */
  items(list: string, provider: ItemProvider<C>): Disposer;
  /**
   * Adds an `system-prompt/assemble` handler (a waterfall step) or a
   * `system-prompt/change` listener.
   *
   * @typeParam E The event name.
   * @param event The event name.
   * @param handler The handler for that event.
   * @returns Its disposer.
   * @throws {TypeError} For an unknown event or a handler that is not a
   * function.
   */
  on<E extends keyof PromptEvents<C>>(
    event: E,
    handler: EventHandler<C, E>,
  ): Disposer;
}
