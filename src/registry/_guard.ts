/**
 * Calling user code: what counts as a promise, rejections nobody will read
 * handled, a function's name for messages, awaiting a step's pending
 * providers with the host's abort signal, and delivering change events to
 * listeners that may throw.
 *
 * @module
 */

import {
  describeOwner,
  failure,
  messageOf,
  PromptError,
} from "../core/errors.ts";
import type { ChangeListener, PromptChange } from "../core/types.ts";

/** Any thenable, tested by shape (STYLE: await only thenables). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") &&
    value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * `read()`, or `undefined` when it throws: for reading user values (a
 * revoked proxy, a throwing getter or `then`) where a failure means there
 * is nothing to read.
 */
export function tryRead<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** Marks a rejection as handled: the library has already reported its error. */
export function ignoreRejection(value: unknown): void {
  tryRead(() => isThenable(value) && value.then(undefined, () => {}));
}

/** Handles every promise inside an array the library refused. */
export function ignoreRejections(values: readonly unknown[]): void {
  tryRead(() => {
    for (let i = 0; i < values.length; i++) ignoreRejection(values[i]);
  });
}

/**
 * Handles every promise a step's results hold, as a value or inside an
 * array: the step failed or was abandoned, so nothing else reads them.
 */
export function abandon(values: readonly unknown[]): void {
  for (const value of values) {
    if (tryRead(() => Array.isArray(value))) ignoreRejections(value as never);
    else ignoreRejection(value);
  }
}

/** A function's name for messages, or `#index` when it has none. */
export function handlerName(fn: unknown, index: number): string {
  const name = tryRead(() => (fn as { name?: unknown }).name);
  return typeof name === "string" && name !== "" ? name : `#${index}`;
}

/** A provider's rejection, kept in its slot until the step reads it in order. */
export class Rejected {
  constructor(readonly cause: unknown) {}
}

/** The `aborted` error, with the signal's reason as `cause`. */
export function aborted(signal: AbortSignal): PromptError {
  return failure("aborted", "assemble prompt", {}, "the signal aborted", {
    cause: signal.reason,
  });
}

/** Waits for every pending slot; each settles into `values`, a rejection as `Rejected`. */
export function settle(
  values: unknown[],
  pending: readonly number[],
): Promise<void> {
  return Promise.all(pending.map((index) =>
    Promise.resolve(values[index]).then(
      (value) => void (values[index] = value),
      (cause) => void (values[index] = new Rejected(cause)),
    )
  )).then(() => {});
}

/** `work`, or `aborted` as soon as the signal aborts. */
export function raceAbort<T>(
  work: Promise<T>,
  signal: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      ignoreRejection(work);
      reject(aborted(signal));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() =>
      signal.removeEventListener("abort", onAbort)
    );
  });
}

/** `instanceof PromptError`, safe for thrown proxies whose traps throw. */
export function isPromptError(value: unknown): value is PromptError {
  return tryRead(() => value instanceof PromptError) === true;
}

/** Delivers change events in order, to listeners in registration order. */
export class ChangeEvents {
  readonly #listeners = new Set<[ChangeListener, owner: string | undefined]>();
  /** The events being delivered (the first one) and those waiting. */
  readonly #queue: PromptChange[] = [];
  constructor(readonly onError: (error: PromptError) => void) {}

  listen(listener: ChangeListener, owner: string | undefined): () => void {
    const entry: [ChangeListener, string | undefined] = [listener, owner];
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  }

  /** Whether an event emitted now reaches a listener (or waits for one). */
  get listening(): boolean {
    return this.#listeners.size > 0 || this.#queue.length > 0;
  }

  emit(change: PromptChange): void {
    if (!this.listening) return;
    // One frozen object for every listener: none can change what the next sees.
    this.#queue.push(Object.freeze(change));
    // A change a listener makes waits until the current one reached everyone.
    if (this.#queue.length > 1) return;
    // Every failure is reported; the finally is for a stack overflow, which
    // must not leave the queue stuck.
    try {
      for (const current of this.#queue) {
        for (const [i, [listener, owner]] of [...this.#listeners].entries()) {
          // Reports a failure to `onError`, or to the console if that throws.
          const fail = (handler: string) => (cause: unknown) => {
            const { name, action, kind } = current;
            const what = name === undefined ? "" : ` "${name}"`;
            const message =
              `A "system-prompt/change" listener "${handler}" of ${
                describeOwner(owner)
              } threw on ${action} of ${kind}${what}: ${messageOf(cause)}`;
            const fields = { cause, owner, handler };
            const error = new PromptError("listener-failed", message, fields);
            try {
              this.onError(error);
            } catch (hookError) {
              tryRead(() => console.error(hookError, error));
            }
          };
          try {
            const result: unknown = listener(current);
            // An async listener's rejection is a listener failure too.
            if (isThenable(result)) {
              const report = fail(handlerName(listener, i));
              Promise.resolve(result).then(undefined, report);
            }
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
