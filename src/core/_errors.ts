/**
 * The messages of every `PromptError` the core throws, each written once.
 * Messages follow one form: the failed action, a colon, the state found.
 *
 * @module
 */

import { describeValue } from "./_describe_value.ts";
import { PromptError } from "./errors.ts";

/** Who a handler or listener is, as errors and audit entries name it. */
export interface HandlerLabel {
  /** Its function name, or `#index` for an anonymous one. */
  readonly handler: string;
  readonly owner: string | undefined;
}

/** How messages name an owner: `"bash"`, or `the root registry`. */
export function describeOwner(owner: string | undefined): string {
  return owner === undefined ? "the root registry" : `"${owner}"`;
}

/**
 * The message of a caught value, for quoting it in another message. Never
 * throws: a value whose `message` or `toString` throws, or that has neither
 * (a null-prototype object), is described by its type instead.
 */
export function messageOf(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    return String(error);
  } catch {
    return `(${describeValue(error)} that cannot be shown)`;
  }
}

/** A handler's function name, or its position for an anonymous one. */
export function handlerName(fn: unknown, index: number): string {
  let name: unknown;
  try {
    name = (fn as { name?: unknown }).name;
  } catch {
    name = undefined;
  }
  return typeof name === "string" && name !== "" ? name : `#${index}`;
}

export function sectionFailed(
  section: string,
  owner: string | undefined,
  cause: unknown,
): PromptError {
  return new PromptError(
    "provider-failed",
    `Cannot assemble section "${section}" of ${describeOwner(owner)}: ` +
      `its text function threw: ${messageOf(cause)}`,
    { cause, section, owner },
  );
}

export function sectionNotString(
  section: string,
  owner: string | undefined,
  value: unknown,
): PromptError {
  return new PromptError(
    "invalid-value",
    `Cannot assemble section "${section}" of ${describeOwner(owner)}: ` +
      `its text function returned ${describeValue(value)}, not a string`,
    { section, owner },
  );
}

export function variableFailed(
  variable: string,
  owner: string | undefined,
  cause: unknown,
): PromptError {
  return new PromptError(
    "provider-failed",
    `Cannot resolve variable "${variable}" of ${describeOwner(owner)}: ` +
      `its provider threw: ${messageOf(cause)}`,
    { cause, variable, owner },
  );
}

export function variableNotString(
  variable: string,
  owner: string | undefined,
  value: unknown,
): PromptError {
  return new PromptError(
    "invalid-value",
    `Cannot resolve variable "${variable}" of ${describeOwner(owner)}: ` +
      `its provider returned ${describeValue(value)}; expected a string, ` +
      `or undefined for no value`,
    { variable, owner },
  );
}

export function toolsFailed(
  owner: string | undefined,
  cause: unknown,
): PromptError {
  return new PromptError(
    "provider-failed",
    `Cannot list tools of ${describeOwner(owner)}: its tool provider ` +
      `threw: ${messageOf(cause)}`,
    { cause, owner },
  );
}

export function toolsNotArray(
  owner: string | undefined,
  value: unknown,
): PromptError {
  return new PromptError(
    "invalid-value",
    `Cannot list tools of ${describeOwner(owner)}: its tool provider ` +
      `returned ${describeValue(value)}, not an array`,
    { owner },
  );
}

export function toolInvalid(
  owner: string | undefined,
  index: number,
): PromptError {
  return new PromptError(
    "invalid-value",
    `Cannot list tools of ${describeOwner(owner)}: item ${index} is not a ` +
      `tool with a non-empty name`,
    { owner },
  );
}

export function duplicateTool(
  tool: string,
  owner: string | undefined,
  firstOwner: string | undefined,
): PromptError {
  return new PromptError(
    "duplicate-tool",
    `Cannot list tools of ${describeOwner(owner)}: tool "${tool}" is ` +
      `already provided by ${describeOwner(firstOwner)}`,
    { tool, owner },
  );
}

export function duplicateToolAfterHandlers(tool: string): PromptError {
  return new PromptError(
    "duplicate-tool",
    `Cannot assemble prompt: tool "${tool}" appears twice after the ` +
      `"system-prompt/assemble" handlers ran`,
    { tool },
  );
}

export function handlerFailed(
  label: HandlerLabel,
  cause: unknown,
): PromptError {
  return new PromptError(
    "handler-failed",
    `Cannot run "system-prompt/assemble" handler "${label.handler}" of ` +
      `${describeOwner(label.owner)}: it threw: ${messageOf(cause)}`,
    { cause, owner: label.owner, handler: label.handler },
  );
}

export function handlerReturned(
  label: HandlerLabel,
  value: unknown,
): PromptError {
  return new PromptError(
    "invalid-value",
    `Cannot run "system-prompt/assemble" handler "${label.handler}" of ` +
      `${describeOwner(label.owner)}: it returned ${describeValue(value)}, ` +
      `not an assembly (return undefined to keep the one it got)`,
    { owner: label.owner, handler: label.handler },
  );
}

export function listenerFailed(
  label: HandlerLabel,
  change: { kind: string; action: string; name?: string },
  cause: unknown,
): PromptError {
  const what = change.name === undefined ? "" : ` "${change.name}"`;
  return new PromptError(
    "listener-failed",
    `A "system-prompt/change" listener "${label.handler}" of ` +
      `${describeOwner(label.owner)} threw on ${change.action} of ` +
      `${change.kind}${what}: ${messageOf(cause)}`,
    { cause, owner: label.owner, handler: label.handler },
  );
}

export function invalidSection(
  section: string,
  owner: string | undefined,
  problem: string,
): PromptError {
  const name = section === "" ? "" : ` "${section}"`;
  return new PromptError(
    "invalid-section",
    `Cannot add section${name}: ${problem}`,
    { section, owner },
  );
}

export function duplicateSection(
  section: string,
  firstOwner: string | undefined,
): PromptError {
  return new PromptError(
    "duplicate-section",
    `Cannot add section "${section}": ${describeOwner(firstOwner)} ` +
      `already added it`,
    { section, owner: firstOwner },
  );
}

export function invalidVariableName(
  name: unknown,
  owner: string | undefined,
): PromptError {
  const shown = typeof name === "string"
    ? JSON.stringify(name)
    : describeValue(name);
  return new PromptError(
    "invalid-variable-name",
    `Cannot add variable ${shown}: a name is letters, digits and ` +
      `underscores, not starting with a digit, in segments joined by "."`,
    { variable: typeof name === "string" ? name : shown, owner },
  );
}

export function duplicateVariable(
  variable: string,
  firstOwner: string | undefined,
): PromptError {
  return new PromptError(
    "duplicate-variable",
    `Cannot add variable "${variable}": ${describeOwner(firstOwner)} ` +
      `already registered it`,
    { variable, owner: firstOwner },
  );
}

export function scopeDisposed(what: string, owner: string): PromptError {
  return new PromptError(
    "scope-disposed",
    `Cannot add ${what}: scope "${owner}" is disposed`,
    { owner },
  );
}
