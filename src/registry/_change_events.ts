/**
 * The change events: `system-prompt/change` listeners, and delivering each
 * registration's event to them in order (a change a listener makes waits
 * until the current one reached everyone), reporting a listener that
 * throws or rejects without stopping the others. Covered by
 * tests/system_prompt_test.ts and tests/registry_misuse_test.ts.
 *
 * @module
 */

import { messageOf } from "../core/_describe.ts";
import type { PromptError } from "../core/errors.ts";
import { failure } from "../core/_messages.ts";
import { handlerName, isThenable, tryRead } from "../core/_guards.ts";
import type { ChangeListener, PromptChange } from "../core/types.ts";

/** A listener and the owner that registered it, for its failures. */
interface Listener {
  readonly listener: ChangeListener;
  readonly owner: string | undefined;
}

/** Delivers change events in order, to listeners in registration order. */
export class ChangeEvents {
  readonly #listeners = new Set<Listener>();
  /** The events being delivered (the first one) and those waiting. */
  readonly #queue: PromptChange[] = [];
  constructor(readonly onError: (error: PromptError) => void) {}

  listen(listener: ChangeListener, owner: string | undefined): () => void {
    const entry: Listener = { listener, owner };
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  }

  /** Whether an event emitted now reaches a listener (or waits for one). */
  get listening(): boolean {
    return this.#listeners.size > 0 || this.#queue.length > 0;
  }

  emit(change: PromptChange): void {
    // One frozen object for every listener: none can change what the next sees.
    this.#queue.push(Object.freeze(change));
    // A change a listener makes waits until the current one reached everyone.
    if (this.#queue.length > 1) return;
    // Every failure is reported; the finally is for a stack overflow, which
    // must not leave the queue stuck.
    try {
      for (const current of this.#queue) {
        for (const [i, { listener, owner }] of [...this.#listeners].entries()) {
          // Reports a failure to `onError`, or to the console if that throws.
          const fail = (handler: string) => (cause: unknown) => {
            const { name, action, kind } = current;
            const what = name === undefined ? "" : ` "${name}"`;
            const change = `${action} of ${kind}${what}`;
            const error = failure({
              code: "listener-failed",
              action: "notify",
              where: { event: "system-prompt/change", handler, owner },
              problem: `it threw on ${change}: ${messageOf(cause)}`,
              cause,
            });
            try {
              this.onError(error);
            } catch (hookError) {
              tryRead(() => console.error(hookError, error));
            }
          };
          try {
            const result: unknown = listener(current);
            // An async listener's rejection is a listener failure too.
            const report = isThenable(result) && fail(handlerName(listener, i));
            if (report) Promise.resolve(result).then(undefined, report);
          } catch (cause) {
            fail(handlerName(listener, i))(cause);
          }
        }
      }
    } finally {
      this.#queue.length = 0;
    }
  }
}
