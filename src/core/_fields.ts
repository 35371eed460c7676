/**
 * The field table: every field a part (section, context entry, item) or
 * its list layout may carry, what it must hold, and the one error each
 * violation gets. Registration, provider results, the waterfall's result
 * and rendering all check parts through it.
 *
 * @module
 */

import { describeValue } from "./_describe.ts";
import { failure, typeFailure, type Where } from "./_messages.ts";
import { STABILITIES } from "./_stability.ts";

/** Which sequence a part belongs to. */
export type PartKind = "section" | "context" | "item";

/**
 * Who handed the part over: `add` (a registration: wrong JS types are
 * `TypeError`s, functions allowed), `provided` (an item provider's result:
 * `invalid-value`), `assembled` (an assembly: `invalid-<kind>`).
 */
export type FieldMode = "add" | "provided" | "assembled";

/** How a part is checked, and how its errors name it. */
export interface FieldCheck {
  readonly kind: PartKind;
  readonly mode: FieldMode;
  /** `add`, `assemble`, `render`: the failed action of the message. */
  readonly action: string;
  readonly where: Where;
}

/**
 * A part's fields, in the order the table reads them (a section's
 * `complete` is read after them; the library sets `owner`, `layer` and
 * `shadows`; `items` are an assembled list's).
 */
export const PART_FIELDS = [
  "name",
  "order",
  "text",
  "stability",
  "separator",
  "trim",
  "literal",
  "list",
] as const;

/** A list layout's fields, in the order the table reads them. */
export const LIST_FIELDS = [
  "separator",
  "headingSeparator",
  "footer",
  "footerSeparator",
  "empty",
  "dedupe",
] as const;

/**
 * A list layout's fields in the order an assembly holds them: the ones a
 * function may resolve (`footer`, `empty`) last, set per step.
 */
export const LIST_ORDER = [
  "separator",
  "headingSeparator",
  "footerSeparator",
  "dedupe",
  "footer",
  "empty",
] as const;

/** The layout fields a part carries only when set, in the assembly's order. */
export const ITEM_LAYOUT = [
  "stability",
  "separator",
  "trim",
  "literal",
] as const;

const STRING = "a string";
const BOOLEAN = "a boolean";

/** A field at fault, what it must hold (as messages say it), the value read. */
export interface Fault {
  readonly field: string;
  readonly expected: string;
  readonly value: unknown;
}

const maybeString = (value: unknown) =>
  value === undefined || typeof value === "string";
const maybeBoolean = (value: unknown) =>
  value === undefined || typeof value === "boolean";
/** A string, or at registration a function that resolves to one. */
const maybeText = (value: unknown, add: boolean) =>
  maybeString(value) || add && typeof value === "function";

/**
 * The field table itself: the first field of `part` at fault, its rule
 * and its value; else whether the part is a list (whose items the caller
 * reads). Each field is read once, lazily, and nothing is allocated unless
 * a field is at fault: this is also every caller's fast path. Registration
 * accepts functions for what is resolved per assembly (text, footer,
 * empty, an item's order).
 */
