/**
 * Tool schemas as JSON data: the compare walk that tells whether what a
 * provider returned equals the registry's last frozen copy (allocating
 * nothing), and the copy walk that copies only what changed, in the key
 * order of the last copy, naming the path at fault when a value is not
 * JSON data or a read throws.
 *
 * Covered by tests/tool_copies_test.ts, tests/tool_frozen_test.ts,
 * tests/tool_schema_reads_test.ts and
 * tests/properties/tool_key_order_property_test.ts.
 *
 * @module
 */

import { describeValue, messageOf } from "../core/_describe.ts";

/** How deep a schema may nest; deeper is refused, never a stack overflow. */
export const MAX_DEPTH = 1000;

const hasOwn = Object.hasOwn;
const getPrototypeOf = Object.getPrototypeOf;
const isArray = Array.isArray;

/** Whether `value` is a plain object: `Object.prototype` or no prototype. */
function isPlain(value: object): boolean {
  const proto = getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Enumerable keys, counted without allocating. */
export function countKeys(value: object): number {
  let count = 0;
  for (const _ in value) count++;
  return count;
}

/**
 * A copy's shape, for the compare walk: its keys in order (none for an
 * array) and its items, each a primitive or the item's own shape. Every
 * shape is of this one class, so the walk's loads stay monomorphic (the
 * copies themselves come in as many shapes as the schemas do); and it
 * reads the provider's object through `for-in`, in its own key order,
 * which matches the copy's while the provider keeps its order.
 */
class Shape {
  /**
   * The object the walks last met here and found plain. Asking an object
   * its prototype is the compare walk's dearest read (a builtin call per
   * object, about a third of the walk); the same object again keeps its
   * answer.
   * Only `Object.setPrototypeOf` on that very object (or its Proxy's
   * `getPrototypeOf` trap) could change it, and
   * that is the one edit the walk does not see (its fields are still
   * compared, and JSON carries no prototype).
   */
  plain: object | undefined = undefined;
  constructor(
    readonly copy: object,
    readonly keys: readonly string[] | undefined,
    readonly items: readonly unknown[],
  ) {}
}

// On each object or array copy of ours, not enumerable: its shape.
const SHAPE: unique symbol = Symbol("shape");

function shapeOf(value: unknown): Shape | undefined {
  return (value as { [SHAPE]?: Shape })[SHAPE];
}

function itemOf(value: unknown): unknown {
  return typeof value === "object" && value !== null
    ? shapeOf(value) ?? build(value)
    : value;
}

function build(value: object): Shape {
  if (isArray(value)) return new Shape(value, undefined, value.map(itemOf));
  const keys = Object.keys(value);
  const fields = value as Record<string, unknown>;
  return new Shape(value, keys, keys.map((key) => itemOf(fields[key])));
}

/**
 * Records the shape of a copy of ours on it, before it is frozen; `plain`
 * is the object it was copied from, which the copy walk found plain.
 */
export function shaped<T extends object>(value: T, plain?: object): T {
  const shape = build(value);
  shape.plain = plain;
  Object.defineProperty(value, SHAPE, { value: shape });
  return value;
}

/**
 * Whether `value` holds the JSON data of `copy` (a frozen copy of ours),
 * key order aside. Allocates nothing; never throws (a read that throws is
 * a difference); bounded by the copy's depth, so a cycle is a difference.
 */
export function sameJson(value: unknown, copy: unknown): boolean {
  if (value === copy) return true;
  if (typeof copy !== "object" || copy === null) return false;
  try {
    const shape = shapeOf(copy);
    return shape === undefined ? same(value, copy) : sameShape(value, shape);
  } catch {
    return false;
  }
}

/** The walk while `value`'s keys come in the copy's order. */
function sameShape(value: unknown, shape: Shape): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { keys, items } = shape;
  if (keys === undefined) {
    if (!isArray(value)) return false;
    const length = items.length;
    if (value.length !== length) return false;
    for (let i = 0; i < length; i++) {
      const field: unknown = value[i];
      const item = items[i];
      if (field === item) continue;
      if (typeof item !== "object" || item === null) return false;
      if (!sameShape(field, item as Shape)) return false;
    }
    return true;
  }
  if (isArray(value)) return false;
  if (value !== shape.plain) {
    if (!isPlain(value)) return false;
    shape.plain = value;
  }
  let i = 0;
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    // A field holding `undefined` is absent from the copy, as from JSON.
    if (field === undefined) continue;
    // Another order (or another key): the walk by key decides.
    if (key !== keys[i]) return same(value, shape.copy);
    const item = items[i++];
    if (field === item) continue;
    if (typeof item !== "object" || item === null) return false;
    if (!sameShape(field, item as Shape)) return false;
  }
  return i === keys.length;
}

