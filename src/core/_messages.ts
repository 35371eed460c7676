/**
 * The one message builder: every `PromptError` and every `TypeError` of
 * the library is worded here, in the grammar of docs/errors.md,
 * `Cannot <action> <where>: <problem>`, as in
 * `Cannot add section "intro": "auth" already added it`. Nothing rewrites a
 * message afterwards, and no other file builds one.
 *
 * @module
 */

import { messageOf } from "./_describe.ts";
import {
  PromptError,
  type PromptErrorCode,
  type PromptErrorOptions,
} from "./errors.ts";

/** The events whose handlers a message can name. */
type HandlerEvent = "system-prompt/assemble" | "system-prompt/change";

/**
 * Where something failed, as the grammar names it. `owner` is named when
 * the key is present (`undefined`: the root registry); `list` is the path
 * of an item's list when it is nested; `event` the event of the `handler`
 * (`system-prompt/assemble` unless set); `subject: "layer"` says the layer
 * is what failed (`add layer "sub"`), not where a part is (`in layer "sub"`).
 */
export interface Where extends Omit<PromptErrorOptions, "cause"> {
  readonly list?: readonly string[];
  readonly event?: HandlerEvent;
  readonly subject?: "layer";
}

/** A message in the grammar's three parts. */
export interface Sentence {
  /** What failed, a verb first: `add`, `assemble`, `render`, `list items of`. */
  readonly action: string;
  /** The part at fault and its owner; none when the action names its object. */
  readonly where?: Where;
  /**
   * What was wrong, after the colon: the value found and what belongs
   * there, what user code did, or who holds a name.
   */
  readonly problem: string;
}

/** A `PromptError` to build: its code, its message, and what it carries. */
export interface Failure extends Sentence {
  readonly code: PromptErrorCode;
  /** The original error; set when the key is present, even to `undefined`. */
  readonly cause?: unknown;
  /**
   * Fields that override the where's (a duplicate's `owner` is the holder,
   * while its message names both) or that the where does not name
   * (`suggestion`, `reference`, `line`).
   */
  readonly fields?: Omit<PromptErrorOptions, "cause">;
}

/** The message of a sentence: `Cannot <action> <where>: <problem>`. */
export function sentence({ action, where = {}, problem }: Sentence): string {
  const what = describeWhere(where);
  return `Cannot ${action}${what && " " + what}: ${problem}`;
}

/** Builds every `PromptError` of the library. */
export function failure(spec: Failure): PromptError {
  const { where, fields } = spec;
  // The error keeps only its own fields of `where` (not `list`, `event`,
  // `subject`).
  const options: PromptErrorOptions = { ...where, ...fields };
  if ("cause" in spec) options.cause = spec.cause;
  return new PromptError(spec.code, sentence(spec), options);
}

/**
 * Builds every `TypeError` of the library: an argument of the wrong JS
 * type at registration or construction, as the built-ins report one.
 */
export function typeFailure(spec: Sentence): TypeError {
  return new TypeError(sentence(spec));
}

const HANDLER: Record<HandlerEvent, string> = {
  "system-prompt/assemble": '"system-prompt/assemble" handler',
  "system-prompt/change": '"system-prompt/change" listener',
};

/** `item "x" of list "tools" of "bash" in layer "sub"`, or any part of it. */
export function describeWhere(where: Where): string {
  const { item, list, section, context, variable, tool, handler } = where;
  const path = (list ?? [section ?? context ?? ""]).map(quote).join(" > ");
  const role = HANDLER[where.event ?? "system-prompt/assemble"];
  let what = "";
  if (item !== undefined) what = `item ${quote(item)} of list ${path}`;
  else if (list !== undefined) what = `list ${path}`;
  else if (section !== undefined) what = `section ${quote(section)}`;
  else if (context !== undefined) what = `context entry ${quote(context)}`;
  else if (variable !== undefined) what = `variable ${quote(variable)}`;
  else if (tool !== undefined) what = `tool ${quote(tool)}`;
  else if (handler !== undefined) what = `${role} ${quote(handler)}`;
  // With a handler and a part, the owner is the handler's, named in the action.
  const ofOwner = handler === undefined || what.startsWith(role);
  if ("owner" in where && ofOwner) what += ` of ${describeOwner(where.owner)}`;
  if (where.layer !== undefined) {
    const of = where.subject === "layer" ? " layer" : " in layer";
    what += `${of} ${quote(where.layer)}`;
  }
  return what.trimStart();
}

/** `"git"`, or `the root registry` for a registration without owner. */
export function describeOwner(owner: string | undefined): string {
  return owner === undefined ? "the root registry" : quote(owner);
}

/**
 * The one wording of a name that is taken: who holds it, when a registry
 * knows (`"auth" already added it`, or what of theirs holds it), else that
 * the assembly has it twice.
 */
export function nameTaken(
  holder?: { readonly owner: string | undefined; readonly what?: string },
): string {
  if (holder === undefined) return "its name appears twice";
  return `${describeOwner(holder.owner)} already added ${holder.what ?? "it"}`;
}

function quote(name: string): string {
  return JSON.stringify(name);
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
 * `invalid-value` with it as `cause`. `what` names what was read.
 */
export function unreadable(
  error: unknown,
  read: {
    readonly action: string;
    readonly where?: Where;
    readonly what: string;
  },
): PromptError {
  if (isPromptError(error)) return error;
  const problem = `reading ${read.what} threw: ${messageOf(error)}`;
  return failure({ ...read, code: "invalid-value", problem, cause: error });
}
