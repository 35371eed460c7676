/**
 * What can be wrong with a part or a text while it renders, worded once
 * through the error grammar: the cold path of `_walk.ts`.
 *
 * @module
 */

import { checkPart, fieldError } from "../core/_fields.ts";
import { describeValue } from "../core/_describe.ts";
import type { PromptError } from "../core/errors.ts";
import {
  type Failure,
  failure,
  unreadable,
  type Where,
} from "../core/_messages.ts";
import { closestName, didYouMean } from "../core/_names.ts";

/**
 * Where a text that fails sits: its part (`where`), whether it is the
 * list's footer, and either the reference (`offset`, `name`, the `value`
 * read) or the malformed group (`span`).
 */
export interface TextSite {
  readonly text: string;
  readonly variables: object;
  readonly where: Where;
  readonly footer: boolean;
  readonly offset?: number;
  readonly name?: string;
  readonly value?: unknown;
  readonly span?: readonly [start: number, end: number];
}

/** The error for a reference that resolves to no string, or for a malformed group. */
export function textError(site: TextSite): PromptError {
  const { text, name, variables, value, span } = site;
  const offset = span?.[0] ?? site.offset!;
  const end = span?.[1] ?? text.indexOf("}}", offset) + 2;
  const reference = text.slice(offset, end);
  const { line, column } = locate(text, offset);
  const at = `at ${line}:${column}${site.footer ? " of its footer" : ""}`;
  const fields = { reference, line, column, offset };
  if (name === undefined) {
    const problem = `${JSON.stringify(reference)} ${at} is not a variable ` +
      "reference; write `\\{{` for a literal `{{`";
    const code = "malformed-reference";
    return failure({
      code,
      action: "render",
      where: site.where,
      problem,
      fields,
    });
  }
  // Only own properties count; `value` is the one read (a getter may answer
  // differently the next time).
  const known = Object.hasOwn(variables, name);
  const suggestion = known
    ? undefined
    : closestName(name, Object.keys(variables));
  const [code, phrase]: [Failure["code"], string] = !known
    ? ["unknown-variable", `which is not registered${didYouMean(suggestion)}`]
    : value === undefined
    ? ["missing-value", "which has no value in this assembly"]
    : ["invalid-value", `whose value is ${describeValue(value)}, not a string`];
  const problem = `${reference} ${at} names variable "${name}", ${phrase}`;
  const all = { variable: name, ...fields, suggestion };
  return failure({
    code,
    action: "render",
    where: site.where,
    problem,
    fields: all,
  });
}

/** The error for an assembly whose `field` is `value`, not `expected`. */
export function assemblyError(
  kind: "section" | "context",
  [field, value, expected]: [string, unknown, string],
): PromptError {
  const problem = `${field} is ${describeValue(value)}, not ${expected}`;
  const action = `render the ${kind === "section" ? "prompt" : "context"}`;
  return failure({ code: "invalid-value", action, problem });
}

/**
 * A render's error: a `PromptError` as it is; a read that threw names the
 * top-level part it was in (index `top` of `parts`), or the assembly.
 */
export function readError(
  error: unknown,
  at: {
    kind: "section" | "context";
    /** The sequence read, and the index of the part it was in, if known. */
    parts: unknown;
    top: number | undefined;
  },
): Error {
  const { kind, parts, top } = at;
  const action = `render the ${kind === "section" ? "prompt" : "context"}`;
  if (top === undefined || top < 0) {
    return unreadable(error, { action, what: "the assembly" });
  }
  let name: unknown;
  try {
    name = (parts as { name?: unknown }[])[top]?.name;
  } catch {
    // Unreadable itself: named by its index.
  }
  const label = typeof name === "string" && name !== "" ? name : `#${top}`;
  return unreadable(error, {
    action: "render",
    where: { [kind]: label },
    what: "it",
  });
}

/**
 * Where a part sits: its sequence's kind, the names of the lists it is in,
 * and its index in its sequence.
 */
export interface PartPlace {
  readonly kind: "section" | "context";
  readonly path: readonly string[];
  readonly index?: number;
}

/** How errors name `part` (or `label`): a top-level part, or an item and its lists. */
export function whereOf(
  part: unknown,
  at: PartPlace & { readonly label?: string },
): Where {
  let label = at.label;
  const { name, owner, layer } = (part ?? {}) as Record<string, unknown>;
  // A part that is no object has no owner to name.
  // An owner that is not a string is no owner to name (it is the fault).
  const who = typeof part !== "object" || part === null ? {} : {
    ...(owner === undefined || typeof owner === "string" ? { owner } : {}),
    ...(typeof layer === "string" ? { layer } : {}),
  };
  label ??= name as string;
  if (at.path.length === 0) return { [at.kind]: label, ...who };
  return { [at.kind]: at.path[0], item: label, list: [...at.path], ...who };
}

/** The field table's error for a part the quick check refused, index `index` of its sequence. */
export function invalidPart(part: unknown, at: PartPlace): Error {
  const name = (part as { name?: unknown } | null)?.name;
  const label = typeof name === "string" && name !== "" ? name : `#${at.index}`;
  const check = {
    kind: at.path.length === 0 ? at.kind : "item",
    mode: "assembled",
    action: "render",
    where: whereOf(part, { ...at, label }),
  } as const;
  checkPart(part, check);
  // The quick check and the table disagree: name the part all the same.
  const expected = "a part the renderer accepts";
  return fieldError(check, { field: "entry", expected, value: part });
}

/** The 1-based line and column (in UTF-16 code units) of `offset` in `text`. */
export function locate(
  text: string,
  offset: number,
): { line: number; column: number } {
  const lines = text.slice(0, offset).split("\n");
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}
