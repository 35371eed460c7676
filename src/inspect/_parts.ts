/**
 * Walking explained parts (or tools) of two steps in step: the first part
 * that differs, matched by name, down into nested lists; and the small
 * readers it needs (a list's own text, where two texts part, structural
 * equality of tool values).
 *
 * @module
 */

import type { ItemExplanation } from "./explain.ts";

/** A rendered part as the walk compares it: its key must be equal. */
export interface Part {
  readonly name: string;
  readonly owner?: string | undefined;
  readonly layer?: string | undefined;
  readonly key: unknown;
  readonly own?: string;
  readonly children?: readonly Part[];
}

/** Where the walk found the first difference. */
export interface Change {
  readonly change: "changed" | "added" | "removed";
  readonly part: Part;
  readonly index: number;
}

/** Each rendered part with the separator before it; a list's items as children. */
export function partsOf(
  text: string,
  parts: readonly ItemExplanation[],
): Part[] {
  return parts.map((part) => ({
    name: part.name,
    owner: part.owner,
    layer: part.layer,
    key: text.slice(part.separatorStart, part.end),
    ...(part.items && {
      own: ownText(text, part),
      children: partsOf(text, part.items),
    }),
  }));
}

/**
 * Walks both sequences in order, matching parts by name: the first pair
 * that differs, a part only `before` has (removed), or one only `after`
 * has (added). A part both have at different places is `changed` where
 * `after` has it.
 */
export function walk(before: readonly Part[], after: readonly Part[]) {
  const had = new Set(before.map((part) => part.name));
  const has = new Set(after.map((part) => part.name));
  for (let index = 0; index < Math.max(before.length, after.length); index++) {
    const was = before[index];
    const is = after[index];
    const at = (change: Change["change"], part: Part) => ({
      change,
      part,
      index,
    });
    if (is === undefined) return at("removed", was!);
    if (was === undefined) return at("added", is);
    if (was.name === is.name) {
      if (!same(was.key, is.key)) return at("changed", is);
    } else if (!has.has(was.name)) return at("removed", was);
    else return at(had.has(is.name) ? "changed" : "added", is);
  }
  return undefined;
}

/** A part's rendered text without its items (a list's heading, footer, separators). */
export function ownText(text: string, part: ItemExplanation): string {
  let own = "";
  let at = part.start;
  for (const item of part.items ?? []) {
    own += text.slice(at, item.separatorStart);
    at = item.end;
  }
  return own + text.slice(at, part.end);
}

/** Where `a` and `b` first differ, moved off the middle of a surrogate pair. */
export function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const low = (code: number) => code >= 0xdc00 && code <= 0xdfff;
  const high = a.charCodeAt(i - 1) >= 0xd800 && a.charCodeAt(i - 1) <= 0xdbff;
  return high && (low(a.charCodeAt(i)) || low(b.charCodeAt(i))) ? i - 1 : i;
}

/** Structural equality of JSON-like values; cycles and BigInts are fine. */
export function same(a: unknown, b: unknown, seen = new Map()): boolean {
  if (Object.is(a, b)) return true;
  if (
    typeof a !== "object" || typeof b !== "object" || a === null ||
    b === null || Array.isArray(a) !== Array.isArray(b)
  ) return false;
  if (seen.get(a) === b) return true;
  seen.set(a, b);
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length &&
    keys.every((key) => Object.hasOwn(y, key) && same(x[key], y[key], seen));
}

/** `value` without its `undefined` fields, as an optional-field type wants it. */
export function defined<T extends object>(
  value: { [K in keyof T]-?: T[K] | undefined },
): T {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field !== undefined) out[key] = field;
  }
  return out as T;
}

/** The own keys whose values differ between two objects (a non-object has none). */
export function changedKeys(previous: unknown, next: unknown): string[] {
  const own = (values: unknown): Record<string, unknown> =>
    typeof values === "object" && values !== null ? { ...values } : {};
  const [a, b] = [own(previous), own(next)];
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) =>
    Object.hasOwn(a, key) !== Object.hasOwn(b, key) || a[key] !== b[key]
  );
}
