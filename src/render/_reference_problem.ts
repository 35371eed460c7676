/**
 * Why a reference cannot be resolved, worded once for `renderPrompt`'s
 * errors and `checkPrompt`'s diagnostics.
 *
 * @module
 */

import { describeValue } from "../core/errors.ts";
import { closestName } from "./_closest_name.ts";

/** A reference that cannot be resolved, and how to say so. */
export interface ReferenceProblem {
  readonly code: "unknown-variable" | "missing-value" | "invalid-value";
  /** Completes "… names variable "x"": `, which is not registered`, … */
  readonly phrase: string;
  /** A registered name close to an unknown one. */
  readonly suggestion: string | undefined;
}

/**
 * What is wrong with a reference to `name` in `variables`, whose value was
 * read as `value` (passed in, not read again: a getter may answer
 * differently), or `undefined` when it resolves to a string. Only own
 * properties count.
 */
export function referenceProblem(
  variables: Readonly<Record<string, unknown>>,
  name: string,
  value: unknown,
): ReferenceProblem | undefined {
  if (!Object.hasOwn(variables, name)) {
    const suggestion = closestName(name, Object.keys(variables));
    const hint = suggestion === undefined
      ? ""
      : `; did you mean "${suggestion}"?`;
    return {
      code: "unknown-variable",
      phrase: `names variable "${name}", which is not registered${hint}`,
      suggestion,
    };
  }
  if (typeof value === "string") return undefined;
  if (value === undefined) {
    return {
      code: "missing-value",
      phrase: `names variable "${name}", which has no value in this assembly`,
      suggestion: undefined,
    };
  }
  return {
    code: "invalid-value",
    phrase: `names variable "${name}", whose value is ${
      describeValue(value)
    }, not a string`,
    suggestion: undefined,
  };
}

/**
 * Whether `value`, read as `variables[name]`, is a string the reference may
 * use: own properties only, checked when `variables` has a prototype.
 */
export function isOwnString(
  variables: object,
  name: string,
  value: unknown,
  checkOwn: boolean,
): boolean {
  return typeof value === "string" &&
    (!checkOwn || Object.hasOwn(variables, name));
}
