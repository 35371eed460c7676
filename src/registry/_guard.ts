/**
 * Calling user code: what counts as a promise, rejections nobody will read
 * handled, a function's name for messages, and awaiting a step's pending
 * providers with the host's abort signal.
 *
 * @module
 */

import { failure, PromptError } from "../core/errors.ts";

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

/**
 * Waits for every pending slot (each settles into `values`, a rejection as
 * `Rejected`), or rejects with `aborted` as soon as the signal aborts,
 * leaving late results to land in a slot nobody reads.
 */
export function settle(
  values: unknown[],
  pending: readonly number[],
  signal: AbortSignal | undefined,
): Promise<void> {
  const all = Promise.all(
    pending.map((index) =>
      Promise.resolve(values[index]).then(
        (value) => void (values[index] = value),
        (cause) => void (values[index] = new Rejected(cause)),
      )
    ),
  );
  const done = all.then(() => {});
  return signal === undefined ? done : raceAbort(done, signal);
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
