/**
 * Resolves a snapshot of registrations into a fresh assembly.
 *
 * @module
 */

import type { SectionEntry, ToolEntry, VariableEntry } from "./_entries.ts";
import {
  duplicateTool,
  duplicateToolAfterHandlers,
  sectionFailed,
  sectionNotString,
  toolInvalid,
  toolsFailed,
  toolsNotArray,
  variableFailed,
  variableNotString,
} from "./_errors.ts";
import { ownedCopy } from "./tool_owner.ts";
import type { AssembledSection, PromptAssembly, ToolSchema } from "./types.ts";

export function resolveSections<C>(
  entries: readonly SectionEntry<C>[],
  context: C,
): AssembledSection[] {
  const sections = new Array<AssembledSection>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const { name, order, text, owner, stability } = entries[i]!;
    let resolved: unknown = text;
    if (typeof text === "function") {
      try {
        resolved = text(context);
      } catch (cause) {
        throw sectionFailed(name, owner, cause);
      }
      if (typeof resolved !== "string") {
        throw sectionNotString(name, owner, resolved);
      }
    }
    const section: AssembledSection = { name, order, text: resolved as string };
    if (owner !== undefined) section.owner = owner;
    if (stability !== undefined) section.stability = stability;
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
    if (!Array.isArray(provided)) throw toolsNotArray(owner, provided);
    for (let j = 0; j < provided.length; j++) {
      const tool = provided[j] as ToolSchema;
      if (
        typeof tool !== "object" || tool === null ||
        typeof tool.name !== "string" ||
        tool.name === ""
      ) {
        throw toolInvalid(owner, j);
      }
      if (owners.has(tool.name)) {
        throw duplicateTool(tool.name, owner, owners.get(tool.name));
      }
      owners.set(tool.name, owner);
      // A copy, so that a handler editing a tool never edits the provider's.
      tools.push(ownedCopy(tool, owner));
    }
  }
  return tools;
}

/** The waterfall's final tools must still have unique names. */
export function checkHandledTools(assembly: PromptAssembly): PromptAssembly {
  const seen = new Set<string>();
  for (const tool of assembly.tools) {
    if (seen.has(tool.name)) throw duplicateToolAfterHandlers(tool.name);
    seen.add(tool.name);
  }
  return assembly;
}
