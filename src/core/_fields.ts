/**
 * The field table: every field a part (section, context entry, item) or
 * its list layout may carry, what it must hold, and the one error each
 * violation gets. Registration, provider results, the waterfall's result
 * and rendering all check parts through it.
 *
 * @module
 */

import { describeValue, failure, type Where } from "./errors.ts";
import type { PromptErrorCode } from "./errors.ts";

/** Which sequence a part belongs to. */
export type PartKind = "section" | "context" | "item";

/**
 * Who handed the part over: `add` (a registration: wrong JS types are
 * `TypeError`s, functions allowed), `provided` (an item provider's result:
 * `invalid-value`), `assembled` (an assembly: `invalid-<kind>`).
 */
export type FieldMode = "add" | "provided" | "assembled";

interface Rule {
  readonly key: string;
  readonly expected: string;
  /** The value is of the right JS type (else a TypeError at registration). */
  readonly type: (value: unknown) => boolean;
  /** The value keeps the rules (else `invalid-<kind>`). */
  readonly valid: (value: unknown) => boolean;
  /** A function is accepted at registration (resolved per assembly). */
  readonly resolved?: true;
  readonly optional?: true;
}

const STABILITIES: readonly unknown[] = ["static", "session", "step"];
const isString = (value: unknown) => typeof value === "string";
const isBoolean = (value: unknown) => typeof value === "boolean";
const always = () => true;

const text = (key: string, optional?: true): Rule => ({
  key,
  expected: "a string",
  type: isString,
  valid: isString,
  resolved: true,
  ...(optional ? { optional } : {}),
});
const flag = (
  key: string,
  expected: string,
  test: (v: unknown) => boolean,
) => ({
  key,
  expected,
  type: test,
  valid: test,
  optional: true,
} as const);

/** The fields of every part, in the order they are checked. */
const PART_RULES: readonly Rule[] = [
  {
    key: "name",
    expected: "a non-empty string",
    type: isString,
    valid: (value) => value !== "",
  },
  {
    key: "order",
    expected: "a finite number",
    type: (value) => typeof value === "number",
    valid: Number.isFinite,
  },
  text("text"),
  {
    key: "stability",
    expected: '"static", "session" or "step"',
    type: always,
    valid: (value) => STABILITIES.includes(value),
    optional: true,
  },
  flag("separator", "a string", isString),
  flag("trim", "a boolean", isBoolean),
  flag("literal", "a boolean", isBoolean),
];

/** The fields of a list layout. */
const LIST_RULES: readonly Rule[] = [
  flag("separator", "a string", isString),
  flag("headingSeparator", "a string", isString),
  text("footer", true),
  flag("footerSeparator", "a string", isString),
  text("empty", true),
  flag("dedupe", "a boolean", isBoolean),
];

const COMPLETE: Rule = flag("complete", "a boolean", isBoolean);
const INVALID: Record<PartKind, PromptErrorCode> = {
  section: "invalid-section",
  context: "invalid-context",
  item: "invalid-item",
};

/** How a part is checked, and how its errors name it. */
export interface FieldCheck {
  readonly kind: PartKind;
  readonly mode: FieldMode;
  /** `add`, `assemble`, `render`: the failed action of the message. */
  readonly action: string;
  readonly where: Where;
}

/**
 * Checks a whole part (and, in an assembly, its list's items): throws the
 * table's error for the first field at fault. Each field is read once.
 */
export function checkPart(part: unknown, check: FieldCheck): void {
  if (typeof part !== "object" || part === null) {
    throw fieldError(check, "entry", "an object", part);
  }
  const fields = part as Record<string, unknown>;
  for (const rule of PART_RULES) {
    checkValue(
      rule,
      rule.key === "order" && check.kind === "item" && check.mode === "add",
      fields[rule.key],
      check,
    );
  }
  if (check.kind === "section") {
    checkValue(COMPLETE, false, fields.complete, check);
  }
  const list = fields.list;
  if (list === undefined) return;
  if (typeof list !== "object" || list === null || Array.isArray(list)) {
    throw fieldError(check, "list", "an object", list);
  }
  for (const rule of LIST_RULES) {
    checkValue(
      rule,
      false,
      (list as Record<string, unknown>)[rule.key],
      check,
      "list.",
    );
  }
  if (check.mode !== "assembled") return;
  const items = fields.items;
  if (items === undefined) return;
  if (!Array.isArray(items)) {
    throw fieldError(check, "items", "an array", items);
  }
  const path = check.where.list ?? [];
  const name = fields.name as string;
  const list_ = check.kind === "item" ? [...path, name] : [name];
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as { name?: unknown } | null;
    const itemName =
      typeof item === "object" && item !== null && typeof item.name === "string"
        ? item.name
        : `#${i}`;
    checkPart(item, {
      kind: "item",
      mode: check.mode,
      action: check.action,
      where: {
        ...topOf(check),
        item: itemName,
        list: list_,
        owner: check.where.handler !== undefined
          ? check.where.owner
          : ownerOf(item),
      },
    });
  }
}

