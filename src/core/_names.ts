/**
 * How names compare: the order names sort in (by code point, parts by
 * order then name), and the close name a "did you mean" suggests.
 *
 * @module
 */

/** Code-point order (UTF-16 unit order differs past U+FFFF), lone surrogates included. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === length) return a.length - b.length;
  const x = a.charCodeAt(i);
  const y = b.charCodeAt(i);
  // Below the surrogates, units are code points (the fast path).
  if (x < 0xd800 && y < 0xd800) return x - y;
  // After a shared high surrogate, a low one completes a pair (above any
  // lone high surrogate): the code points to compare start one unit back.
  if (i > 0 && isHigh(a.charCodeAt(i - 1)) && (isLow(x) || isLow(y))) i--;
  return a.codePointAt(i)! - b.codePointAt(i)!;
}

const isHigh = (code: number): boolean => (code & 0xfc00) === 0xd800;
const isLow = (code: number): boolean => (code & 0xfc00) === 0xdc00;

type Ordered = { readonly order: number; readonly name: string };

/** Parts sort by order, ties by name in code-point order. */
export function byOrderThenName(a: Ordered, b: Ordered): number {
  return a.order - b.order || compareCodePoints(a.name, b.name);
}

/** How many edits away a "did you mean" may be. */
const MAX_DISTANCE = 2;

/**
 * The candidate within two edits of `name` (ties: the smaller name), for a
 * "did you mean"; bounded work per candidate.
 */
export function closestName(
  name: string,
  candidates: Iterable<string>,
): string | undefined {
  let best: string | undefined;
  let least = MAX_DISTANCE + 1;
  for (const candidate of candidates) {
    // Equal distances still matter (ties), so the bound is `least`.
    const bound = Math.min(MAX_DISTANCE, least);
    const distance = boundedEditDistance(name, candidate, { max: bound });
    // While there is no best, `least` is out of reach and `< best` false.
    if (distance < least || (distance === least && candidate < best!)) {
      best = candidate;
      least = distance;
    }
  }
  return best;
}

/** Levenshtein distance, or `max + 1` once it must exceed `max` (a band of 2·max+1). */
export function boundedEditDistance(
  a: string,
  b: string,
  { max }: { max: number },
): number {
  const over = max + 1;
  const m = b.length;
  if (Math.abs(a.length - m) > max) return over;
  let previous = new Array<number>(m + 1);
  let current = new Array<number>(m + 1);
  for (let j = 0; j <= m; j++) previous[j] = j <= max ? j : over;
  for (let i = 1; i <= a.length; i++) {
    const low = Math.max(1, i - max);
    const high = Math.min(m, i + max);
    // Cells past `over` are not capped: only whether they reach it matters.
    current[low - 1] = low === 1 ? i : over;
    let rowMin = current[low - 1]!;
    const code = a.charCodeAt(i - 1);
    for (let j = low; j <= high; j++) {
      const change = previous[j - 1]! + (code === b.charCodeAt(j - 1) ? 0 : 1);
      const cell = Math.min(change, previous[j]! + 1, current[j - 1]! + 1);
      current[j] = cell;
      if (cell < rowMin) rowMin = cell;
    }
    if (high < m) current[high + 1] = over;
    if (rowMin >= over) return over;
    [previous, current] = [current, previous];
  }
  return Math.min(previous[m]!, over);
}

/** `; did you mean "x"?`, or nothing when no name is close. */
export function didYouMean(suggestion: string | undefined): string {
  return suggestion === undefined ? "" : `; did you mean "${suggestion}"?`;
}
