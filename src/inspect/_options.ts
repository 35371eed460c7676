/**
 * The errors of an inspection's options, worded by the message grammar:
 * a `TypeError` for a value of the wrong JS type, `invalid-option` for one
 * out of its range.
 *
 * @module
 */

import { describeValue, failure } from "../core/errors.ts";

/** What is wrong with an option; `got`, the value, when its JS type is wrong. */
export interface OptionFault {
  readonly state: string;
  readonly got?: unknown;
}

/** `Cannot <action>: <state>`, with `, got <kind of value>` for a TypeError. */
export function optionError(action: string, fault: OptionFault): Error {
  if (!("got" in fault)) {
    return failure("invalid-option", action, {}, fault.state);
  }
  const state = `${fault.state}, got ${describeValue(fault.got)}`;
  return new TypeError(failure("invalid-option", action, {}, state).message);
}
