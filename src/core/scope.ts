/**
 * Owner scopes: a registrar whose registrations go together.
 *
 * @module
 */

import { createDisposer, type Disposer } from "./disposer.ts";
import { scopeDisposed } from "./_errors.ts";
import type { PromptRegistrar } from "./registrar.ts";
import type { EventHandler, PromptEvents } from "./events.ts";
import type { ItemProvider, PromptItem } from "./items.ts";
import type { AssembleContext } from "./context.ts";
import type { PromptSection, ToolProvider, VariableProvider } from "./types.ts";

/**
 * A registrar whose registrations all carry one owner, and go together when
 * it is disposed. A host binds one scope to each plugin's lifetime.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * const bash = prompt.scope("bash");
 * bash.section({ name: "tool:bash", order: 105, text: "Check exit codes." });
 * bash.tools(() => [{ name: "bash", description: "Run a command.", parameters: {} }]);
 * bash.dispose();
 * const assembly = await prompt.assemble();
 * assert.deepEqual([assembly.sections, assembly.tools], [[], []]);
 * ```
 */
export interface PromptScope<C = AssembleContext>
  extends PromptRegistrar<C>, Disposable {
  /** The owner every registration of this scope carries. */
  readonly owner: string;
  /** Whether `dispose()` has run. */
  readonly disposed: boolean;
  /**
   * Removes every live registration of the scope, newest first. Idempotent.
   * Registering through a disposed scope throws `scope-disposed`.
   */
  dispose(): void;
}

/** A scope's registrations, tracked so that disposing it removes them all. */
export class Scope<C> implements PromptScope<C> {
  readonly owner: string;
  readonly #registrar: PromptRegistrar<C>;
  readonly #live = new Set<Disposer>();
  #disposed = false;

  constructor(owner: string, registrar: PromptRegistrar<C>) {
    this.owner = owner;
    this.#registrar = registrar;
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  section(section: PromptSection<C>): Disposer {
    this.#assertOpen("section");
    return this.#track(this.#registrar.section(section));
  }

  variable(name: string, provider: VariableProvider<C>): Disposer {
    this.#assertOpen("variable");
    return this.#track(this.#registrar.variable(name, provider));
  }

  tools(provider: ToolProvider<C>): Disposer {
    this.#assertOpen("tool provider");
    return this.#track(this.#registrar.tools(provider));
  }

  item(list: string, item: PromptItem<C>): Disposer {
    this.#assertOpen("item");
    return this.#track(this.#registrar.item(list, item));
  }

  items(list: string, provider: ItemProvider<C>): Disposer {
    this.#assertOpen("item provider");
    return this.#track(this.#registrar.items(list, provider));
  }

  on<E extends keyof PromptEvents<C>>(
    event: E,
    handler: EventHandler<C, E>,
  ): Disposer {
    this.#assertOpen(`"${event}" handler`);
    return this.#track(this.#registrar.on(event, handler));
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    const live = [...this.#live].reverse();
    this.#live.clear();
    disposeAll(live, 0);
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  #track(inner: Disposer): Disposer {
    // A change listener disposed the scope while this registration was
    // being made: it goes with the scope, or it would stay live forever.
    if (this.#disposed) {
      inner();
      return inner;
    }
    const live = this.#live;
    const dispose = createDisposer(() => {
      live.delete(dispose);
      inner();
    });
    live.add(dispose);
    return dispose;
  }

  #assertOpen(what: string): void {
    if (this.#disposed) throw scopeDisposed(what, this.owner);
  }
}

/**
 * Runs `disposers[from..]`. If one throws, the rest still run before the
 * error propagates: a scope that says it is disposed must hold nothing.
 */
function disposeAll(disposers: readonly Disposer[], from: number): void {
  for (let i = from; i < disposers.length; i++) {
    try {
      disposers[i]!();
    } catch (error) {
      disposeAll(disposers, i + 1);
      throw error;
    }
  }
}
