/**
 * Resolving a step: one step's skeleton (every user function of the
 * snapshot started in one loop, so a registry whose providers are all
 * synchronous creates no promise; pending ones awaited together with the
 * host's abort signal; the first failure in snapshot order), and a call's
 * failure as its error. Covered by tests/async_providers_test.ts and
 * tests/assemble_errors_test.ts.
 *
 * @module
 */

import { messageOf } from "../core/_describe.ts";
import type { PromptError } from "../core/errors.ts";
import { failure, isPromptError } from "../core/_messages.ts";
import {
  ignoreInArray,
  ignoreRejection,
  ignoreRejections,
  isThenable,
} from "../core/_guards.ts";
import { type Call, CALLS, type Snapshot } from "./_snapshot.ts";

/** A provider's rejection, kept in its slot until the step reads it in order. */
class Rejected {
  constructor(readonly cause: unknown) {}
}

/** A call that threw (or whose result threw when read) while earlier ones pended. */
class Threw extends Rejected {
  constructor(cause: unknown, readonly how: How) {
    super(cause);
  }
}

/** How a call failed: it threw, its promise rejected, or reading its result threw. */
type How = "threw" | "rejected" | "returned";

/** A call's failure: what it threw, or what its promise rejected with. */
function callFailed(
  call: Call,
  outcome: { cause: unknown; how?: How },
): PromptError {
  const { cause, how = "threw" } = outcome;
  const { what, action } = CALLS[call.kind];
  const failed = how === "returned"
    ? `reading what ${what} returned threw`
    : `${what} ${how}`;
  const state = `${failed}: ${messageOf(cause)}`;
  const where = call.where;
  return failure({
    code: "provider-failed",
    action,
    where,
    problem: state,
    cause,
  });
}

/** A `PromptError` as it is, anything else a call's failure. */
export function callError(call: Call, error: unknown): unknown {
  return isPromptError(error) ? error : callFailed(call, { cause: error });
}

/** The options every provider gets when the host passed no signal. */
const NO_SIGNAL = Object.freeze({ signal: undefined });

/** What a step does with its settled results. */
type Finish<S, T> = (
  values: unknown[],
  snapshot: Snapshot,
  step: S,
) => T | Promise<T>;

/**
 * One step's skeleton, shared by `assemble()` and `render()`: foreseen
 * rejections, the signal, every user function of the snapshot called once
 * in snapshot order, pending ones settled, then `finish`; every failure is
 * a rejection, and an abort wins at once. (No closure here: the loop's
 * variables stay off the heap.)
 */
export function resolveStep<
  S extends { context: unknown; signal: AbortSignal | undefined },
  T,
>(snapshot: Snapshot, step: S, finish: Finish<S, T>): Promise<T> {
  const { signal } = step;
  const calls = snapshot.calls;
  const values = new Array<unknown>(calls.length);
  let pending: number[] | undefined;
  try {
    if (snapshot.problem !== undefined) throw snapshot.problem;
    if (signal?.aborted) throw aborted(signal);
    // Frozen: one provider cannot take the signal from the next.
    const options = signal ? Object.freeze({ signal }) : NO_SIGNAL;
    const context = step.context;
    let i = 0;
    // One try around the loop, not one per call.
    try {
      for (; i < calls.length; i++) {
        const fn = calls[i]!.fn; // called through a local: `this` is undefined
        const value = fn(context, options);
        values[i] = value;
        if (isThenable(value) && calls[i]!.kind !== "order") {
          (pending ??= []).push(i);
        }
      }
    } catch (cause) {
      // Its result is in its slot when reading it (a revoked proxy, a
      // throwing `then` getter) threw.
      const how = i in values ? "returned" : "threw";
      if (pending === undefined) throw callFailed(calls[i]!, { cause, how });
      // An earlier call still pending may reject: the all-sync registry
      // would report that one, so it is awaited first.
      values[i] = new Threw(cause, how);
      pending.push(i);
    }
    // A provider may have aborted it.
    if (signal?.aborted) throw aborted(signal);
    // Fast path: every provider answered synchronously.
    const result = pending === undefined
      ? finish(values, snapshot, step)
      : pended(snapshot, step, { values, pending, finish });
    if (!isThenable(result)) {
      // A synchronous handler may have aborted it.
      if (signal?.aborted) throw aborted(signal);
      return Promise.resolve(result);
    }
    const work = result as Promise<T>;
    return signal === undefined ? work : raceAbort(work, signal);
  } catch (error) {
    // Failed or abandoned: nothing else reads what its results hold.
    for (const value of values) ignoreRejections(value);
    return Promise.reject(error);
  }
}

/**
 * The rest of a step some of whose calls pend: once they settled, the
 * first call in snapshot order that rejected or threw fails it.
 */
function pended<S extends { signal: AbortSignal | undefined }, T>(
  snapshot: Snapshot,
  step: S,
  run: { values: unknown[]; pending: readonly number[]; finish: Finish<S, T> },
): Promise<T> {
  const { values, pending } = run;
  // The step now waits: a promise inside an array already here (a
  // forgotten `Promise.all`) would reject unhandled meanwhile.
  for (let i = 0; i < values.length; i++) ignoreInArray(values[i]);
  return settle(values, pending).then(() => {
    try {
      // An abandoned step runs no handler; its late results are dropped.
      if (step.signal?.aborted) throw aborted(step.signal);
      const at = pending.find((k) => values[k] instanceof Rejected);
      if (at !== undefined) {
        const failed = values[at] as Rejected;
        const how = failed instanceof Threw ? failed.how : "rejected";
        throw callFailed(snapshot.calls[at]!, { cause: failed.cause, how });
      }
      return run.finish(values, snapshot, step);
    } catch (error) {
      // Failed or abandoned: nothing else reads what its results hold.
      for (const value of values) ignoreRejections(value);
      throw error;
    }
  });
}

/** The `aborted` error, with the signal's reason as `cause`. */
export function aborted(signal: AbortSignal): PromptError {
  const problem = "the signal aborted";
  const cause = signal.reason;
  return failure({
    code: "aborted",
    action: "assemble prompt",
    problem,
    cause,
  });
}

/**
 * Waits for every pending slot; each settles into `values`, a rejection as
 * `Rejected`. An array's promises are handled as it arrives: the step may
 * still wait for another provider, or be abandoned, before it reads them
 * (and refuses them: no result may hold a promise).
 */
function settle(values: unknown[], pending: readonly number[]): Promise<void> {
  return Promise.all(pending.map((index) =>
    Promise.resolve(values[index]).then(
      (value) => {
        ignoreInArray(value);
        values[index] = value;
      },
      (cause) => void (values[index] = new Rejected(cause)),
    )
  )).then(() => {});
}

/** `work`, or `aborted` as soon as the signal aborts. */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
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
