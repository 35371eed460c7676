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

/**
 * Delivers change events to the live listeners, in the order the changes
 * happened; a throwing listener is reported.
 */
export class ChangeEvents {
  // A Set, so adding and removing is O(1); the array delivery iterates is
  // built once per change of the set.
  readonly #listeners = new Set<ListenerEntry>();
  #listenerArray: readonly ListenerEntry[] | undefined;
  readonly #onListenerError: (error: PromptError) => void;
  /** Events not yet delivered; non-empty only while one is being delivered. */
  readonly #queue: PromptChange[] = [];
  #delivering = false;

  constructor(onListenerError: (error: PromptError) => void) {
    this.#onListenerError = onListenerError;
  }

  /**
   * Adds a listener. A delivery in progress keeps the array it started
   * with: the listener hears the events after the current one.
   */
  listen(listener: ChangeListener, owner: string | undefined): Disposer {
    const entry: ListenerEntry = { listener, owner };
    this.#listeners.add(entry);
    this.#listenerArray = undefined;
    return createDisposer(() => {
      this.#listeners.delete(entry);
      this.#listenerArray = undefined;
    });
  }

  /**
   * Queues the event. A change made by a listener (re-registering from
   * inside an event) is delivered to every listener only after the current
   * event reached them all, so listeners see changes in the order they
   * happened, and the call that made the change never throws.
   */
  emit(
    kind: PromptChange["kind"],
    action: PromptChange["action"],
    name: string | undefined,
    owner: string | undefined,
    list?: string,
  ): void {
    if (this.#listeners.size === 0 && !this.#delivering) return;
    const change: PromptChange = { kind, action };
    if (name !== undefined) change.name = name;
    if (list !== undefined) change.list = list;
    if (owner !== undefined) change.owner = owner;
    // One frozen object for every listener: none can change what the next sees.
    this.#queue.push(Object.freeze(change));
    if (this.#delivering) return;
    this.#delivering = true;
    try {
      for (let next = 0; next < this.#queue.length; next++) {
        this.#deliver(this.#queue[next]!);
      }
    } finally {
      this.#queue.length = 0;
      this.#delivering = false;
    }
  }

  /** `change` to each listener live now, in registration order. */
  #deliver(change: PromptChange): void {
    const listeners = this.#listenerArray ??= [...this.#listeners];
    for (let i = 0; i < listeners.length; i++) {
      const { listener, owner } = listeners[i]!;
      try {
        // Called through a local: `this` is undefined, not the entry.
        listener(change);
      } catch (cause) {
        const label = { handler: handlerName(listener, i), owner };
        this.#report(listenerFailed(label, change, cause));
      }
    }
  }

  /**
   * Hands `error` to `onListenerError`. That hook must not throw; if it
   * does, the error goes to `console.error` rather than into the
   * registration call, whose change already happened.
   */
  #report(error: PromptError): void {
    try {
      this.#onListenerError(error);
    } catch (hookError) {
      try {
        console.error(hookError, error);
      } catch {
        // Nothing left to report to.
      }
    }
  }
}
