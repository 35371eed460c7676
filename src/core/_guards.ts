/**
 * The guards for user code: what the library calls or reads of a host's
 * values (providers' results, handlers' assemblies, functions' names) may
 * throw, return a thenable, or reject later. What counts as a promise, a
 * read that may throw, and the rejections nobody will read handled, so a
 * refused or abandoned value never surfaces as an unhandled rejection.
 * Covered by tests/assemble_errors_test.ts, tests/registry_misuse_test.ts
 * and tests/async_late_rejections_io.ts.
 *
 * @module
 */

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

/**
 * Handles a promise, or every promise inside an array, that the library
 * refused or abandoned: nothing else will read them.
 */
export function ignoreRejections(value: unknown): void {
  tryRead(() => {
    const values = Array.isArray(value) ? value : [value];
    for (let i = 0; i < values.length; i++) ignoreRejection(values[i]);
  });
}

/** Handles the promises inside an array (a non-array is left alone). */
export function ignoreInArray(value: unknown): void {
  if (tryRead(() => Array.isArray(value))) ignoreRejections(value);
}

/**
 * Handles the promises a refused assembly holds at its top (a handler's
 * forgotten `await`): in its sections, contexts and tools, and as values
 * of its variables.
 */
export function ignoreAssembly(assembly: unknown): void {
  tryRead(() => {
    const { sections, contexts, tools, variables } = assembly as Record<
      string,
      unknown
    >;
    ignoreInArray(sections);
    ignoreInArray(contexts);
    ignoreInArray(tools);
    if (typeof variables === "object" && variables !== null) {
      ignoreRejections(Object.values(variables));
    }
  });
}

/** A function's name for messages, or `#index` when it has none. */
export function handlerName(fn: unknown, index: number): string {
  const name = tryRead(() => (fn as { name?: unknown }).name);
  return typeof name === "string" && name !== "" ? name : `#${index}`;
}
