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
import { isThenable } from "./_is_thenable.ts";
import { setToolOwner } from "./tool_owner.ts";
import { deepFreeze } from "./_deep_freeze.ts";
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

export function resolveTools<C>(
  entries: readonly ToolEntry<C>[],
  context: C,
): ToolSchema[] {
  const tools: ToolSchema[] = [];
  const owners = new Map<string, string | undefined>();
  for (let i = 0; i < entries.length; i++) {
    const { provider, owner } = entries[i]!;
    let provided: unknown;
    try {
      provided = provider(context);
    } catch (cause) {
      throw toolsFailed(owner, cause);
    }
    if (!Array.isArray(provided)) {
      ignoreRejection(provided);
      throw toolsNotArray(owner, provided);
    }
    let copies: (ToolSchema | undefined)[];
    try {
      copies = Array.from(provided, toolCopy);
    } catch (cause) {
      // A getter on the array or on a tool threw: the provider's fault.
      throw toolsFailed(owner, cause);
    }
    for (let j = 0; j < copies.length; j++) {
      const tool = copies[j];
      if (tool === undefined) throw toolInvalid(owner, j);
      if (owners.has(tool.name)) {
        throw duplicateTool(tool.name, owner, owners.get(tool.name));
      }
      owners.set(tool.name, owner);
      try {
        // Shared by every later assembly: a handler must replace
        // `parameters`, not edit them (docs/design.md, "Reliability").
        deepFreeze(tool.parameters);
      } catch (cause) {
        throw toolParametersUnfreezable(tool.name, owner, cause);
      }
      tools.push(setToolOwner(tool, owner));
    }
  }
  return tools;
}

/**
 * A plain copy of `value` with `name`, `description` and `parameters` read
 * once each (getters of a class instance included), so that a handler
 * editing a tool never edits the provider's, and what was validated is
 * what is stored; `undefined` when it is not a tool with a non-empty name.
 *
 * @throws What a getter of `value` throws.
 */
function toolCopy(value: unknown): ToolSchema | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  // The spread reads own fields (own getters too) once; the three a tool
  // needs are then read from `value` only if they are not own fields (a
  // class's getters), so each is read exactly once.
  const copy: Partial<ToolSchema> = { ...value };
  const tool = value as ToolSchema;
  if (!hasField(copy, "name")) copy.name = tool.name;
  if (!hasField(copy, "description")) copy.description = tool.description;
  if (!hasField(copy, "parameters")) copy.parameters = tool.parameters;
  return typeof copy.name === "string" && copy.name !== ""
    ? copy as ToolSchema
    : undefined;
}

function hasField(copy: object, key: keyof ToolSchema): boolean {
  return key in copy;
}

/**
 * A provider that returned a promise is already an error; its rejection, if
 * it has one, must not also crash the process as an unhandled rejection.
 */
function ignoreRejection(value: unknown): void {
  try {
    if (isThenable(value)) value.then(undefined, () => {});
  } catch {
    // A `then` that throws has no rejection to leave unhandled.
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
