/**
 * One step's resolution: every user function of the snapshot started in
 * one loop (a registry whose providers are all synchronous creates no
 * promise), pending ones awaited together, then one walk that checks each
 * result and builds the fresh assembly.
 *
 * @module
 */

import type {
  AssembledSection,
  PromptAssembly,
  ProviderOptions,
  ToolSchema,
} from "../core/types.ts";
import {
  abandon,
  aborted,
  isPromptError,
  isThenable,
  raceAbort,
  Rejected,
  settle,
} from "./_guard.ts";
import { callFailed, part, wrongValue } from "./_parts.ts";
import type { Snapshot } from "./_snapshot.ts";
import type { ToolCopies, ToolRecord } from "./_tools.ts";
import { orderTools, type ToolOrder } from "./_tool_order.ts";

/** The step's call results, and which of them are still pending. */
export interface Started {
  readonly values: unknown[];
  readonly pending: number[] | undefined;
  /** A call that threw while earlier ones pend: reported after them. */
  readonly thrown?: { readonly index: number; readonly cause: unknown };
}

/** Calls every user function of the snapshot once, in snapshot order. */
export function start<C>(
  snapshot: Snapshot,
  context: C,
  options: ProviderOptions,
): Started {
  const calls = snapshot.calls;
  const values = new Array<unknown>(calls.length);
  let pending: number[] | undefined;
  let i = 0;
  // One try around the loop, not one per call.
  try {
    for (; i < calls.length; i++) {
      const fn = calls[i]!.fn; // called through a local: `this` is undefined
      const value = fn(context, options);
      values[i] = value;
      // Strings (most results) are known not thenables without a call.
      if (
        typeof value !== "string" && isThenable(value) &&
        calls[i]!.kind !== "order"
      ) {
        (pending ??= []).push(i);
      }
    }
  } catch (cause) {
    // An earlier call still pending may reject: the all-sync registry
    // would report that one, so it is awaited first.
    if (pending !== undefined) {
      return { values, pending, thrown: { index: i, cause } };
    }
    abandon(values);
    throw callFailed(calls[i]!, cause, false);
  }
  return { values, pending };
}

/** `error`, once every promise the step's results hold is handled. */
function abandoned(values: readonly unknown[], error: Error): Error {
  abandon(values);
  return error;
}

/**
 * The error of the first call, in snapshot order, that rejected or threw
 * (the one the all-sync registry reports), once the pending ones settled.
 */
function firstFailure(snapshot: Snapshot, started: Started): Error | undefined {
  for (const index of started.pending ?? []) {
    const value = started.values[index];
    if (value instanceof Rejected) {
      return callFailed(snapshot.calls[index]!, value.cause, true);
    }
  }
  const { thrown } = started;
  return thrown === undefined
    ? undefined
    : callFailed(snapshot.calls[thrown.index]!, thrown.cause, false);
}

/** The options every provider gets when the host passed no signal. */
const NO_SIGNAL: ProviderOptions = Object.freeze({ signal: undefined });

/**
 * One step's skeleton, shared by `assemble()` and `render()`: foreseen
 * rejections, the signal, every provider started, pending ones settled,
 * then `finish`; every failure is a rejection, and an abort wins at once.
 */
export function resolveStep<
  S extends { context: unknown; signal: AbortSignal | undefined },
  T,
>(
  snapshot: Snapshot,
  step: S,
  finish: (values: unknown[], snapshot: Snapshot, step: S) => T | Promise<T>,
): Promise<T> {
  const { signal } = step;
  let values: unknown[] | undefined;
  try {
    if (snapshot.problem !== undefined) throw snapshot.problem;
    if (signal?.aborted) throw aborted(signal);
    const started = start(
      snapshot,
      step.context,
      // Frozen: one provider cannot take the signal from the next.
      signal === undefined ? NO_SIGNAL : Object.freeze({ signal }),
    );
    values = started.values;
    // A provider may have aborted it.
    if (signal?.aborted) throw abandoned(values, aborted(signal));
    if (started.pending !== undefined) {
      return pended(snapshot, step, { started, finish });
    }
    // Fast path: every provider answered synchronously.
    const result = finish(values, snapshot, step);
    if (!isThenable(result)) {
      // A synchronous handler may have aborted it.
      if (signal?.aborted) throw aborted(signal);
      return Promise.resolve(result);
    }
    return signal === undefined
      ? result as Promise<T>
      : raceAbort(result as Promise<T>, signal);
  } catch (error) {
    if (values !== undefined) abandon(values);
    return Promise.reject(error);
  }
}

