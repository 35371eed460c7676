/**
 * The array test for what a tool or item provider returned.
 *
 * @module
 */

/**
 * `Array.isArray(value)`, where even that can throw (a revoked proxy): the
 * provider's fault, so the error is the one `failed` makes from the cause.
 */
export function isProvidedArray(
  value: unknown,
  failed: (cause: unknown) => Error,
): value is readonly unknown[] {
  try {
    return Array.isArray(value);
  } catch (cause) {
    throw failed(cause);
  }
}
