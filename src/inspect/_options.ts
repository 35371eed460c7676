/**
 * The errors of an inspection's options, worded by the message grammar:
 * a `TypeError` for a value of the wrong JS type, `invalid-option` for one
 * out of its range.
 *
 * @module
 */

import { describeValue } from "../core/_describe.ts";
import { failure, typeFailure } from "../core/_messages.ts";

/** What is wrong with an option; `got`, the value, when its JS type is wrong. */
export type OptionFault = { readonly state: string; readonly got?: unknown };

/** `Cannot <action>: <state>`, with `, got <kind of value>` for a TypeError. */
export function optionError(action: string, fault: OptionFault): Error {
  const got = "got" in fault ? `, got ${describeValue(fault.got)}` : "";
  const problem = fault.state + got;
  return got === ""
    ? failure({ code: "invalid-option", action, problem })
    : typeFailure({ action, problem });
}
