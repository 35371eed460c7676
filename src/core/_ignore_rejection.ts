/**
 * Keeping a promise that user code wrongly returned from crashing the
 * process.
 *
 * @module
 */

import { isThenable } from "./_is_thenable.ts";

/**
 * A provider that returned a promise is already an error; its rejection, if
 * it has one, must not also crash the process as an unhandled rejection.
 */
export function ignoreRejection(value: unknown): void {
  try {
    if (isThenable(value)) value.then(undefined, () => {});
  } catch {
    // A `then` that throws has no rejection to leave unhandled.
  }
}