function topOf(check: FieldCheck): Where {
  const { section, context, handler } = check.where;
  return {
    ...(section !== undefined ? { section } : {}),
    ...(context !== undefined ? { context } : {}),
    ...(handler !== undefined ? { handler } : {}),
  };
}

function ownerOf(item: unknown): string | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const owner = (item as { owner?: unknown }).owner;
  return typeof owner === "string" ? owner : undefined;
}

function checkValue(
  rule: Rule,
  resolved: boolean,
  value: unknown,
  check: FieldCheck,
  prefix = "",
): void {
  if (value === undefined && rule.optional) return;
  if (
    check.mode === "add" && (rule.resolved || resolved) &&
    typeof value === "function"
  ) return;
  if (check.mode === "add" && !rule.type(value)) {
    throw fieldError(check, prefix + rule.key, rule.expected, value);
  }
  if (!rule.type(value) || !rule.valid(value)) {
    throw fieldError(check, prefix + rule.key, rule.expected, value);
  }
}

/**
 * The error for one field at fault: at registration a wrong JS type is a
 * `TypeError`, everything else a `PromptError` whose code the mode gives.
 */
export function fieldError(
  check: FieldCheck,
  field: string,
  expected: string,
  value: unknown,
): Error {
  const state = `its ${field} is ${showValue(value)}, not ${expected}`;
  const rule = [...PART_RULES, ...LIST_RULES, COMPLETE].find((r) =>
    r.key === field.replace(/^list\./, "")
  );
  const wrongType = rule === undefined || !rule.type(value) ||
    (field === "order" && typeof value !== "number");
  if (check.mode === "add" && wrongType && field !== "stability") {
    return new TypeError(
      failure("invalid-value", check.action, check.where, state).message,
    );
  }
  const code = check.mode === "provided"
    ? "invalid-value"
    : INVALID[check.kind];
  return failure(code, check.action, check.where, state);
}

/** A value as a message shows it: numbers and short strings as they are. */
function showValue(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") {
    return JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value);
  }
  return describeValue(value);
}

/**
 * Fast path of `checkPart` for an assembled part: the same rules as plain
 * `typeof` tests, no allocation. `false` sends the caller to `checkPart`,
 * which words the error.
 */
export function isValidAssembled(part: unknown, kind: PartKind): boolean {
  if (typeof part !== "object" || part === null) return false;
  const { name, order, text, stability, separator, trim, literal } =
    part as Record<string, unknown>;
  if (typeof name !== "string" || name === "") return false;
  if (typeof order !== "number" || !Number.isFinite(order)) return false;
  if (typeof text !== "string") return false;
  if (stability !== undefined && !STABILITIES.includes(stability)) return false;
  if (separator !== undefined && typeof separator !== "string") return false;
  if (trim !== undefined && typeof trim !== "boolean") return false;
  if (literal !== undefined && typeof literal !== "boolean") return false;
  const { complete, list, items } = part as Record<string, unknown>;
  if (
    kind === "section" && complete !== undefined &&
    typeof complete !== "boolean"
  ) {
    return false;
  }
  if (list === undefined) return true;
  if (typeof list !== "object" || list === null || Array.isArray(list)) {
    return false;
  }
  const layout = list as Record<string, unknown>;
  for (const key of LIST_STRINGS) {
    const value = layout[key];
    if (value !== undefined && typeof value !== "string") return false;
  }
  if (layout.dedupe !== undefined && typeof layout.dedupe !== "boolean") {
    return false;
  }
  if (items === undefined) return true;
  if (!Array.isArray(items)) return false;
  for (let i = 0; i < items.length; i++) {
    if (!isValidAssembled(items[i], "item")) return false;
    const itemName = (items[i] as { name: string }).name;
    // Names unique within a list (a quadratic scan: lists are short).
    for (let j = 0; j < i; j++) {
      if ((items[j] as { name: string }).name === itemName) return false;
    }
  }
  return true;
}

const LIST_STRINGS = [
  "separator",
  "headingSeparator",
  "footer",
  "footerSeparator",
  "empty",
] as const;