function faultOf(
  part: object,
  kind: PartKind,
  mode: FieldMode,
): Fault | boolean {
  const fields = part as Record<string, unknown>;
  const add = mode === "add";
  let value = fields.name;
  if (typeof value !== "string" || value === "") {
    return { field: "name", expected: "a non-empty string", value: value };
  }
  value = fields.order;
  if (
    !(typeof value === "number" && Number.isFinite(value)) &&
    !(add && kind === "item" && typeof value === "function")
  ) return { field: "order", expected: "a finite number", value: value };
  value = fields.text;
  if (typeof value !== "string" && !(add && typeof value === "function")) {
    return { field: "text", expected: STRING, value: value };
  }
  value = fields.stability;
  if (value !== undefined && !STABILITIES.includes(value as never)) {
    return {
      field: "stability",
      expected: '"static", "session" or "step"',
      value: value,
    };
  }
  if (!maybeString(value = fields.separator)) {
    return { field: "separator", expected: STRING, value: value };
  }
  if (!maybeBoolean(value = fields.trim)) {
    return { field: "trim", expected: BOOLEAN, value: value };
  }
  if (!maybeBoolean(value = fields.literal)) {
    return { field: "literal", expected: BOOLEAN, value: value };
  }
  if (kind === "section" && !maybeBoolean(value = fields.complete)) {
    return { field: "complete", expected: BOOLEAN, value: value };
  }
  // Who holds a part is the library's to set: only an assembly carries it,
  // and every message, explanation and page names it as text.
  if (mode === "assembled") {
    if (!maybeString(value = fields.owner)) {
      return { field: "owner", expected: STRING, value: value };
    }
    if (!maybeString(value = fields.layer)) {
      return { field: "layer", expected: STRING, value: value };
    }
    const shadows = fields.shadows;
    if (shadows !== undefined) {
      if (typeof shadows !== "object" || shadows === null) {
        return { field: "shadows", expected: "an object", value: shadows };
      }
      const held = shadows as Record<string, unknown>;
      if (!maybeString(value = held.owner)) {
        return { field: "shadows.owner", expected: STRING, value: value };
      }
      if (!maybeString(value = held.layer)) {
        return { field: "shadows.layer", expected: STRING, value: value };
      }
    }
  }
  const list = fields.list;
  if (list === undefined) return false;
  if (typeof list !== "object" || list === null || Array.isArray(list)) {
    return { field: "list", expected: "an object", value: list };
  }
  const layout = list as Record<string, unknown>;
  if (!maybeString(value = layout.separator)) {
    return { field: "list.separator", expected: STRING, value: value };
  }
  if (!maybeString(value = layout.headingSeparator)) {
    return { field: "list.headingSeparator", expected: STRING, value: value };
  }
  if (!maybeText(value = layout.footer, add)) {
    return { field: "list.footer", expected: STRING, value: value };
  }
  if (!maybeString(value = layout.footerSeparator)) {
    return { field: "list.footerSeparator", expected: STRING, value: value };
  }
  if (!maybeText(value = layout.empty, add)) {
    return { field: "list.empty", expected: STRING, value: value };
  }
  if (!maybeBoolean(value = layout.dedupe)) {
    return { field: "list.dedupe", expected: BOOLEAN, value: value };
  }
  return true;
}

/**
 * Checks a whole part (and, in an assembly, its list's items): throws the
 * table's error for the first field at fault.
 */
export function checkPart(part: unknown, check: FieldCheck): void {
  if (typeof part !== "object" || part === null) {
    throw fieldError(check, {
      field: "entry",
      expected: "an object",
      value: part,
    });
  }
  const fault = faultOf(part, check.kind, check.mode);
  if (typeof fault === "object") throw fieldError(check, fault);
  if (!fault || check.mode !== "assembled") return;
  const items = (part as { items?: unknown }).items;
  if (items === undefined) return;
  if (!Array.isArray(items)) {
    throw fieldError(check, {
      field: "items",
      expected: "an array",
      value: items,
    });
  }
  const { section, context, handler, owner, list = [] } = check.where;
  const parent = (part as { name: string }).name;
  const path = check.kind === "item" ? [...list, parent] : [parent];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const { name, owner: own }: { name?: unknown; owner?: unknown } =
      typeof item === "object" && item !== null ? item : {};
    // A handler's error names the handler's owner; otherwise the item's
    // (none named when it is not a string: it is the fault reported).
    const by = handler === undefined ? own : owner;
    const where: Where = {
      section,
      context,
      handler,
      list: path,
      item: typeof name === "string" ? name : `#${i}`,
      ...(by === undefined || typeof by === "string" ? { owner: by } : {}),
    };
    checkPart(item, { ...check, kind: "item", where });
  }
}

/**
 * Whether an assembled part's own fields keep the table (its items are
 * only required to be an array): the renderer's check before it walks a
 * part, with no allocation.
 */
export function isValidPart(part: unknown, kind: PartKind): boolean {
  if (typeof part !== "object" || part === null) return false;
  const fault = faultOf(part, kind, "assembled");
  if (fault !== true) return fault === false;
  const items = (part as { items?: unknown }).items;
  return items === undefined || Array.isArray(items);
}

