/**
 * Quoting a caught value in a message, without ever throwing.
 *
 * @module
 */

import { describeValue } from "./_describe_value.ts";

/**
 * The message of a caught value, for quoting it in another message. Never
 * throws: a value whose `message` or `toString` throws, or that has neither
 * (a null-prototype object), is described by its type instead.
 */
export function messageOf(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    return String(error);
  } catch {
    return `(${describeValue(error)} that cannot be shown)`;
  }
}
