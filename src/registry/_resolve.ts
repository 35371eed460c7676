/**
 * One step's resolution: every user function of the snapshot started in
 * one loop (a registry whose providers are all synchronous creates no
 * promise), pending ones awaited together, then one walk that checks each
 * result and builds the fresh assembly.
 *
 * @module
 */

import type { PromptAssembly, ProviderOptions } from "../core/types.ts";
import {
  abandon,
  aborted,
  isPromptError,
  isThenable,
  raceAbort,
  Rejected,
  settle,
} from "./_guard.ts";
import { callFailed, part, result } from "./_parts.ts";
import type { Node, Snapshot } from "./_snapshot.ts";
import type { ToolCopies, ToolRecord } from "./_tools.ts";
import { orderTools, type ToolOrder } from "./_tool_order.ts";

/** The options every provider gets when the host passed no signal. */
const NO_SIGNAL: ProviderOptions = Object.freeze({ signal: undefined });

/** A call that threw while earlier ones pended, kept in its slot. */
class Threw extends Rejected {}

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
      if (pending === undefined) throw callFailed(calls[i]!, cause);
      // An earlier call still pending may reject: the all-sync registry
      // would report that one, so it is awaited first.
      values[i] = new Threw(cause);
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
    abandon(values);
    return Promise.reject(error);
  }
}

/** What a step does with its settled results. */
interface Finish<S, T> {
  (values: unknown[], snapshot: Snapshot, step: S): T | Promise<T>;
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
  return settle(values, pending).then(() => {
    try {
      // An abandoned step runs no handler; its late results are dropped.
      if (step.signal?.aborted) throw aborted(step.signal);
      const at = pending.find((k) => values[k] instanceof Rejected);
      if (at !== undefined) {
        const failed = values[at] as Rejected;
        const rejected = !(failed instanceof Threw) || undefined;
        throw callFailed(snapshot.calls[at]!, failed.cause, rejected);
      }
      return run.finish(values, snapshot, step);
    } catch (error) {
      abandon(values);
      throw error;
    }
  });
}

/** Builds the step's fresh assembly from the settled results. */
export function build(
  snapshot: Snapshot,
  values: readonly unknown[],
  state: { records: readonly ToolRecord[]; separator: string | undefined },
): PromptAssembly {
  const built = (node: Node) => part(snapshot, values, node);
  const sections = snapshot.sections.map(built);
  const contexts = snapshot.contexts.map(built);
  // Fresh per assembly (a handler may edit it); `parameters` stay shared,
  // and say who provided the tool.
  const tools = state.records.map((record) => ({ ...record.copy }));
  const variables = variablesOf(snapshot, values);
  const assembly: PromptAssembly = { sections, tools, variables };
  if (state.separator !== undefined) assembly.separator = state.separator;
  if (contexts.length > 0) assembly.contexts = contexts;
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
export const variableValue = result<string | undefined>;

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
    try {
      copies.collect(values[provider.call], provider, records);
    } catch (error) {
      if (isPromptError(error)) throw error;
      throw callFailed(snapshot.calls[provider.call]!, error);
    }
  }
  return copies.ordered(snapshot, records, (fresh) => orderTools(fresh, order));
}
