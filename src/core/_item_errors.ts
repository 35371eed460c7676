/**
 * The messages of every `PromptError` about a list item, each written once,
 * in the form of `_errors.ts`: the failed action, a colon, the state found.
 * Every one carries `item` (when known), `section` (the list) and `owner`.
 *
 * @module
 */

import { describeValue } from "./errors.ts";
import { describeOwner, messageOf } from "./errors.ts";
import { PromptError } from "./errors.ts";

/** `item "x" of list "y"`, as messages name an item. */
export function describeItem(item: string, list: string): string {
  return `item "${item}" of list "${list}"`;
}

export function invalidItem(
  item: string,
  list: string,
  owner: string | undefined,
  problem: string,
): PromptError {
  const what = item === ""
    ? `item of list "${list}"`
    : describeItem(item, list);
  return new PromptError("invalid-item", `Cannot add ${what}: ${problem}`, {
    item,
    section: list,
    owner,
  });
}

export function duplicateItem(
  item: string,
  list: string,
  owner: string | undefined,
  firstOwner: string | undefined,
): PromptError {
  return new PromptError(
    "duplicate-item",
    `Cannot add ${describeItem(item, list)} for ${describeOwner(owner)}: ` +
      `${describeOwner(firstOwner)} already added it`,
    { item, section: list, owner },
  );
}

/** A text or order function of an item threw. */
export function itemFailed(
  item: string,
  list: string,
  owner: string | undefined,
  what: "text" | "order",
  cause: unknown,
): PromptError {
  return new PromptError(
    "provider-failed",
    `Cannot assemble ${describeItem(item, list)} of ${describeOwner(owner)}: ` +
      `its ${what} function threw: ${messageOf(cause)}`,
    { cause, item, section: list, owner },
  );
}

/** A text or order function of an item returned the wrong kind of value. */
export function itemReturned(
  item: string,
  list: string,
  owner: string | undefined,
  what: "text" | "order",
  value: unknown,
): PromptError {
  const expected = what === "text" ? "a string" : "a finite number";
  const shown = typeof value === "number"
    ? String(value)
    : describeValue(value);
  return new PromptError(
    "invalid-value",
    `Cannot assemble ${describeItem(item, list)} of ${describeOwner(owner)}: ` +
      `its ${what} function returned ${shown}, not ${expected}`,
    { item, section: list, owner },
  );
}

export function itemsFailed(
  list: string,
  owner: string | undefined,
  cause: unknown,
): PromptError {
  return new PromptError(
    "provider-failed",
    `Cannot list items of list "${list}" from ${describeOwner(owner)}: ` +
      `its item provider threw: ${messageOf(cause)}`,
    { cause, section: list, owner },
  );
}

/** An item provider returned a non-array, or an entry that is not an item. */
export function itemsReturned(
  list: string,
  owner: string | undefined,
  problem: string,
): PromptError {
  return new PromptError(
    "invalid-value",
    `Cannot list items of list "${list}" from ${describeOwner(owner)}: ` +
      problem,
    { section: list, owner },
  );
}

/** A handler left an item whose text is not a string. */
export function itemFlagInvalid(
  item: string,
  list: string,
  owner: string | undefined,
  flag: string,
  value: unknown,
): PromptError {
  return new PromptError(
    "invalid-item",
    `Cannot render ${describeItem(item, list)}: its ${flag} is ${
      describeValue(value)
    }, not a boolean`,
    { item, section: list, owner },
  );
}

export function itemTextNotString(
  item: string,
  list: string,
  owner: string | undefined,
  value: unknown,
): PromptError {
  return new PromptError(
    "invalid-item",
    `Cannot render ${describeItem(item, list)}: its text is ${
      describeValue(value)
    }, not a string`,
    { item, section: list, owner },
  );
}

/** A handler left a layout field of the wrong type in an assembly. */
export function invalidLayout(
  section: string | undefined,
  owner: string | undefined,
  field: string,
  expected: string,
  value: unknown,
): PromptError {
  const where = section === undefined ? "prompt" : `section "${section}"`;
  return new PromptError(
    section === undefined ? "invalid-value" : "invalid-section",
    `Cannot render ${where}: its ${field} is ${describeValue(value)}, not ` +
      expected,
    section === undefined ? {} : { section, owner },
  );
}
