/**
 * Resolves a snapshot of registrations into a fresh assembly.
 *
 * @module
 */

import { describeValue } from "./describe_value.ts";
import { describeOwner, messageOf, PromptError } from "./errors.ts";
import { ownedCopy } from "./tool_owner.ts";
import type {
  AssembledSection,
  AssembleHandler,
  ChangeListener,
  PromptAssembly,
  SectionText,
  Stability,
  ToolProvider,
  ToolSchema,
  VariableProvider,
} from "./types.ts";

/** What every registration records: its scope's owner, if any. */
export interface Entry {
  readonly owner: string | undefined;
}
export interface SectionEntry<C> extends Entry {
  readonly name: string;
  readonly order: number;
  readonly text: SectionText<C>;
  readonly stability: Stability | undefined;
}
export interface VariableEntry<C> extends Entry {
  readonly name: string;
  readonly provider: VariableProvider<C>;
}
export interface ToolEntry<C> extends Entry {
  readonly provider: ToolProvider<C>;
}
export interface HandlerEntry<C> extends Entry {
  readonly handler: AssembleHandler<C>;
}
export interface ListenerEntry extends Entry {
  readonly listener: ChangeListener;
}

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
        throw new PromptError(
          "provider-failed",
          `Cannot assemble section "${name}" of ${
            describeOwner(owner)
          }: its text ` +
            `function threw: ${messageOf(cause)}`,
          { cause, section: name, owner },
        );
      }
      if (typeof resolved !== "string") {
        throw new PromptError(
          "invalid-value",
          `Cannot assemble section "${name}" of ${
            describeOwner(owner)
          }: its text ` +
            `function returned ${describeValue(resolved)}, not a string`,
          { section: name, owner },
        );
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
      throw new PromptError(
        "provider-failed",
        `Cannot resolve variable "${name}" of ${
          describeOwner(owner)
        }: its provider ` +
          `threw: ${messageOf(cause)}`,
        { cause, variable: name, owner },
      );
    }
    if (value !== undefined && typeof value !== "string") {
      throw new PromptError(
        "invalid-value",
        `Cannot resolve variable "${name}" of ${
          describeOwner(owner)
        }: its provider ` +
          `returned ${
            describeValue(value)
          }; expected a string, or undefined for no value`,
        { variable: name, owner },
      );
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
      throw new PromptError(
        "provider-failed",
        `Cannot list tools of ${
          describeOwner(owner)
        }: its tool provider threw: ${messageOf(cause)}`,
        { cause, owner },
      );
    }
    if (!Array.isArray(provided)) {
      throw new PromptError(
        "invalid-value",
        `Cannot list tools of ${
          describeOwner(owner)
        }: its tool provider returned ` +
          `${describeValue(provided)}, not an array`,
        { owner },
      );
    }
    for (let j = 0; j < provided.length; j++) {
      const tool = provided[j] as ToolSchema;
      if (
        typeof tool !== "object" || tool === null ||
        typeof tool.name !== "string" ||
        tool.name === ""
      ) {
        throw new PromptError(
          "invalid-value",
          `Cannot list tools of ${
            describeOwner(owner)
          }: item ${j} is not a tool ` +
            `with a non-empty name`,
          { owner },
        );
      }
      if (owners.has(tool.name)) {
        throw new PromptError(
          "duplicate-tool",
          `Cannot list tools of ${
            describeOwner(owner)
          }: tool "${tool.name}" is ` +
            `already provided by ${describeOwner(owners.get(tool.name))}`,
          { tool: tool.name, owner },
        );
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
    if (seen.has(tool.name)) {
      throw new PromptError(
        "duplicate-tool",
        `Cannot assemble prompt: tool "${tool.name}" appears twice after the ` +
          `"system-prompt/assemble" handlers ran`,
        { tool: tool.name },
      );
    }
    seen.add(tool.name);
  }
  return assembly;
}
