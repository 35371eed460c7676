/**
 * How `comparePrompts` compares plain values: structural equality (cycles
 * and BigInts are fine), the keys whose values differ, where two texts
 * first differ, and an object without its `undefined` fields.
 *
 * @module
 */

/** Where `a` and `b` first differ, moved off the middle of a surrogate pair. */
export function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  // The texts agree before `i`: a pair ending at `i` in either is cut.
  const cut = (text: string) => (text.codePointAt(i - 1) ?? 0) > 0xffff;
  return cut(a) || cut(b) ? i - 1 : i;
}

/** Structural equality of JSON-like values; cycles and BigInts are fine. */
export function same(
  x: unknown,
  y: unknown,
  seen = new Map<unknown, unknown>(),
): boolean {
  if (Object.is(x, y)) return true;
  if (!x || !y || typeof x !== "object" || typeof y !== "object") return false;
  if (Array.isArray(x) !== Array.isArray(y)) return false;
  if (seen.get(x) === y) return true;
  seen.set(x, y);
  const [p, q] = [x as Record<string, unknown>, y as Record<string, unknown>];
  const keys = Object.keys(p);
  return keys.length === Object.keys(q).length &&
    keys.every((key) => Object.hasOwn(q, key) && same(p[key], q[key], seen));
}

/** The own keys whose values differ between two objects (a non-object has none). */
export function changedKeys(previous: unknown, next: unknown): string[] {
  const own = (values: unknown): Record<string, unknown> => ({
    ...(typeof values === "object" ? values : {}),
  });
  const [a, b] = [own(previous), own(next)];
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) =>
    Object.hasOwn(a, key) !== Object.hasOwn(b, key) || a[key] !== b[key]
  );
}
