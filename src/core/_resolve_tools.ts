/**
 * Resolves the tool providers of a snapshot into shallow, owned copies of
 * their tools, doing per step only the work that what changed requires.
 *
 * @module
 */

import { deepFreeze } from "./_deep_freeze.ts";
import type { ToolEntry } from "./_entries.ts";
import {
  duplicateTool,
  toolInvalid,
  toolParametersUnfreezable,
  toolsFailed,
  toolsNotArray,
} from "./_errors.ts";
import { ignoreRejection } from "./_ignore_rejection.ts";
import { isProvidedArray } from "./_is_provided_array.ts";
import type { PromptError } from "./errors.ts";
import { toolCopy } from "./_tool_copy.ts";
import { setToolOwner, toolOwner } from "./tool_owner.ts";
import type { ToolSchema } from "./types.ts";

/**
 * What the last resolution validated for one provider: the tool objects it
 * returned (a copy of its array, so a provider that mutates and returns the
 * same array is caught), and for each the name and parameters read from it
 * and whether it has no own symbol keys.
 */
interface Validated {
  tools: unknown[];
  names: string[];
  parameters: unknown[];
  symbolFree: boolean[];
}

/**
 * Per snapshot of tool entries (an array built once per change, so a new
 * provider set starts afresh and a dropped snapshot's record goes with it),
 * what each provider's last result validated.
 */
const memory = new WeakMap<readonly unknown[], Validated[]>();

/**
 * How many resolutions are in progress: a provider may resolve the same
 * snapshot again (re-entrantly), and that resolution must neither vouch for
 * the interrupted one's tools nor change the record it compares with.
 */
let depth = 0;

/**
 * Calls every tool provider and returns shallow copies of their tools, each
 * remembering its provider's owner.
 *
 * Every field of every tool is read on every step: a plugin may change a
 * tool object in place. What is skipped is what cannot have changed: the
 * duplicate-name check needs a map of every name, built only from the first
 * tool that differs from the last step's (another tool object at its place,
 * or another name read from it; tools before it were validated together
 * last time); the symbol-key check runs only for a tool object not seen at
 * that place last time; the deep freeze of `parameters` only for a
 * parameters object not seen there last time (a frozen object stays frozen).
 * Errors come in the order of the tools, as a check from scratch gives them.
 *
 * @param names Receives each tool's name as it was read, for
 * `checkHandledTools`.
 */
export function resolveTools<C>(
  entries: readonly ToolEntry<C>[],
  context: C,
  names?: string[],
): ToolSchema[] {
  let known = depth > 0 ? [] : memory.get(entries);
  if (known === undefined) {
    known = [];
    memory.set(entries, known);
  }
  depth++;
  const state: Resolution = { tools: [], names, owners: undefined };
  try {
    for (let i = 0; i < entries.length; i++) {
      const { provider, owner } = entries[i]!;
      let provided: unknown;
      try {
        provided = provider(context);
      } catch (cause) {
        throw toolsFailed(owner, cause);
      }
      if (!isProvidedArray(provided, (cause) => toolsFailed(owner, cause))) {
        ignoreRejection(provided);
        throw toolsNotArray(owner, provided);
      }
      let last = known[i];
      if (last === undefined) {
        last = { tools: [], names: [], parameters: [], symbolFree: [] };
        known[i] = last;
      }
      const failure = copyTools(
        provided as readonly unknown[],
        last,
        owner,
        state,
      );
      if (failure !== undefined) throw failure;
    }
  } catch (error) {
    // What was recorded before the failure was never checked as a whole:
    // the next step validates everything afresh.
    if (depth === 1) memory.delete(entries);
    throw error;
  } finally {
    depth--;
  }
  return state.tools;
}

/** One resolution in progress. */
interface Resolution {
  readonly tools: ToolSchema[];
  /** Where to record each tool's name as read, if the caller wants them. */
  readonly names: string[] | undefined;
  /** Every name so far and its owner, from the first tool that changed. */
  owners: Map<string, string | undefined> | undefined;
}

/**
 * Appends owned copies of `provided` to `state.tools` and records them in
 * `last`; the error of the first tool at fault, if one is.
 */
function copyTools(
  provided: readonly unknown[],
  last: Validated,
  owner: string | undefined,
  state: Resolution,
): PromptError | undefined {
  const { tools } = state;
  let length: number;
  try {
    length = provided.length;
    for (let j = 0; j < length; j++) {
      const value = provided[j];
      const same = last.tools[j] === value;
      const symbolFree = same
        ? last.symbolFree[j]!
        : typeof value === "object" && value !== null &&
          Object.getOwnPropertySymbols(value).length === 0;
      const copy = toolCopy(value, symbolFree);
      if (copy === undefined) return toolInvalid(owner, j);
      const name = copy.name;
      if (state.owners === undefined && (!same || name !== last.names[j])) {
        state.owners = new Map(
          tools.map((tool) => [tool.name, toolOwner(tool)]),
        );
      }
      const owners = state.owners;
      if (owners !== undefined) {
        if (owners.has(name)) {
          return duplicateTool(name, owner, owners.get(name));
        }
        owners.set(name, owner);
      }
      const parameters = copy.parameters;
      if (!same || parameters !== last.parameters[j]) {
        try {
          // Shared by every later assembly: a handler must replace
          // `parameters`, not edit them (docs/design.md, "Reliability").
          deepFreeze(parameters);
        } catch (cause) {
          return toolParametersUnfreezable(name, owner, cause);
        }
      }
      last.tools[j] = value;
      last.names[j] = name;
      last.parameters[j] = parameters;
      last.symbolFree[j] = symbolFree;
      tools.push(setToolOwner(copy, owner));
      state.names?.push(name);
    }
  } catch (cause) {
    // A getter on the array or on a tool threw: the provider's fault.
    return toolsFailed(owner, cause);
  }
  last.tools.length =
    last.names.length =
    last.parameters.length =
    last.symbolFree.length =
      length;
  return undefined;
}
