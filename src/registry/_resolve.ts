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
import { setToolOwner } from "../core/tools.ts";
import {
  aborted,
  ignoreRejection,
  isPromptError,
  isThenable,
  raceAbort,
  Rejected,
  settle,
} from "./_guard.ts";
import { callFailed, part, wrongValue } from "./_parts.ts";
import type { Snapshot } from "./_snapshot.ts";
import {
  checkUniqueTools,
  sortTools,
  type ToolCopies,
  type ToolOrder,
  type ToolRecord,
} from "./_tools.ts";
import type { Where } from "../core/errors.ts";

/** The step's call results, and which of them are still pending. */
export interface Started {
  readonly values: unknown[];
  readonly pending: number[] | undefined;
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
      if (isThenable(value) && calls[i]!.kind !== "order") {
        (pending ??= []).push(i);
      }
    }
  } catch (cause) {
    if (pending !== undefined) {
      for (const index of pending) ignoreRejection(values[index]);
    }
    throw callFailed(calls[i]!, cause, false);
  }
  return { values, pending };
}

/** The options every provider gets when the host passed no signal. */
export const NO_SIGNAL: ProviderOptions = Object.freeze({ signal: undefined });

/**
 * One step's skeleton, shared by `assemble()` and `render()`: foreseen
 * rejections, the signal, every provider started, pending ones settled,
 * then `finish`; every failure is a rejection, and an abort wins at once.
 */
export function resolveStep<C, T>(
  snapshot: Snapshot,
  step: { context: C; signal: AbortSignal | undefined },
  finish: (values: unknown[]) => T | Promise<T>,
): Promise<T> {
  const { signal } = step;
  try {
    if (snapshot.problem !== undefined) throw snapshot.problem;
    if (signal?.aborted) throw aborted(signal);
    const started = start(
      snapshot,
      step.context,
      signal === undefined ? NO_SIGNAL : { signal },
    );
    // A provider may have aborted it.
    if (signal?.aborted) throw aborted(signal);
    // Fast path: every provider answered synchronously.
    const result = started.pending === undefined
      ? finish(started.values)
      : settle(started.values, started.pending).then(() =>
        finish(started.values)
      );
    if (!isThenable(result)) return Promise.resolve(result);
    return signal === undefined
      ? result as Promise<T>
      : raceAbort(result as Promise<T>, signal);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Builds the step's fresh assembly from the settled results. */
export function build(
  snapshot: Snapshot,
  values: readonly unknown[],
  state: { records: readonly ToolRecord[]; separator: string | undefined },
): PromptAssembly {
  const sections = snapshot.sections.map((node) =>
    part(snapshot, values, node) as AssembledSection
  );
  const contexts = snapshot.contexts.length === 0
    ? undefined
    : snapshot.contexts.map((node) =>
      part(snapshot, values, node) as AssembledSection
    );
  const tools = freshTools(state.records);
  const variables: Record<string, string | undefined> = Object.create(null);
  for (const { call, entry } of snapshot.variables) {
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
    variables[entry.name] = value;
  }
  const assembly: PromptAssembly = { sections, tools, variables };
  if (state.separator !== undefined) assembly.separator = state.separator;
  if (contexts !== undefined) assembly.contexts = contexts;
  return assembly;
}

/** The assembly's tools: fresh objects over the registry's shared copies. */
export function freshTools(records: readonly ToolRecord[]): ToolSchema[] {
  const tools = new Array<ToolSchema>(records.length);
  for (let i = 0; i < records.length; i++) {
    const { copy, owner, layer } = records[i]!;
    // Fresh per assembly (a handler may edit it); `parameters` stay shared.
    tools[i] = setToolOwner({ ...copy }, owner, layer);
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
  const records: ToolRecord[] = [];
  for (const { call, where } of snapshot.tools) {
    const value = values[call];
    if (value instanceof Rejected) {
      throw callFailed(snapshot.calls[call]!, value.cause, true);
    }
    try {
      copies.collect(
        value,
        where as Where & { owner: string | undefined },
        records,
      );
    } catch (error) {
      if (isPromptError(error)) throw error;
      throw callFailed(snapshot.calls[call]!, error, false);
    }
  }
  return copies.ordered(snapshot, records, (fresh) => {
    checkUniqueTools(fresh);
    sortTools(fresh, order);
  });
}
