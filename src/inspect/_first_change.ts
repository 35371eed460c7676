/**
 * The first difference between two steps' rendered parts (sections, or a
 * list's items), matched by name: what `comparePrompts` reports.
 *
 * @module
 */

/** A rendered part: its name, owner and text (with the separator before it). */
export interface Part {
  readonly name: string;
  readonly owner?: string;
  readonly text: string;
}

/** Where the walk found the first difference. */
export interface FirstChange {
  /** How the part differs. */
  readonly change: "changed" | "added" | "removed";
  /** The part: from `after`, or from `before` when it was removed. */
  readonly part: Part;
  /** Index of the part in `before` at the difference. */
  readonly before: number;
  /** Index of the part in `after` at the difference. */
  readonly after: number;
}

/**
 * Walks both lists in order, matching parts by name: the first pair that
 * differs, a part only `before` has (removed), or a part only `after` has
 * (added). A part that both have at different places is `changed` where
 * `after` has it. `undefined` when the lists are equal.
 */
export function firstChange(
  before: readonly Part[],
  after: readonly Part[],
): FirstChange | undefined {
  const beforeNames = new Set(before.map((part) => part.name));
  const afterNames = new Set(after.map((part) => part.name));
  for (let i = 0, j = 0; i < before.length || j < after.length; i++, j++) {
    const was = before[i];
    const is = after[j];
    const at = (change: FirstChange["change"], part: Part): FirstChange => ({
      change,
      part,
      before: i,
      after: j,
    });
    if (is === undefined) return at("removed", was!);
    if (was === undefined) return at("added", is);
    if (was.name === is.name) {
      if (was.text !== is.text) return at("changed", is);
      continue;
    }
    if (!afterNames.has(was.name)) return at("removed", was);
    if (!beforeNames.has(is.name)) return at("added", is);
    return at("changed", is);
  }
  return undefined;
}

/** Where `a` and `b` first differ, moved off the middle of a surrogate pair. */
export function firstDifference(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (
    i > 0 && isHighSurrogate(a.charCodeAt(i - 1)) &&
    (isLowSurrogate(a.charCodeAt(i)) || isLowSurrogate(b.charCodeAt(i)))
  ) i--;
  return i;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