const maybe = (value: unknown, type: "string" | "boolean") =>
  value === undefined || typeof value === type;

/**
 * {@linkcode isValidPart}'s verdict in code of the renderer's own: the
 * same reads in the same order, the same rules. V8 keeps one set of inline
 * caches per function, and the table's also see registration's objects (a
 * plugin's literals, functions for texts): a renderer that shared them
 * would read every assembled part through polymorphic caches (measured:
 * calling {@linkcode isValidPart} here costs 10–25% of a render).
 * tests/fields_renderable_test.ts holds the copy to the table: the same
 * verdict on any part, the same fields read in the same order.
 */
export function isRenderable(part: unknown, kind: PartKind): boolean {
  if (typeof part !== "object" || part === null) return false;
  const fields = part as Record<string, unknown>;
  const name = fields.name;
  if (typeof name !== "string" || name === "") return false;
  const order = fields.order;
  if (typeof order !== "number" || !Number.isFinite(order)) return false;
  if (typeof fields.text !== "string") return false;
  const stability = fields.stability;
  if (
    stability !== undefined && stability !== "static" &&
    stability !== "session" && stability !== "step"
  ) return false;
  if (!maybe(fields.separator, "string")) return false;
  if (!maybe(fields.trim, "boolean")) return false;
  if (!maybe(fields.literal, "boolean")) return false;
  if (kind === "section" && !maybe(fields.complete, "boolean")) return false;
  if (!maybe(fields.owner, "string") || !maybe(fields.layer, "string")) {
    return false;
  }
  const shadows = fields.shadows;
  if (shadows !== undefined) {
    if (typeof shadows !== "object" || shadows === null) return false;
    const held = shadows as Record<string, unknown>;
    if (!maybe(held.owner, "string") || !maybe(held.layer, "string")) {
      return false;
    }
  }
  const list = fields.list;
  if (list === undefined) return true;
  if (typeof list !== "object" || list === null || Array.isArray(list)) {
    return false;
  }
  const layout = list as Record<string, unknown>;
  if (
    !maybe(layout.separator, "string") ||
    !maybe(layout.headingSeparator, "string") ||
    !maybe(layout.footer, "string") ||
    !maybe(layout.footerSeparator, "string") ||
    !maybe(layout.empty, "string") ||
    !maybe(layout.dedupe, "boolean")
  ) return false;
  const items = fields.items;
  return items === undefined || Array.isArray(items);
}

/**
 * Whether an assembled part keeps the table, its items too, with item
 * names unique within each list: {@linkcode checkPart}'s verdict without
 * its error, and no allocation.
 */
export function isValidAssembled(part: unknown, kind: PartKind): boolean {
  if (typeof part !== "object" || part === null) return false;
  const fault = faultOf(part, kind, "assembled");
  if (fault !== true) return fault === false;
  const items = (part as { items?: unknown }).items;
  if (items === undefined) return true;
  if (!Array.isArray(items)) return false;
  for (let i = 0; i < items.length; i++) {
    if (!isValidAssembled(items[i], "item")) return false;
    const name = items[i]!.name;
    // Names unique within a list (a quadratic scan: lists are short).
    for (let j = 0; j < i; j++) if (items[j]!.name === name) return false;
  }
  return true;
}

/**
 * The error for one field at fault: at registration a value of another JS
 * type than the rule names (any type for an object, none for stability)
 * is a `TypeError`, everything else a `PromptError` whose code the mode
 * gives.
 */
export function fieldError(check: FieldCheck, fault: Fault): Error {
  const { action, where } = check;
  const { field, expected, value } = fault;
  const problem = `its ${field} is ${showValue(value)}, not ${expected}`;
  const type = /string|number|boolean/.exec(expected)?.[0];
  if (check.mode === "add" && field !== "stability" && typeof value !== type) {
    return typeFailure({ action, where, problem });
  }
  const code = check.mode === "provided"
    ? "invalid-value"
    : `invalid-${check.kind}` as const;
  return failure({ code, action, where, problem });
}

/** A value as a message shows it: numbers and short strings as they are. */
function showValue(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") {
    return JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value);
  }
  return describeValue(value);
}
