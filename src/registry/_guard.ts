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

/** Marks a rejection as handled: the library has already reported its error. */
export function ignoreRejection(value: unknown): void {
  try {
    if (isThenable(value)) value.then(undefined, () => {});
  } catch {
    // A `then` that throws rejects nothing.
  }
}

/** Handles every promise inside an array the library refused. */
export function ignoreRejections(values: readonly unknown[]): void {
  try {
    for (let i = 0; i < values.length; i++) ignoreRejection(values[i]);
  } catch {
    // An array whose elements cannot be read holds no promise we can reach.
  }
}

/**
 * Handles every promise a step's results hold, as a value or inside an
 * array: the step failed or was abandoned, so nothing else reads them.
 */
export function abandon(values: readonly unknown[]): void {
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    let array = false;
    try {
      array = Array.isArray(value);
    } catch {
      // A revoked proxy holds no promise we can reach.
    }
    if (array) ignoreRejections(value as unknown[]);
    else ignoreRejection(value);
  }
}

/** A function's name for messages, or `#index` when it has none. */
export function handlerName(fn: unknown, index: number): string {
  let name: unknown;
  try {
    name = (fn as { name?: unknown }).name;
  } catch {
    name = undefined;
  }
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
  if (signal.aborted) {
    ignoreRejection(work);
    return Promise.reject(aborted(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      ignoreRejection(work);
      reject(aborted(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() =>
      signal.removeEventListener("abort", onAbort)
    );
  });
}

/** `instanceof PromptError`, safe for thrown proxies whose traps throw. */
export function isPromptError(value: unknown): value is PromptError {
  try {
    return value instanceof PromptError;
  } catch {
    return false;
  }
}

/** Delivers change events in order, to listeners in registration order. */
export class ChangeEvents {
  readonly #listeners = new Set<
    { listener: ChangeListener; owner: string | undefined }
  >();
  readonly #queue: PromptChange[] = [];
  #delivering = false;
  constructor(readonly onError: (error: PromptError) => void) {}

  listen(listener: ChangeListener, owner: string | undefined): () => void {
    const entry = { listener, owner };
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  }

  emit(change: PromptChange): void {
    if (this.#listeners.size === 0 && !this.#delivering) return;
    // One frozen object for every listener: none can change what the next sees.
    this.#queue.push(Object.freeze(change));
    if (this.#delivering) return;
    this.#delivering = true;
    try {
      for (let next = 0; next < this.#queue.length; next++) {
        const current = this.#queue[next]!;
        let index = 0;
        for (const { listener, owner } of [...this.#listeners]) {
          try {
            const result: unknown = listener(current);
            // An async listener's rejection is a listener failure too.
            if (isThenable(result)) {
              const label = handlerName(listener, index);
              Promise.resolve(result).then(
                undefined,
                (cause) =>
                  this.#report(listenerFailed(current, label, owner, cause)),
              );
            }
          } catch (cause) {
            this.#report(
              listenerFailed(
                current,
                handlerName(listener, index),
                owner,
                cause,
              ),
            );
          }
          index++;
        }
      }
    } finally {
      this.#queue.length = 0;
      this.#delivering = false;
    }
  }

  #report(error: PromptError): void {
    try {
      this.onError(error);
    } catch (hookError) {
      try {
        console.error(hookError, error);
      } catch {
        // Nothing left to report to.
      }
    }
  }
}

function listenerFailed(
  change: PromptChange,
  handler: string,
  owner: string | undefined,
  cause: unknown,
): PromptError {
  const what = change.name === undefined ? "" : ` "${change.name}"`;
  return new PromptError(
    "listener-failed",
    `A "system-prompt/change" listener "${handler}" of ${
      describeOwner(owner)
    } threw on ${change.action} of ${change.kind}${what}: ${messageOf(cause)}`,
    { cause, owner, handler },
  );
}

/** A change event's fields, only those that are set. */
export function change(
  kind: PromptChange["kind"],
  action: PromptChange["action"],
  fields: {
    name?: string | undefined;
    path?: readonly string[];
    owner: string | undefined;
    layer: string | undefined;
  },
): PromptChange {
  const event: PromptChange = { kind, action };
  if (fields.name !== undefined) event.name = fields.name;
  if (fields.path !== undefined && fields.path.length > 0) {
    event.list = fields.path.join("/");
  }
  if (fields.owner !== undefined) event.owner = fields.owner;
  if (fields.layer !== undefined) event.layer = fields.layer;
  return event;
}
