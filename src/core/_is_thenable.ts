/**
 * The one test for "await this", shared by the waterfall, the audit and
 * `assemble()`.
 *
 * @module
 */

/**
 * Whether `value` is a thenable object: native promises and any other
 * object with a callable `then` (`instanceof Promise` would miss those). A
 * function with a `then` method is not awaited: a handler result is an
 * assembly or nothing, never a function. Small enough for V8 to inline, so
 * the all-sync waterfall runs at the speed of a plain loop
 * (bench/waterfall_bench.ts).
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null &&
    typeof (value as PromiseLike<unknown>).then === "function";
}
