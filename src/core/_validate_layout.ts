/**
 * Checks the layout options of a section (SPEC §7) and list items, as they
 * are registered or returned by an item provider. Wrong JS types throw
 * `TypeError`; rule violations throw `PromptError`.
 *
 * @module
 */

import { describeValue } from "./_describe_value.ts";
import type { ItemEntry, SectionLayout } from "./_entries.ts";
import { invalidItem, itemsReturned } from "./_item_errors.ts";
import { STABILITIES } from "./_stabilities.ts";
import type {
  AssembledItem,
  ItemInput,
  ListLayout,
  PromptItem,
} from "./items.ts";
import type { Stability } from "./context.ts";
import type { PromptSection } from "./types.ts";

/**
 * The section's layout options, or `undefined` when none is set (the
 * default layout, which then costs one field check per assembly).
 */
export function sectionLayout<C>(
  section: PromptSection<C>,
  name: string,
): SectionLayout | undefined {
  const { separator, trim, literal, list } = section;
  if (
    separator === undefined && trim === undefined && literal === undefined &&
    list === undefined
  ) return undefined;
  const where = `section "${name}"`;
  requireType(separator, "string", where, "separator");
  requireType(trim, "boolean", where, "trim");
  requireType(literal, "boolean", where, "literal");
  return {
    separator,
    trim: trim === false ? false : undefined,
    literal: literal === true ? true : undefined,
    list: list === undefined ? undefined : listLayout(list, where),
  };
}

/** A frozen copy of `list`, each field read once. */
function listLayout(list: unknown, where: string): Readonly<ListLayout> {
  if (typeof list !== "object" || list === null || Array.isArray(list)) {
    throw new TypeError(
      `Cannot add ${where}: list must be an object, got ${describeValue(list)}`,
    );
  }
  const { separator, empty, dedupe } = list as ListLayout;
  requireType(separator, "string", where, "list.separator");
  requireType(empty, "string", where, "list.empty");
  requireType(dedupe, "boolean", where, "list.dedupe");
  const layout: ListLayout = {};
  if (separator !== undefined) layout.separator = separator;
  if (empty !== undefined) layout.empty = empty;
  if (dedupe === true) layout.dedupe = true;
  return Object.freeze(layout);
}

/** The item's entry: every field read once and validated. */
export function itemEntry<C>(
  list: string,
  item: PromptItem<C>,
  owner: string | undefined,
): ItemEntry<C> {
  if (typeof list !== "string") {
    throw new TypeError(
      `Cannot add item: list must be a section name, got ${
        describeValue(list)
      }`,
    );
  }
  if (typeof item !== "object" || item === null) {
    throw new TypeError(
      `Cannot add item of list "${list}": expected { name, order, text }, ` +
        `got ${describeValue(item)}`,
    );
  }
  const { name, order, text, literal, trim, stability } = item;
  if (typeof name !== "string") {
    throw new TypeError(
      `Cannot add item of list "${list}": name must be a string, got ${
        describeValue(name)
      }`,
    );
  }
  if (name === "") {
    throw invalidItem(name, list, owner, "name must not be empty");
  }
  if (list === "") {
    throw invalidItem(name, list, owner, "list must not be empty");
  }
  const where = `item "${name}" of list "${list}"`;
  if (typeof order !== "number" && typeof order !== "function") {
    throw new TypeError(
      `Cannot add ${where}: order must be a number or a function, got ${
        describeValue(order)
      }`,
    );
  }
  if (typeof order === "number" && !Number.isFinite(order)) {
    throw invalidItem(name, list, owner, `order must be finite, got ${order}`);
  }
  if (typeof text !== "string" && typeof text !== "function") {
    throw new TypeError(
      `Cannot add ${where}: text must be a string or a function, got ${
        describeValue(text)
      }`,
    );
  }
  requireType(literal, "boolean", where, "literal");
  requireType(trim, "boolean", where, "trim");
  const problem = stabilityProblem(stability);
  if (problem !== undefined) throw invalidItem(name, list, owner, problem);
  return {
    list,
    name,
    order,
    text,
    owner,
    literal: literal === true ? true : undefined,
    trim: trim === false ? false : undefined,
    stability,
  };
}

/**
 * Entry `index` of what an item provider returned, as an assembled item;
 * anything that is not an item is `invalid-value` naming the provider, and
 * a field whose read throws is the error `failed` makes from the cause.
 */
export function providedItem(
  list: string,
  value: unknown,
  owner: string | undefined,
  index: number,
  failed: (cause: unknown) => Error,
): AssembledItem {
  const entry = `entry ${index}`;
  if (typeof value !== "object" || value === null) {
    throw itemsReturned(
      list,
      owner,
      `${entry} is ${describeValue(value)}, not an item`,
    );
  }
  let name: unknown, order: unknown, text: unknown;
  let literal: unknown, trim: unknown, stability: unknown;
  try {
    // Each field read once, in one place: a getter that throws is the
    // provider's failure, not a raw error out of assemble().
    ({ name, order, text, literal, trim, stability } = value as ItemInput);
  } catch (cause) {
    throw failed(cause);
  }
  let problem: string | undefined;
  if (typeof name !== "string" || name === "") {
    problem = "has no non-empty name";
  } else if (typeof order !== "number" || !Number.isFinite(order)) {
    problem = `"${name}" has order ${
      describeValue(order)
    }, not a finite number`;
  } else if (typeof text !== "string") {
    problem = `"${name}" has text ${describeValue(text)}, not a string`;
  } else if (literal !== undefined && typeof literal !== "boolean") {
    problem = `"${name}" has literal ${describeValue(literal)}, not a boolean`;
  } else if (trim !== undefined && typeof trim !== "boolean") {
    problem = `"${name}" has trim ${describeValue(trim)}, not a boolean`;
  } else {
    const wrong = stabilityProblem(stability);
    if (wrong !== undefined) problem = `"${name}": ${wrong}`;
  }
  if (problem !== undefined) {
    throw itemsReturned(list, owner, `${entry} ${problem}`);
  }
  const item: AssembledItem = {
    name: name as string,
    order: order as number,
    text: text as string,
  };
  if (owner !== undefined) item.owner = owner;
  if (literal === true) item.literal = true;
  if (trim === false) item.trim = false;
  if (stability !== undefined) item.stability = stability as Stability;
  return item;
}

function stabilityProblem(stability: unknown): string | undefined {
  if (stability === undefined || STABILITIES.includes(stability)) {
    return undefined;
  }
  return `stability must be "static", "session" or "step", got ${
    typeof stability === "string"
      ? JSON.stringify(stability)
      : describeValue(stability)
  }`;
}

function requireType(
  value: unknown,
  type: "string" | "boolean",
  where: string,
  field: string,
): void {
  if (value !== undefined && typeof value !== type) {
    throw new TypeError(
      `Cannot add ${where}: ${field} must be a ${type}, got ${
        describeValue(value)
      }`,
    );
  }
}
