/**
 * The waterfall runner behind `system-prompt/assemble`.
 *
 * @module
 */

import { isThenable } from "./_is_thenable.ts";

/** A waterfall step: returns the next value, or `undefined` to keep it. */
export type WaterfallHandler<T, A> = (
  value: T,
  arg: A,
) => T | undefined | void | PromiseLike<T | undefined | void>;

/** Hooks that let the caller name the handler at fault. */
export interface RunWaterfallOptions<T> {
  /**
   * Turns what handler `index` threw or rejected with into the error to
   * throw instead.
   * @default {(error) => error}
   */
  onError?: (error: unknown, index: number) => unknown;
  /**
   * Accepts the value handler `index` returned (never `undefined`), or throws.
   * Its errors are thrown as they are.
   * @default {(value) => value}
   */
  accept?: (value: unknown, index: number) => T;
}

const NO_OPTIONS: RunWaterfallOptions<never> = Object.freeze({});

/**
 * Runs `handlers` in order, each on the value the previous one left.
 *
 * Returns synchronously while every handler does, and switches to a promise
 * only at the first handler that returns a thenable: an all-sync waterfall
 * creates no promise at all.
 */
export function runWaterfall<T, A>(
  handlers: readonly WaterfallHandler<T, A>[],
  value: T,
  arg: A,
  options: RunWaterfallOptions<T> = NO_OPTIONS,
): T | Promise<T> {
  // Fast path: nothing to run.
  if (handlers.length === 0) return value;
  const { onError, accept } = options;
  let index = 0;
  // One try around the loop, not one per handler; `accepting` tells an
  // `accept` error (thrown as it is) from a handler's (mapped by onError).
  let accepting = false;
  try {
    for (; index < handlers.length; index++) {
      // Called through a local, so the handler's `this` is undefined, not
      // the array (which a sloppy handler could then empty).
      const handler = handlers[index]!;
      const result = handler(value, arg);
      if (result === undefined) continue;
      if (isThenable(result)) {
        return continueAsync(handlers, index, result, value, arg, options);
      }
      if (accept === undefined) value = result as T;
      else {
        accepting = true;
        value = accept(result, index);
        accepting = false;
      }
    }
  } catch (error) {
    if (accepting) throw error;
    throw onError ? onError(error, index) : error;
  }
  return value;
}

/** The rest of a waterfall after handler `index` returned `pending`. */
async function continueAsync<T, A>(
  handlers: readonly WaterfallHandler<T, A>[],
  index: number,
  pending: PromiseLike<T | undefined | void>,
  value: T,
  arg: A,
  options: RunWaterfallOptions<T>,
): Promise<T> {
  let result;
  try {
    result = await pending;
  } catch (error) {
    throw options.onError ? options.onError(error, index) : error;
  }
  if (result !== undefined) value = accept(result, index, options);
  while (++index < handlers.length) {
    try {
      const handler = handlers[index]!;
      result = handler(value, arg);
      // Sync handlers after an async one still run without an extra await.
      if (isThenable(result)) {
        result = await result;
      }
    } catch (error) {
      throw options.onError ? options.onError(error, index) : error;
    }
    if (result !== undefined) value = accept(result, index, options);
  }
  return value;
}

function accept<T>(
  result: unknown,
  index: number,
  options: RunWaterfallOptions<T>,
): T {
  return options.accept ? options.accept(result, index) : result as T;
}
