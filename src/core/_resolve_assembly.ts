/**
 * Resolves a snapshot of registrations into a fresh assembly.
 *
 * @module
 */

import type { SectionEntry, ToolEntry, VariableEntry } from "./_entries.ts";
import { applyLayout, type ListSource } from "./_resolve_items.ts";
import {
  duplicateTool,
  duplicateToolAfterHandlers,
  handledAssemblyInvalid,
  sectionFailed,
  sectionNotString,
  toolInvalid,
  toolParametersUnfreezable,
  toolsFailed,
  toolsNotArray,
  variableFailed,
  variableNotString,
} from "./_errors.ts";
import { ignoreRejection } from "./_ignore_rejection.ts";
import { isProvidedArray } from "./_is_provided_array.ts";
import { setToolOwner } from "./tool_owner.ts";
import { deepFreeze } from "./_deep_freeze.ts";
import { toolCopy } from "./_tool_copy.ts";
import type { AssembledSection, PromptAssembly, ToolSchema } from "./types.ts";

export function resolveSections<C>(
  entries: readonly SectionEntry<C>[],
  context: C,
  lists: ReadonlyMap<string, ListSource<C>>,
): AssembledSection[] {
  const sections = new Array<AssembledSection>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const { name, order, text, owner, stability, layout } = entries[i]!;
    let resolved: unknown = text;
    if (typeof text === "function") {
      try {
        resolved = text(context);
      } catch (cause) {
        throw sectionFailed(name, owner, cause);
      }
      if (typeof resolved !== "string") {
        ignoreRejection(resolved);
        throw sectionNotString(name, owner, resolved);
      }
    }
    const section: AssembledSection = { name, order, text: resolved as string };
    if (owner !== undefined) section.owner = owner;
    if (stability !== undefined) section.stability = stability;
    // The default layout costs this one check.
    if (layout !== undefined) applyLayout(section, layout, lists, context);
    sections[i] = section;
  }
  return sections;
}

export function resolveVariables<C>(
  entries: readonly VariableEntry<C>[],
  context: C,
): Record<string, string | undefined> {
  const variables: Record<string, string | undefined> = Object.create(null);
  for (let i = 0; i < entries.length; i++) {
    const { name, provider, owner } = entries[i]!;
    let value: unknown;
    try {
      value = provider(context);
    } catch (cause) {
      throw variableFailed(name, owner, cause);
    }
    if (value !== undefined && typeof value !== "string") {
      ignoreRejection(value);
      throw variableNotString(name, owner, value);
    }
    variables[name] = value;
  }
  return variables;
}

/**
 * What the last successful `resolveTools` over one snapshot of tool entries
 * validated: per provider, the tools it returned (a copy of the array, so a
 * provider that mutates and returns the same array is caught), their names,
 * and whether each has no own symbol keys.
 */
interface ValidatedTools {
  tools: (readonly unknown[])[];
  names: (readonly string[])[];
  symbolFree: (readonly boolean[])[];
}

/**
 * Keyed by the snapshot's entries array, which is built once per change:
 * a new provider set starts afresh, and a dropped snapshot's record goes
 * with it.
 */
const validated = new WeakMap<readonly unknown[], ValidatedTools>();

/**
 * Calls every tool provider and returns shallow copies of their tools.
 *
 * Checking names for duplicates needs a map of every name; it is built only
 * when some provider's result differs from what was last validated for this
 * provider set: another length, another tool object at some index, or
 * another name read from the same object. Element-wise comparison, not array
 * identity, so a provider that returns a fresh array of the same tools
 * still skips the map, and one that mutates its array in place does not.
 * Names are compared on the copies, so each field is still read once.
 */
