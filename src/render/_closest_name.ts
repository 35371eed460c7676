/**
 * "Did you mean" suggestions for unknown names.
 *
 * @module
 */

/**
 * The candidate closest to `name` by edit distance, if it is at most
 * `maxDistance` away. Ties go to the candidate that sorts first, so the
 * suggestion does not depend on registration order.
 *
 * Linear in the number of candidates: a candidate whose length differs by
 * more than the best distance so far is skipped, and the others are compared
 * with {@linkcode boundedEditDistance}, O(maxDistance · length) each.
 */
export function closestName(
  name: string,
  candidates: Iterable<string>,
  maxDistance = 2,
): string | undefined {
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const candidate of candidates) {
    // Equal distances still matter (ties), so the bound is bestDistance.
    const bound = Math.min(maxDistance, bestDistance);
    if (Math.abs(candidate.length - name.length) > bound) continue;
    const distance = boundedEditDistance(name, candidate, bound);
    if (
      distance < bestDistance ||
      (distance === bestDistance && best !== undefined && candidate < best)
    ) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * `min(editDistance(a, b), max + 1)`: Levenshtein distance computed only in
 * the band of cells within `max` of the diagonal, stopping as soon as a row
 * has no cell within `max`. O(max · |a|) time.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  const over = max + 1;
  const m = b.length;
  if (Math.abs(a.length - m) > max) return over;
  let previous = new Array<number>(m + 1);
  let current = new Array<number>(m + 1);
  for (let j = 0; j <= m; j++) previous[j] = j <= max ? j : over;
  for (let i = 1; i <= a.length; i++) {
    const low = Math.max(1, i - max);
    const high = Math.min(m, i + max);
    current[low - 1] = low === 1 ? Math.min(i, over) : over;
    let rowMin = current[low - 1]!;
    const code = a.charCodeAt(i - 1);
    for (let j = low; j <= high; j++) {
      const cell = Math.min(
        previous[j - 1]! + (code === b.charCodeAt(j - 1) ? 0 : 1),
        previous[j]! + 1,
        current[j - 1]! + 1,
        over,
      );
      current[j] = cell;
      if (cell < rowMin) rowMin = cell;
    }
    if (high < m) current[high + 1] = over;
    if (rowMin >= over) return over;
    [previous, current] = [current, previous];
  }
  return previous[m]!;
}

/** Levenshtein distance with one reused row: O(|a|·|b|) time, O(|b|) space. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(
        above + 1,
        row[j - 1]! + 1,
        diagonal + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      diagonal = above;
    }
  }
  return row[b.length]!;
}
