/**
 * The one error class of the module, and its stable codes.
 *
 * @module
 */

import { messageOf } from "./_message_of.ts";

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
  | "invalid-section"
  | "duplicate-section"
  | "invalid-variable-name"
  | "duplicate-variable"
  | "invalid-item"
  | "duplicate-item"
  | "invalid-option"
  | "scope-disposed"
  | "provider-failed"
  | "handler-failed"
  | "listener-failed"
  | "invalid-value"
  | "duplicate-tool"
  | "unknown-variable"
  | "missing-value"
  | "malformed-reference";

/**
 * The structured facts a {@linkcode PromptError} carries. Every field is
 * optional: each error sets the ones that apply to it.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { PromptError, type PromptErrorOptions } from "@dsh/system-prompt";
 *
 * const options: PromptErrorOptions = { section: "intro", line: 1, column: 4 };
 * assert.equal(new PromptError("missing-value", "x", options).column, 4);
 * ```
 */
export interface PromptErrorOptions {
  /** The original error. @default {undefined} */
  cause?: unknown;
  /** Name of the section at fault (for an item, its list). @default {undefined} */
  section?: string | undefined;
  /** Name of the item at fault. @default {undefined} */
  item?: string | undefined;
  /** Name of the variable at fault. @default {undefined} */
  variable?: string | undefined;
  /** Name of the tool at fault. @default {undefined} */
  tool?: string | undefined;
  /** The owner (plugin scope) of the registration at fault. @default {undefined} */
  owner?: string | undefined;
  /** The handler or listener at fault: its function name, or `#index`. @default {undefined} */
  handler?: string | undefined;
  /** The `{{…}}` text at fault, as written. @default {undefined} */
  reference?: string | undefined;
  /** 1-based line of `reference` in the section (or item) text. @default {undefined} */
  line?: number | undefined;
  /** 1-based column of `reference`, in UTF-16 code units. @default {undefined} */
  column?: number | undefined;
  /** 0-based index of `reference` in the section text. @default {undefined} */
  offset?: number | undefined;
  /** A registered name close to an unknown one. @default {undefined} */
  suggestion?: string | undefined;
}

/**
 * The error every rule violation of this module throws. `code` is stable;
 * the other fields say which section, variable, tool or owner is at fault,
 * and `cause` holds the original error when one was caught.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { PromptError, renderPrompt } from "@dsh/system-prompt";
 *
 * const assembly = {
 *   sections: [{ name: "intro", order: 0, text: "Hi {{usr}}" }],
 *   tools: [],
 *   variables: { user: "Ada" },
 * };
 * assert.throws(() => renderPrompt(assembly), (error) => {
 *   assert.ok(error instanceof PromptError);
 *   assert.equal(error.code, "unknown-variable");
 *   assert.equal(error.section, "intro");
 *   assert.equal(error.suggestion, "user");
 *   return true;
 * });
 * ```
 */
export class PromptError extends Error {
  /** The stable code of the condition. */
  readonly code: PromptErrorCode;
  /** Name of the section at fault (for an item, its list). */
  readonly section: string | undefined;
  /** Name of the item at fault. */
  readonly item: string | undefined;
  /** Name of the variable at fault. */
  readonly variable: string | undefined;
  /** Name of the tool at fault. */
  readonly tool: string | undefined;
  /** The owner of the registration at fault. */
  readonly owner: string | undefined;
  /** The handler or listener at fault. */
  readonly handler: string | undefined;
  /** The `{{…}}` text at fault, as written. */
  readonly reference: string | undefined;
  /** 1-based line of `reference` in the section text. */
  readonly line: number | undefined;
  /** 1-based column of `reference`, in UTF-16 code units. */
  readonly column: number | undefined;
  /** 0-based index of `reference` in the section text. */
  readonly offset: number | undefined;
  /** A registered name close to an unknown one. */
  readonly suggestion: string | undefined;

  /**
   * Creates an error with a code, a message and the structured facts.
   *
   * @param code The stable code.
   * @param message What failed and why, for people.
   * @param options The structured facts and the cause.
   */
  constructor(
    code: PromptErrorCode,
    message: string,
    options: PromptErrorOptions = {},
  ) {
    super(
      message,
      "cause" in options ? { cause: options.cause } : undefined,
    );
    this.name = "PromptError";
    this.code = code;
    this.section = options.section;
    this.item = options.item;
    this.variable = options.variable;
    this.tool = options.tool;
    this.owner = options.owner;
    this.handler = options.handler;
    this.reference = options.reference;
    this.line = options.line;
    this.column = options.column;
    this.offset = options.offset;
    this.suggestion = options.suggestion;
  }

  /**
   * The error as JSON data: `name`, `code`, `message`, every structured
   * field that is set, and `cause` as its message. `JSON.stringify` calls
   * it, so a logged error keeps its message (which is not an own enumerable
   * property of an `Error`). `structuredClone` does not call it: a clone is
   * a plain `Error` with the message, `stack` and a clone of `cause`, and
   * without `code` or the other fields.
   *
   * @returns A fresh plain object.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { PromptError } from "@dsh/system-prompt";
   *
   * const error = new PromptError("missing-value", "Cannot render", { section: "s" });
   * assert.deepEqual(JSON.parse(JSON.stringify(error)), {
   *   name: "PromptError",
   *   code: "missing-value",
   *   message: "Cannot render",
   *   section: "s",
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

const FIELDS = [
  "section",
  "item",
  "variable",
  "tool",
  "owner",
  "handler",
  "reference",
  "line",
  "column",
  "offset",
  "suggestion",
] as const;

/**
 * What {@linkcode PromptError.toJSON} returns: the error as plain data.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { PromptError, type PromptErrorJSON } from "@dsh/system-prompt";
 *
 * const json: PromptErrorJSON = new PromptError("duplicate-tool", "x").toJSON();
 * assert.equal(json.code, "duplicate-tool");
 * ```
 */
export interface PromptErrorJSON extends Omit<PromptErrorOptions, "cause"> {
  /** Always `"PromptError"`. */
  name: "PromptError";
  /** The stable code. */
  code: PromptErrorCode;
  /** The message. */
  message: string;
  /** The message of the original error, when there is one. */
  cause?: string;
}
