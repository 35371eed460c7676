/**
 * The one error class of the module, its stable codes, and the one grammar
 * every message is built with: the failed action, where it failed, and the
 * state, as in `Cannot add section "intro": "auth" already added it`.
 *
 * @module
 */

/**
 * Every condition a {@linkcode PromptError} can report. The strings are
 * stable: match on them, not on messages.
 *
 * | code | thrown by | when |
 * | --- | --- | --- |
 * | `invalid-section` | `section()`, `renderPrompt()` | an empty name, a non-finite order, a non-string text in an assembly |
 * | `duplicate-section` | `section()` | a live section already has the name |
 * | `invalid-variable-name` | `variable()` | the name is not a reference name |
 * | `duplicate-variable` | `variable()` | a live variable already has the name |
 * | `invalid-item` | `item()`, `renderPrompt()` | an empty item name, a non-finite order, a non-string text in an assembly |
 * | `duplicate-item` | `item()`, `assemble()` | an item of the same list already has the name |
 * | `invalid-option` | `cacheBlocks()` | an option outside its range |
 * | `scope-disposed` | a scope's registration methods | the scope was disposed |
 * | `provider-failed` | `assemble()` | a section function, variable provider or tool provider threw |
 * | `handler-failed` | `assemble()` | a `system-prompt/assemble` handler threw or rejected |
 * | `listener-failed` | the registry's `onListenerError` | a `system-prompt/change` listener threw |
 * | `invalid-value` | `assemble()`, `renderPrompt()` | a provider or handler produced a value of the wrong kind |
 * | `duplicate-tool` | `assemble()` | two tools share a name in one assembly |
 * | `unknown-variable` | `renderPrompt()` | a reference names no variable of the assembly |
 * | `missing-value` | `renderPrompt()` | a referenced variable has no value in this assembly |
 * | `malformed-reference` | `renderPrompt()` | a complete `{{…}}` group holds no reference name |
 * | `invalid-context` | `context()`, `renderContext()` | as `invalid-section`, for a context entry |
 * | `duplicate-context` | `context()` | a live context entry already has the name, or a section list does |
 * | `orphan-item` | `assemble()` | an item's list is not a live list |
 * | `unknown-layer` | `assemble()`, `layer()` | no live layer has the key (or a parent's) |
 * | `multiple-complete` | `assemble()` | two live `complete` sections |
 * | `aborted` | `assemble()`, `render()` | the signal aborted (`cause` is its reason) |
 * | `tool-changed` | `assemble()`, `render()`, `onToolChanged` | a tool's fingerprint differs from its `toolPins` pin |
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { PromptError, type PromptErrorCode } from "@dsh/system-prompt";
 *
 * const code: PromptErrorCode = "missing-value";
 * assert.equal(new PromptError(code, "Cannot render").code, "missing-value");
 * ```
 */
export type PromptErrorCode =
  | `invalid-${"section" | "context" | "item" | "option" | "value"}`
  | `duplicate-${"section" | "context" | "variable" | "item" | "tool"}`
  | `${"provider" | "handler" | "listener"}-failed`
  | `unknown-${"layer" | "variable"}`
  | "invalid-variable-name"
  | "orphan-item"
  | "scope-disposed"
  | "multiple-complete"
  | "aborted"
  | "missing-value"
  | "malformed-reference"
  | "tool-changed";

/**
 * Where an error happened: the structured fields of a {@linkcode PromptError}.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { PromptError, type PromptErrorOptions } from "@dsh/system-prompt";
 *
 * const where: PromptErrorOptions = { section: "persona", owner: "agent-loop" };
 * assert.equal(new PromptError("invalid-section", "Cannot", where).owner, "agent-loop");
 * ```
 */
