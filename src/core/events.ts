/**
 * The events of the registry: the `system-prompt/assemble` waterfall, the
 * `system-prompt/change` notifications, and what the opt-in audit records.
 *
 * @module
 */

import type { AssembleContext } from "./context.ts";
import type { PromptAssembly } from "./types.ts";

/**
 * A `system-prompt/assemble` handler: returns the next assembly, or
 * `undefined` to keep the one it got (which it may have mutated).
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AssembleHandler } from "@dsh/system-prompt";
 *
 * const noTools: AssembleHandler = (assembly) => ({ ...assembly, tools: [] });
 * assert.equal(typeof noTools, "function");
 * ```
 */
export type AssembleHandler<C = AssembleContext> = (
  assembly: PromptAssembly,
  context: C,
) =>
  | PromptAssembly
  | undefined
  | void
  | PromiseLike<PromptAssembly | undefined | void>;

/**
 * What a `system-prompt/change` event says: one per registration and one per
 * unregistration.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type PromptChange, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * const seen: PromptChange[] = [];
 * prompt.on("system-prompt/change", (change) => void seen.push(change));
 * prompt.scope("git").variable("branch", () => "main");
 * assert.deepEqual(seen, [
 *   { kind: "variable", action: "register", name: "branch", owner: "git" },
 * ]);
 * ```
 */
export interface PromptChange {
  /** What kind of registration changed (`items` is an item provider). */
  kind:
    | "section"
    | "variable"
    | "tools"
    | "item"
    | "items"
    | "assemble-handler";
  /** Whether it came or went. */
  action: "register" | "unregister";
  /** The section, variable or item name; absent for providers and handlers. */
  name?: string;
  /** For an item or item provider, the list it contributes to. */
  list?: string;
  /** The owner of the registration; absent for the root registry. */
  owner?: string;
}

/**
 * A `system-prompt/change` listener.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ChangeListener } from "@dsh/system-prompt";
 *
 * const log: ChangeListener = (change) => void change.kind;
 * assert.equal(typeof log, "function");
 * ```
 */
export type ChangeListener = (change: PromptChange) => void;

/**
 * The registry's events and their handler types, so `on()` infers the
 * handler from the event name.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { PromptEvents } from "@dsh/system-prompt";
 *
 * const names: (keyof PromptEvents)[] = [
 *   "system-prompt/assemble",
 *   "system-prompt/change",
 * ];
 * assert.equal(names.length, 2);
 * ```
 */
export interface PromptEvents<C = AssembleContext> {
  /** Waterfall: reshape the assembly for one caller. */
  "system-prompt/assemble": AssembleHandler<C>;
  /** Emit: a registration came or went. */
  "system-prompt/change": ChangeListener;
}

/**
 * The handler `on(event, handler)` takes for event name `E`: the handler of
 * that event, or `never` when `E` is a union of event names. A handler
 * passed for "one of the two events" would be called with the wrong
 * arguments for one of them, so that is a type error.
 *
 * @typeParam C The context type of the registry.
 * @typeParam E The event name.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { EventHandler, PromptEvents } from "@dsh/system-prompt";
 *
 * const listener: EventHandler<object, "system-prompt/change"> = (change) =>
 *   void change.kind;
 * // Either event: no handler fits both.
 * type Either = EventHandler<object, keyof PromptEvents>;
 * const none: Either[] = [];
 * assert.equal(typeof listener, "function");
 * assert.equal(none.length, 0);
 * ```
 */
export type EventHandler<C, E extends keyof PromptEvents<C>> = {
  [K in keyof PromptEvents<C>]: [E] extends [K] ? PromptEvents<C>[K] : never;
}[keyof PromptEvents<C>];
