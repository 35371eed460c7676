/**
 * The one error class of the module, its stable codes and its fields.
 * Every message is worded by `failure()` of `_messages.ts`, in the grammar
 * of docs/errors.md.
 *
 * @module
 */

import { messageOf } from "./_describe.ts";

/**
 * Every condition a {@linkcode PromptError} can report. The strings are
 * stable: match on them, not on messages.
 *
 * | code | thrown by | when |
 * | --- | --- | --- |
 * | `invalid-section` | `section()`, `renderPrompt()` | an empty name or non-finite order; a non-string text in an assembly |
 * | `duplicate-section` | `section()` | a live section has the name (`owner` is the holder; the message names both) |
 * | `invalid-variable-name` | `variable()` | the name is not a reference name |
 * | `duplicate-variable` | `variable()` | a live variable has the name (`owner` is the holder; the message names both) |
 * | `invalid-item` | `item()`, `renderPrompt()` | an empty item name or list, a non-finite order; a non-string item text in an assembly |
 * | `duplicate-item` | `item()`, `assemble()` | an item of the same list has the name (`owner` is the holder; the message names both) |
 * | `scope-disposed` | a scope's methods | registering through a disposed scope |
 * | `provider-failed` | `assemble()`, `render()`, an `mcpTools()` provider | a provider or text function threw or its promise rejected; an MCP client's `listTools()` rejected (`cause`) |
 * | `handler-failed` | `assemble()` | an assemble handler threw or rejected (`cause`) |
 * | `listener-failed` | `onListenerError` | a change listener threw; the registration stands |
 * | `invalid-value` | `assemble()`, `renderPrompt()`, the adapters, `CacheLedger.record()`, an `mcpTools()` provider | a provider or handler returned the wrong kind of value; a step whose `blocks` do not join to its `prompt`; a usage object of no provider's shape; an MCP listing that is not one |
 * | `duplicate-tool` | `assemble()` | two tools with one name in one assembly |
 * | `unknown-variable` | `renderPrompt()` | a reference to a name that is not a variable (with a suggestion within edit distance 2) |
 * | `missing-value` | `renderPrompt()` | a reference to a variable whose value is `undefined` |
 * | `malformed-reference` | `renderPrompt()` | a complete group that is not a reference |
 * | `invalid-option` | `new SystemPrompt()`, `layer()`, `cacheBlocks()`, `planCache()` and the adapters, the message helpers, `inspectorPage()`, `mcpTools()`, `CacheLedger.record()` | an option of the right type outside its range; a bad `toolOrder` or `toolPins`; a live layer with another parent; a `countTokens` that throws (`cause`) or returns anything but a non-negative finite number; a message TTL longer than the plan's; an MCP server without a name |
 * | `invalid-context` | `context()`, `renderContext()` | as `invalid-section`, for a runtime-context entry |
 * | `duplicate-context` | `context()` | a live context entry has the name, or a section list of the name exists (names the holder) |
 * | `orphan-item` | `assemble()`, `render()` | an item's list is not a live list (with a suggestion) |
 * | `unknown-layer` | `assemble()`, `render()` | no live layer has the key, or its parent chain breaks (with a suggestion) |
 * | `multiple-complete` | `assemble()`, `render()` | two live `complete: true` sections |
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