export interface PromptErrorOptions {
  /** The original error. */
  cause?: unknown;
  /** The section at fault (for an item, its top-level list). */
  section?: string | undefined;
  /** The context entry at fault (for an item, its top-level list). */
  context?: string | undefined;
  /** The item at fault. */
  item?: string | undefined;
  /** The variable at fault. */
  variable?: string | undefined;
  /** The tool at fault. */
  tool?: string | undefined;
  /** The owner of the part at fault. */
  owner?: string | undefined;
  /** The handler at fault. */
  handler?: string | undefined;
  /** The layer at fault. */
  layer?: string | undefined;
  /** The reference as written. */
  reference?: string | undefined;
  /** 1-based line of the reference in its text. */
  line?: number | undefined;
  /** 1-based column (UTF-16 code units). */
  column?: number | undefined;
  /** 0-based offset in the text. */
  offset?: number | undefined;
  /** A close name ("did you mean"). */
  suggestion?: string | undefined;
  /** For `tool-changed`: the tool's pin. */
  pinned?: string | undefined;
  /** For `tool-changed`: the tool's fingerprint now. */
  fingerprint?: string | undefined;
}

/** The fields of a {@linkcode PromptError}, in the order its JSON lists them. */
const FIELDS = ("section context item variable tool owner handler layer " +
  "reference line column offset suggestion pinned fingerprint")
  .split(" ") as (keyof Omit<PromptErrorOptions, "cause">)[];

/**
 * The error every rule violation throws, with a stable `code` and the
 * structured fields of where it happened.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { PromptError, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * prompt.scope("auth").section({ name: "intro", order: 0, text: "Hi" });
 * assert.throws(() => prompt.section({ name: "intro", order: 1, text: "Yo" }), {
 *   name: "PromptError",
 *   code: "duplicate-section",
 *   owner: "auth",
 *   message: 'Cannot add section "intro" of the root registry: "auth" already added it',
 * });
 * assert.ok(new PromptError("aborted", "Cannot assemble") instanceof Error);
 * ```
 */
export class PromptError extends Error {
  /** What happened; stable across versions. */
  readonly code: PromptErrorCode;
  /** The section at fault (for an item, its top-level list). */
  readonly section: string | undefined;
  /** The context entry at fault (for an item, its top-level list). */
  readonly context: string | undefined;
  /** The item at fault. */
  readonly item: string | undefined;
  /** The variable at fault. */
  readonly variable: string | undefined;
  /** The tool at fault. */
  readonly tool: string | undefined;
  /** The owner of the part at fault. */
  readonly owner: string | undefined;
  /** The handler at fault. */
  readonly handler: string | undefined;
  /** The layer at fault. */
  readonly layer: string | undefined;
  /** The reference as written. */
  readonly reference: string | undefined;
  /** 1-based line of the reference. */
  readonly line: number | undefined;
  /** 1-based column of the reference (UTF-16 code units). */
  readonly column: number | undefined;
  /** 0-based offset of the reference. */
  readonly offset: number | undefined;
  /** A close name ("did you mean"). */
  readonly suggestion: string | undefined;
  /** For `tool-changed`: the tool's pin. */
  readonly pinned: string | undefined;
  /** For `tool-changed`: the tool's fingerprint now. */
  readonly fingerprint: string | undefined;

  /**
   * Makes an error.
   *
   * @param code What happened.
   * @param message For people.
   * @param options Where, and the original error as `cause`.
   */
  constructor(
    code: PromptErrorCode,
    message: string,
    options: PromptErrorOptions = {},
  ) {
    super(message, "cause" in options ? { cause: options.cause } : undefined);
    this.name = "PromptError";
    this.code = code;
    for (const key of FIELDS) {
      (this as Record<string, unknown>)[key] = options[key];
    }
  }

  /**
   * A plain object for logs: the code, message and every set field, with
   * `cause` as its message.
   *
   * @returns The JSON form.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { PromptError } from "@dsh/system-prompt";
   *
   * const error = new PromptError("aborted", "Cannot assemble", { cause: new Error("stop") });
   * assert.deepEqual(error.toJSON(), {
   *   name: "PromptError", code: "aborted", message: "Cannot assemble", cause: "stop",
   * });
   * ```
   */
  toJSON(): PromptErrorJSON {
    const json: Record<string, unknown> = {
      name: "PromptError",
      code: this.code,
      message: this.message,
    };
    for (const key of FIELDS) {
      const value = this[key];
      if (value !== undefined) json[key] = value;
    }
    if ("cause" in this) json.cause = messageOf(this.cause);
    return json as unknown as PromptErrorJSON;
  }
}