export function resolveTools<C>(
  entries: readonly ToolEntry<C>[],
  context: C,
): ToolSchema[] {
  const tools: ToolSchema[] = [];
  const last = validated.get(entries);
  // Undefined while every provider so far matched `last`.
  let owners: Map<string, string | undefined> | undefined;
  let next: ValidatedTools | undefined;
  if (last === undefined) {
    owners = new Map();
    next = { tools: [], names: [], symbolFree: [] };
  }
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
    const lastTools = last?.tools[i];
    const lastSymbolFree = last?.symbolFree[i];
    let copies: (ToolSchema | undefined)[];
    const symbolFrees: boolean[] = [];
    try {
      copies = Array.from(provided, (value: unknown, j) => {
        // Known for a tool object validated last time; else checked now.
        const symbolFree = lastTools !== undefined && lastTools[j] === value
          ? lastSymbolFree![j]!
          : typeof value === "object" && value !== null &&
            Object.getOwnPropertySymbols(value).length === 0;
        symbolFrees.push(symbolFree);
        return toolCopy(value, symbolFree);
      });
    } catch (cause) {
      // A getter on the array or on a tool threw: the provider's fault.
      throw toolsFailed(owner, cause);
    }
    if (owners === undefined) {
      if (matches(provided, copies, last!, i)) {
        for (let j = 0; j < copies.length; j++) {
          freezeParameters(copies[j]!, owner);
          tools.push(setToolOwner(copies[j]!, owner));
        }
        continue;
      }
      // The first change: earlier providers matched, so their names are
      // the validated ones.
      owners = new Map();
      next = { tools: [], names: [], symbolFree: [] };
      for (let k = 0; k < i; k++) {
        for (const name of last!.names[k]!) owners.set(name, entries[k]!.owner);
        next.tools.push(last!.tools[k]!);
        next.names.push(last!.names[k]!);
        next.symbolFree.push(last!.symbolFree[k]!);
      }
    }
    const names: string[] = [];
    for (let j = 0; j < copies.length; j++) {
      const tool = copies[j];
      if (tool === undefined) throw toolInvalid(owner, j);
      if (owners.has(tool.name)) {
        throw duplicateTool(tool.name, owner, owners.get(tool.name));
      }
      owners.set(tool.name, owner);
      names.push(tool.name);
      freezeParameters(tool, owner);
      tools.push(setToolOwner(tool, owner));
    }
    next!.tools.push(provided.slice());
    next!.names.push(names);
    next!.symbolFree.push(symbolFrees);
  }
  if (next !== undefined) validated.set(entries, next);
  return tools;
}

/** Whether provider `i` returned, and named, what `last` validated for it. */
function matches(
  provided: readonly unknown[],
  copies: readonly (ToolSchema | undefined)[],
  last: ValidatedTools,
  i: number,
): boolean {
  const tools = last.tools[i]!;
  if (provided.length !== tools.length) return false;
  const names = last.names[i]!;
  for (let j = 0; j < provided.length; j++) {
    if (provided[j] !== tools[j] || copies[j]?.name !== names[j]) return false;
  }
  return true;
}

function freezeParameters(tool: ToolSchema, owner: string | undefined): void {
  try {
    // Shared by every later assembly: a handler must replace
    // `parameters`, not edit them (docs/design.md, "Reliability").
    deepFreeze(tool.parameters);
  } catch (cause) {
    throw toolParametersUnfreezable(tool.name, owner, cause);
  }
}

/** The waterfall's final tools must still have unique names. */
export function checkHandledTools(assembly: PromptAssembly): PromptAssembly {
  const seen = new Set<string>();
  let tools: unknown;
  try {
    tools = assembly.tools;
  } catch (cause) {
    throw handledAssemblyInvalid("reading the tools threw", cause);
  }
  if (!Array.isArray(tools)) {
    throw handledAssemblyInvalid("tools is not an array");
  }
  for (let i = 0; i < tools.length; i++) {
    let name: unknown;
    try {
      name = (tools[i] as ToolSchema).name;
    } catch (cause) {
      // A handler left a null, or an object whose `name` getter throws.
      throw handledAssemblyInvalid(`reading item ${i} of tools threw`, cause);
    }
    if (typeof name !== "string" || name === "") {
      throw handledAssemblyInvalid(
        `item ${i} of tools is not a tool with a non-empty name`,
      );
    }
    if (seen.has(name)) throw duplicateToolAfterHandlers(name);
    seen.add(name);
  }
  return assembly;
}
