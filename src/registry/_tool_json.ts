/**
 * Tool schemas as JSON data: the compare walk that tells whether what a
 * provider returned equals the registry's last frozen copy (allocating
 * nothing), and the copy walk that copies only what changed, in the key
 * order of the last copy, naming the path at fault when a value is not
 * JSON data or a read throws.
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

// On each object copy of ours, not enumerable: its key count, so that the
// compare walk reads it instead of walking the copy's keys again.
const COUNT: unique symbol = Symbol("key count");

/** Records an object's key count on it, before it is frozen. */
export function counted<T extends object>(value: T): T {
  Object.defineProperty(value, COUNT, { value: countKeys(value) });
  return value;
}

/**
 * Whether `value` holds the JSON data of `copy` (a frozen copy of ours),
 * key order aside. Allocates nothing; never throws (a read that throws is
 * a difference); bounded by the copy's depth, so a cycle is a difference.
 */
export function sameJson(value: unknown, copy: unknown): boolean {
  try {
    return same(value, copy);
  } catch {
    return false;
  }
}

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
  const keys = (copy as { [COUNT]?: number })[COUNT] ?? countKeys(copy);
  let count = 0;
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    // A field holding `undefined` is absent from the copy, as from JSON; a
    // function is never JSON (nor an inherited method of the copy).
    if (field === undefined) continue;
    if (typeof field === "function") return false;
    const known = (copy as Record<string, unknown>)[key];
    // `__proto__` is an own key of the copy only when it holds one.
    if (key === "__proto__" && !hasOwn(copy, key)) return false;
    if (!same(field, known)) return false;
    count++;
  }
  return count === keys;
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
    return kept ? template : Object.freeze(items);
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
    return kept ? known : Object.freeze(counted(Object.fromEntries(entries)));
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