/** The walk by key, whatever `value`'s key order. */
function same(value: unknown, copy: unknown): boolean {
  if (value === copy) return true;
  if (typeof copy !== "object" || copy === null) return false;
  if (typeof value !== "object" || value === null) return false;
  if (isArray(copy)) {
    if (!isArray(value)) return false;
    const length = copy.length;
    if ((value as unknown[]).length !== length) return false;
    for (let i = 0; i < length; i++) {
      if (!same((value as unknown[])[i], copy[i])) return false;
    }
    return true;
  }
  if (isArray(value) || !isPlain(value)) return false;
  const keys = shapeOf(copy)?.keys?.length ?? countKeys(copy);
  let count = 0;
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    // A field holding `undefined` is absent from the copy, as from JSON; a
    // function is never JSON (nor an inherited method of the copy).
    if (field === undefined) continue;
    if (typeof field === "function") return false;
    // Only the copy's own keys: an inherited field (`__proto__`, or an
    // enumerable one a polluted prototype holds) is not in the copy.
    if (!hasOwn(copy, key)) return false;
    if (!same(field, (copy as Record<string, unknown>)[key])) return false;
    count++;
  }
  return count === keys;
}

/**
 * Whether `value` can never change: a primitive, or a frozen plain object
 * or array whose fields are data properties (never a getter) that can
 * never change either. A frozen object's fields cannot be set, added or
 * removed and its prototype cannot be replaced, so such a value equals its
 * copy for as long as it lives: the compare walk may stop at its identity.
 * Never throws (a read that throws answers `false`); call it only on data
 * `copyJson` accepted, whose depth is bounded.
 */
