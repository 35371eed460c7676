// A promise with its resolve and reject at hand, for tests that decide when
// an async provider settles.

export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A thenable that is not a Promise: `then` calls back synchronously. */
export function thenable<T>(value: T): PromiseLike<T> {
  return {
    then<R1 = T, R2 = never>(
      onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
      _onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
    ): PromiseLike<R1 | R2> {
      return Promise.resolve(
        onFulfilled ? onFulfilled(value) : value as unknown as R1,
      );
    },
  };
}

/** Several turns of the event loop (macrotasks), for late settlements. */
export async function turns(count = 3): Promise<void> {
  for (let i = 0; i < count; i++) {
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
  }
}

/** How a promise stands after a few turns of the event loop. */
export type Outcome<T> =
  | { state: "pending" }
  | { state: "resolved"; value: T }
  | { state: "rejected"; error: unknown };

/**
 * Where `promise` stands after `count` turns: a step that must reject
 * promptly has done so by then, and a test never waits on a promise that
 * may not settle.
 */
export async function outcome<T>(
  promise: Promise<T>,
  count = 3,
): Promise<Outcome<T>> {
  let result: Outcome<T> = { state: "pending" };
  promise.then(
    (value) => void (result = { state: "resolved", value }),
    (error) => void (result = { state: "rejected", error }),
  );
  await turns(count);
  return result;
}
