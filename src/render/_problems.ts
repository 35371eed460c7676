/**
 * What can be wrong with a text or a part while it renders, worded once
 * through the error grammar: the cold path of `_walk.ts`, and the wording
 * `checkPrompt` reuses for its diagnostics.
 *
 * @module
 */

import { checkPart, fieldError, type PartKind } from "../core/_fields.ts";
import {
  describeValue,
  failure,
  type PromptError,
  type PromptErrorCode,
  type Where,
} from "../core/errors.ts";
import { closestName, didYouMean } from "../core/names.ts";
import { locate } from "./_template.ts";

/** A reference that cannot be resolved, and how to say so. */
export interface ReferenceProblem {
  readonly code: "unknown-variable" | "missing-value" | "invalid-value";
  /** Completes `… names variable "x"`: `, which is not registered`, … */
  readonly phrase: string;
  /** A variable name close to an unknown one. */
  readonly suggestion: string | undefined;
}

/**
 * What is wrong with a reference to `name`, whose value was read as `value`
 * (passed in, not read again: a getter may answer differently), or
 * `undefined` when it resolves. Only own properties count.
 */
export function referenceProblem(
  variables: object,
  name: string,
  value: unknown,
): ReferenceProblem | undefined {
  if (!Object.hasOwn(variables, name)) {
    const suggestion = closestName(name, Object.keys(variables));
    return {
      code: "unknown-variable",
      phrase: `, which is not registered${didYouMean(suggestion)}`,
      suggestion,
    };
  }
  if (typeof value === "string") return undefined;
  if (value === undefined) {
    return {
      code: "missing-value",
      phrase: ", which has no value in this assembly",
      suggestion: undefined,
    };
  }
  return {
    code: "invalid-value",
    phrase: `, whose value is ${describeValue(value)}, not a string`,
    suggestion: undefined,
  };
}

/** A reference in a part's text (or its list's footer) and what it read. */
export interface ReferenceSite {
  readonly text: string;
  readonly offset: number;
  readonly name: string;
  readonly value: unknown;
  readonly variables: object;
  readonly where: Where;
  readonly footer?: true | undefined;
}

/** The error for a reference that does not resolve to a string. */
export function referenceError(site: ReferenceSite): PromptError {
  const { text, offset, name } = site;
  const problem = referenceProblem(site.variables, name, site.value)!;
  const reference = text.slice(offset, text.indexOf("}}", offset) + 2);
  const { line, column } = locate(text, offset);
  return failure(
    problem.code as PromptErrorCode,
    "render",
    site.where,
    `${reference} at ${line}:${column}${site.footer ? " of its footer" : ""} ` +
      `names variable "${name}"${problem.phrase}`,
    {
      variable: name,
      reference,
      line,
      column,
      offset,
      ...(problem.suggestion === undefined
        ? {}
        : { suggestion: problem.suggestion }),
    },
  );
}

/** The error for a complete group `[start, end)` that is not a reference. */
export function malformedError(
  site: {
    text: string;
    span: readonly [number, number];
    where: Where;
    footer?: true | undefined;
  },
): PromptError {
  const [start, end] = site.span;
  const reference = site.text.slice(start, end);
  const { line, column } = locate(site.text, start);
  return failure(
    "malformed-reference",
    "render",
    site.where,
    `${JSON.stringify(reference)} at ${line}:${column}${
      site.footer ? " of its footer" : ""
    } ` +
      "is not a variable reference; write `\\{{` for a literal `{{`",
    { reference, line, column, offset: start },
  );
}

/** The field table's error for a part the renderer's quick check refused. */
export function invalidPart(
  part: unknown,
  check: { kind: PartKind; where: Where },
): Error {
  const field = { ...check, mode: "assembled", action: "render" } as const;
  checkPart(part, field);
  // The quick check and the table disagree: name the part all the same.
  return fieldError(field, "entry", "a part the renderer accepts", part);
}