export function deepFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  try {
    if (!Object.isFrozen(value)) return false;
    if (!isArray(value) && !isPlain(value)) return false;
    // An array's items by index (a hole reads through the prototype, which
    // can change); an object's own enumerable fields.
    if (isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        if (!frozenField(value, i)) return false;
      }
      return true;
    }
    for (const key of Object.keys(value)) {
      if (!frozenField(value, key)) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** Whether an own field is a data property that can never change. */
function frozenField(value: object, key: string | number): boolean {
  const field = Object.getOwnPropertyDescriptor(value, key);
  return field !== undefined && "value" in field && deepFrozen(field.value);
}

/** What a refused schema reports: its state, the thrown value if any. */
export type Refuse = (state: string, cause?: unknown) => Error;

/** A refusal the copy walk made itself (not a read that threw). */
class Refusal {
  constructor(readonly error: Error) {}
}

/**
 * A frozen deep copy of JSON data (plain objects, arrays, strings, finite
 * numbers, booleans and null) that reuses every part of `template` (the
 * last copy) that `value` still equals and keeps the template's key order:
 * a key added goes after the known ones, a removed key disappears. The
 * template itself comes back when nothing changed. Anything else (a cycle,
 * a BigInt, a class instance, nesting deeper than `MAX_DEPTH`, a read that
 * throws) is refused with the path at fault, `root` first.
 */
export function copyJson(
  value: unknown,
  template: unknown,
  at: { root: string; refuse: Refuse },
): unknown {
  const path: (string | number)[] = [];
  const ancestors = new Set<object>();
  const where = () => {
    let text = at.root;
    for (const key of path) {
      text += typeof key === "number" ? `[${key}]` : `.${key}`;
    }
    return text;
  };
  const refuse = (state: (place: string) => string) =>
    new Refusal(at.refuse(state(where())));
  const child = (field: unknown, known: unknown): unknown =>
    known !== undefined && sameJson(field, known) ? known : copy(field, known);
  const copy = (value: unknown, template: unknown): unknown => {
    if (typeof value === "number" && !Number.isFinite(value)) {
      throw refuse((place) =>
        `hold ${value} at ${place}, which JSON cannot carry`
      );
    }
    if (value === null || typeof value !== "object") {
      if (
        typeof value !== "function" && typeof value !== "bigint" &&
        typeof value !== "symbol" && value !== undefined
      ) return value;
      throw refuse((place) =>
        `hold ${describeValue(value)} at ${place}; a schema is JSON data`
      );
    }
    if (ancestors.has(value)) {
      throw refuse((place) =>
        `refer to themselves at ${place}; a schema is JSON data`
      );
    }
    if (path.length >= MAX_DEPTH) {
      throw refuse((place) =>
        `nest deeper than ${MAX_DEPTH} levels at ${place}; a schema is JSON data`
      );
    }
    ancestors.add(value);
    const result = isArray(value)
      ? array(value, isArray(template) ? template : undefined)
      : object(value, template);
    ancestors.delete(value);
    return result;
  };
  const array = (value: unknown[], template: unknown[] | undefined) => {
    const length = value.length;
    const items = new Array<unknown>(length);
    let kept = template !== undefined && template.length === length;
    for (let i = 0; i < length; i++) {
      path.push(i);
      const known = template?.[i];
      items[i] = child(value[i], known);
      kept &&= items[i] === known;
      path.pop();
    }
    return kept ? template : Object.freeze(shaped(items));
  };
  const object = (value: object, template: unknown) => {
    if (!isPlain(value)) {
      throw refuse((place) =>
        `hold a class instance at ${place}; a schema is JSON data (convert it first)`
      );
    }
    const fields = new Map<string, unknown>();
    for (const key of Object.keys(value)) {
      path.push(key);
      const field = (value as Record<string, unknown>)[key];
      if (field !== undefined) fields.set(key, field);
      path.pop();
    }
    const known = typeof template === "object" && template !== null &&
        !isArray(template)
      ? template as Record<string, unknown>
      : undefined;
    // The template's keys first, in its order; then the new ones.
    const order: string[] = [];
    for (const key of known === undefined ? [] : Object.keys(known)) {
      if (fields.has(key)) order.push(key);
    }
    let kept = known !== undefined && order.length === countKeys(known) &&
      order.length === fields.size;
    if (!kept) {
      for (const key of fields.keys()) {
        if (known === undefined || !hasOwn(known, key)) order.push(key);
      }
    }
    const entries: [string, unknown][] = [];
    for (const key of order) {
      path.push(key);
      const previous = known !== undefined && hasOwn(known, key)
        ? known[key]
        : undefined;
      const copied = child(fields.get(key), previous);
      kept &&= copied === previous;
      // An entry, not an assignment: a `__proto__` key stays an own property.
      entries.push([key, copied]);
      path.pop();
    }
    if (!kept) return Object.freeze(shaped(Object.fromEntries(entries), value));
    shapeOf(known)!.plain = value;
    return known;
  };
  try {
    return copy(value, template);
  } catch (error) {
    if (error instanceof Refusal) throw error.error;
    // A trap, a revoked proxy, a getter: the read at `path` threw.
    throw at.refuse(
      `threw at ${where()} when read: ${messageOf(error)}`,
      error,
    );
  }
}