/** The rest of a step some of whose providers pend; an abort wins at once. */
function pended<S extends { signal: AbortSignal | undefined }, T>(
  snapshot: Snapshot,
  step: S,
  run: {
    started: Started;
    finish: (values: unknown[], snapshot: Snapshot, step: S) => T | Promise<T>;
  },
): Promise<T> {
  const { signal } = step;
  const { values, pending } = run.started;
  const result = settle(values, pending!).then(() => {
    // An abandoned step runs no handler; its late results are dropped.
    if (signal?.aborted) throw abandoned(values, aborted(signal));
    const failed = firstFailure(snapshot, run.started);
    if (failed !== undefined) throw abandoned(values, failed);
    try {
      return run.finish(values, snapshot, step);
    } catch (error) {
      abandon(values);
      throw error;
    }
  });
  return signal === undefined ? result : raceAbort(result, signal);
}

/** Builds the step's fresh assembly from the settled results. */
export function build(
  snapshot: Snapshot,
  values: readonly unknown[],
  state: {
    /** The step's tools; `undefined` builds none (render() sends its own). */
    records: readonly ToolRecord[] | undefined;
    separator: string | undefined;
  },
): PromptAssembly {
  const sections = snapshot.sections.map((node) =>
    part(snapshot, values, node) as AssembledSection
  );
  const contexts = snapshot.contexts.length === 0
    ? undefined
    : snapshot.contexts.map((node) =>
      part(snapshot, values, node) as AssembledSection
    );
  const tools = state.records === undefined ? [] : freshTools(state.records);
  const variables = variablesOf(snapshot, values);
  const assembly: PromptAssembly = { sections, tools, variables };
  if (state.separator !== undefined) assembly.separator = state.separator;
  if (contexts !== undefined) assembly.contexts = contexts;
  return assembly;
}

/** The step's variables, each value checked. */
export function variablesOf(
  snapshot: Snapshot,
  values: readonly unknown[],
): Record<string, string | undefined> {
  const variables: Record<string, string | undefined> = Object.create(null);
  for (const { call, entry } of snapshot.variables) {
    variables[entry.name] = variableValue(snapshot, values, call);
  }
  return variables;
}

/** A variable provider's result, checked: a string or `undefined`. */
export function variableValue(
  snapshot: Snapshot,
  values: readonly unknown[],
  call: number,
): string | undefined {
  const value = values[call];
  if (value instanceof Rejected) {
    throw callFailed(snapshot.calls[call]!, value.cause, true);
  }
  if (value !== undefined && typeof value !== "string") {
    throw wrongValue(
      snapshot.calls[call]!,
      value,
      "a string, or undefined for no value",
    );
  }
  return value;
}

/** The assembly's tools: fresh objects over the registry's shared copies. */
function freshTools(records: readonly ToolRecord[]): ToolSchema[] {
  const tools = new Array<ToolSchema>(records.length);
  for (let i = 0; i < records.length; i++) {
    // Fresh per assembly (a handler may edit it); `parameters` stay shared,
    // and say who provided the tool.
    tools[i] = { ...records[i]!.copy };
  }
  return tools;
}

/**
 * Collects and orders the tool records of the step. The same records as
 * the chain's last step give back the same (checked, sorted) array.
 */
export function toolRecords(
  snapshot: Snapshot,
  values: readonly unknown[],
  copies: ToolCopies,
  order: ToolOrder,
): readonly ToolRecord[] {
  const steady = copies.steady(snapshot, values);
  if (steady !== undefined) return steady;
  const records: ToolRecord[] = [];
  for (const provider of snapshot.tools) {
    const call = provider.call;
    const value = values[call];
    if (value instanceof Rejected) {
      throw callFailed(snapshot.calls[call]!, value.cause, true);
    }
    try {
      copies.collect(value, provider, records);
    } catch (error) {
      if (isPromptError(error)) throw error;
      throw callFailed(snapshot.calls[call]!, error, false);
    }
  }
  return copies.ordered(snapshot, records, (fresh) => orderTools(fresh, order));
}
