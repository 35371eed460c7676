/**
 * The `system-prompt/change` listeners and the delivery of change events.
 *
 * @module
 */

import { createDisposer, type Disposer } from "./disposer.ts";
import type { ListenerEntry } from "./_entries.ts";
import { handlerName, listenerFailed } from "./_errors.ts";
import type { PromptError } from "./errors.ts";
import type { ChangeListener, PromptChange } from "./events.ts";

/** Delivers change events to the live listeners; a throwing one is reported. */
export class ChangeEvents {
  #listeners: readonly ListenerEntry[] = [];
  readonly #onListenerError: (error: PromptError) => void;

  constructor(onListenerError: (error: PromptError) => void) {
    this.#onListenerError = onListenerError;
  }

  /** Adds a listener; the array is replaced, so an emit in progress is unaffected. */
  listen(listener: ChangeListener, owner: string | undefined): Disposer {
    const entry: ListenerEntry = { listener, owner };
    this.#listeners = [...this.#listeners, entry];
    return createDisposer(() => {
      this.#listeners = this.#listeners.filter((e) => e !== entry);
    });
  }

  emit(
    kind: PromptChange["kind"],
    action: PromptChange["action"],
    name: string | undefined,
    owner: string | undefined,
  ): void {
    const listeners = this.#listeners;
    if (listeners.length === 0) return;
    const change: PromptChange = { kind, action };
    if (name !== undefined) change.name = name;
    if (owner !== undefined) change.owner = owner;
    // One frozen object for every listener: none can change what the next sees.
    Object.freeze(change);
    for (let i = 0; i < listeners.length; i++) {
      const entry = listeners[i]!;
      try {
        entry.listener(change);
      } catch (cause) {
        const label = {
          handler: handlerName(entry.listener, i),
          owner: entry.owner,
        };
        this.#onListenerError(listenerFailed(label, change, cause));
      }
    }
  }
}
