/**
 * The messages of every `PromptError` the core throws, each written once.
 * Messages follow one form: the failed action, a colon, the state found.
 *
 * @module
 */

import { describeValue } from "./_describe_value.ts";
import { PromptError } from "./errors.ts";
import { messageOf } from "./_message_of.ts";

export { messageOf };

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
 * What a provider returned, for a message: a promise gets a hint, since
 * providers are synchronous and async facts belong in an assemble handler.
 */
function returned(value: unknown): string {
  const shown = describeValue(value);
  return shown === "a promise"
    ? `${shown} (providers run synchronously; compute async values in a ` +
      `"system-prompt/assemble" handler)`
    : shown;
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
      `its text function returned ${returned(value)}, not a string`,
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
      `its provider returned ${returned(value)}; expected a string, ` +
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
      `returned ${returned(value)}, not an array`,
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

export function toolParametersUnfreezable(
  tool: string,
  owner: string | undefined,
  cause: unknown,
): PromptError {
  return new PromptError(
    "invalid-value",
    `Cannot list tools of ${describeOwner(owner)}: the parameters of tool ` +
      `"${tool}" cannot be frozen (a schema is plain JSON data): ` +
      messageOf(cause),
    { cause, tool, owner },
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

/** Engine wordings of a write to a frozen object (V8, SpiderMonkey, JSC). */
const FROZEN_WRITE =
  /read[- ]only|not extensible|non-configurable|non-writable|frozen|Cannot (?:add|assign|delete|define)/i;

export function handlerFailed(
  label: HandlerLabel,
  cause: unknown,
): PromptError {
  let hint = "";
  try {
    if (cause instanceof TypeError && FROZEN_WRITE.test(cause.message)) {
      hint = "; tool parameters are frozen: give the tool an edited copy " +
        "of its parameters instead of editing them in place";
    }
  } catch {
    // A cause whose `message` throws gets no hint.
  }
  return new PromptError(
    "handler-failed",
    `Cannot run "system-prompt/assemble" handler "${label.handler}" of ` +
      `${describeOwner(label.owner)}: it threw: ${messageOf(cause)}${hint}`,
    { cause, owner: label.owner, handler: label.handler },
  );
}

export function handlerResultUnreadable(
  label: HandlerLabel,
  cause: unknown,
): PromptError {
  return new PromptError(
    "invalid-value",
    `Cannot run "system-prompt/assemble" handler "${label.handler}" of ` +
      `${describeOwner(label.owner)}: reading the assembly it returned ` +
      `threw: ${messageOf(cause)}`,
    { cause, owner: label.owner, handler: label.handler },
  );
}

export function handledAssemblyInvalid(
  problem: string,
  cause?: unknown,
): PromptError {
  return new PromptError(
    "invalid-value",
    `Cannot assemble prompt: after the "system-prompt/assemble" handlers ` +
      `ran, ${problem}`,
    cause === undefined ? {} : { cause },
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