/**
 * The JSON form of a {@linkcode PromptError}.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { PromptError, type PromptErrorJSON } from "@dsh/system-prompt";
 *
 * const json: PromptErrorJSON = new PromptError("aborted", "Cannot").toJSON();
 * assert.equal(json.code, "aborted");
 * ```
 */
export interface PromptErrorJSON extends Omit<PromptErrorOptions, "cause"> {
  /** Always `"PromptError"`. */
  name: "PromptError";
  /** The code. */
  code: PromptErrorCode;
  /** The message. */
  message: string;
  /** The cause's message. */
  cause?: string;
}

/**
 * Where something failed, as the grammar names it. `owner` is named when
 * the key is present (`undefined`: the root registry); `list` is the path
 * of an item's list when it is nested.
 */
export interface Where extends Omit<PromptErrorOptions, "cause"> {
  readonly list?: readonly string[];
}

/**
 * Builds every error of the library: `Cannot <action> <where>: <state>`.
 * The one place a message is worded; nothing rewrites it afterwards.
 * `fields` sets the cause and overrides fields (a duplicate's `owner` is the
 * holder, while its message names both).
 */
export function failure(
  code: PromptErrorCode,
  action: string,
  where: Where,
  state: string,
  fields?: PromptErrorOptions,
): PromptError {
  const what = describeWhere(where);
  const message = `Cannot ${action}${what && " " + what}: ${state}`;
  // The error keeps only its own fields of `where` (not `list`).
  return new PromptError(code, message, { ...where, ...fields });
}

const HANDLER = '"system-prompt/assemble" handler';

/** `item "x" of list "tools" of "bash" in layer "sub"`, or any part of it. */
export function describeWhere(where: Where): string {
  const { item, list, section, context, variable, tool, handler } = where;
  const path = (list ?? [section ?? context ?? ""]).map(quote).join(" > ");
  let what = "";
  if (item !== undefined) what = `item ${quote(item)} of list ${path}`;
  else if (list !== undefined) what = `list ${path}`;
  else if (section !== undefined) what = `section ${quote(section)}`;
  else if (context !== undefined) what = `context entry ${quote(context)}`;
  else if (variable !== undefined) what = `variable ${quote(variable)}`;
  else if (tool !== undefined) what = `tool ${quote(tool)}`;
  else if (handler !== undefined) what = `${HANDLER} ${quote(handler)}`;
  // With a handler and a part, the owner is the handler's, named in the action.
  const ofOwner = handler === undefined || what.startsWith(HANDLER);
  if ("owner" in where && ofOwner) what += ` of ${describeOwner(where.owner)}`;
  if (where.layer !== undefined) what += ` in layer ${quote(where.layer)}`;
  return what.trimStart();
}

/** `"git"`, or `the root registry` for a registration without owner. */
export function describeOwner(owner: string | undefined): string {
  return owner === undefined ? "the root registry" : quote(owner);
}

function quote(name: string): string {
  return JSON.stringify(name);
}

/** A value named by its kind, never by reading it: `a promise`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  try {
    if (Array.isArray(value)) return "an array";
    if (typeof (value as { then?: unknown }).then === "function") {
      return "a promise";
    }
  } catch {
    // Described by its type below.
  }
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}

/** The message of anything thrown, never throwing itself. */
export function messageOf(error: unknown): string {
  try {
    return String(error instanceof Error ? error.message : error);
  } catch {
    return `(${describeValue(error)} that cannot be shown)`;
  }
}

/** `instanceof PromptError`, safe for thrown proxies whose traps throw. */
export function isPromptError(value: unknown): value is PromptError {
  try {
    return value instanceof PromptError;
  } catch {
    return false;
  }
}

/**
 * What an entry point throws when reading its input threw (a revoked
 * proxy, a getter that throws): a `PromptError` as it is, anything else
 * `invalid-value` with it as `cause`.
 */
export function unreadable(
  error: unknown,
  action: string,
  where: Where,
  what: string,
): PromptError {
  if (isPromptError(error)) return error;
  const state = `reading ${what} threw: ${messageOf(error)}`;
  return failure("invalid-value", action, where, state, { cause: error });
}
