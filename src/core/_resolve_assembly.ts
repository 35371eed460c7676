/**
 * Resolves a snapshot of registrations into a fresh assembly.
 *
 * @module
 */

import type { SectionEntry, VariableEntry } from "./_entries.ts";
import { applyLayout, type ListSource } from "./_resolve_items.ts";
import {
  duplicateToolAfterHandlers,
  handledAssemblyInvalid,
  sectionFailed,
  sectionNotString,
  variableFailed,
  variableNotString,
} from "./_errors.ts";
import { ignoreRejection } from "./_ignore_rejection.ts";
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
 * The waterfall's final tools must still have unique names.
 *
 * Fast path: when the handlers only kept, dropped or filtered the tools
 * that `resolved` holds (their order kept, their names as `names` recorded
 * them), the names are still unique and no set is built.
 *
 * @param resolved The tools the waterfall started with.
 * @param names Their names, as read when they were resolved.
 */
export function checkHandledTools(
  assembly: PromptAssembly,
  resolved: readonly ToolSchema[],
  names: readonly string[],
): PromptAssembly {
  let tools: unknown;
  try {
    tools = assembly.tools;
  } catch (cause) {
    throw handledAssemblyInvalid("reading the tools threw", cause);
  }
  if (!Array.isArray(tools)) {
    throw handledAssemblyInvalid("tools is not an array");
  }
  let seen: Set<string> | undefined;
  let r = 0;
  for (let i = 0; i < tools.length; i++) {
    const tool: unknown = tools[i];
    let name: unknown;
    try {
      name = (tool as ToolSchema).name;
    } catch (cause) {
      // A handler left a null, or an object whose `name` getter throws.
      throw handledAssemblyInvalid(`reading item ${i} of tools threw`, cause);
    }
    if (typeof name !== "string" || name === "") {
      throw handledAssemblyInvalid(
        `item ${i} of tools is not a tool with a non-empty name`,
      );
    }
    if (seen === undefined) {
      while (r < resolved.length && resolved[r] !== tool) r++;
      if (r < resolved.length && names[r] === name) {
        r++;
        continue;
      }
      // Not a subsequence of the resolved tools: check from here on, with
      // the names so far, which were the resolved ones.
      seen = new Set();
      for (let k = 0, m = 0; k < i; k++, m++) {
        // Read again: an item that answers differently now (a proxy, an
        // index getter) is not among the resolved copies any more.
        const again: unknown = tools[k];
        while (m < resolved.length && resolved[m] !== again) m++;
        if (m === resolved.length) {
          throw handledAssemblyInvalid(
            `item ${k} of tools changed while it was checked`,
          );
        }
        seen.add(names[m]!);
      }
    }
    if (seen.has(name)) throw duplicateToolAfterHandlers(name);
    seen.add(name);
  }
  return assembly;
}
