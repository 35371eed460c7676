/**
 * The errors of an inspection's options, worded by the message grammar:
 * a `TypeError` for a value of the wrong JS type, `invalid-option` for one
 * out of its range.
 *
 * @module
 */

import { describeValue, failure } from "../core/errors.ts";

/** What is wrong with an option; `got`, the value, when its JS type is wrong. */
export type OptionFault = { readonly state: string; readonly got?: unknown };

/** `Cannot <action>: <state>`, with `, got <kind of value>` for a TypeError. */
export function optionError(action: string, fault: OptionFault): Error {
  const got = "got" in fault ? `, got ${describeValue(fault.got)}` : "";
  const error = failure("invalid-option", action, {}, fault.state + got);
  return got === "" ? error : new TypeError(error.message);
}
