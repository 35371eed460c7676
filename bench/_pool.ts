/**
 * Fair render pools: values of fresh content on every iteration, the same
 * values handed to every candidate, so that no candidate times a memo hit.
 *
 * A render that repeats one assembly measures the reuse of the last render,
 * not a render. A pool of {@linkcode FRESH_POOL} value sets, each value of
 * other content than in every other set, is built before the clock starts;
 * the n-th iteration of every candidate renders set `n % FRESH_POOL`. Two
 * consecutive iterations share no value, and a set comes back only after
 * {@linkcode FRESH_POOL} renders: more than any memory of recent renders the
 * library keeps per template or per prompt, so none of them hits.
 *
 * @module
 */

/** How many value sets a pool holds. */
export const FRESH_POOL = 32;

/**
 * `value` with `#k ` inserted after its leading whitespace: other content,
 * the same edges (so that trimming behaves as on the original), and a flat
 * string, as a provider that read it from a file would return.
 */
export function variant(value: string, k: number): string {
  const lead = value.length - value.trimStart().length;
  return flat(`${value.slice(0, lead)}#${k} ${value.slice(lead)}`);
}

/** A flat copy of `text` (a concatenation may be a rope). */
export function flat(text: string): string {
  return JSON.parse(JSON.stringify(text));
}

/** Null-prototype value sets, one per pool entry, from `values`. */
export function valuePool(
  values: Readonly<Record<string, string>>,
  size: number = FRESH_POOL,
): Record<string, string>[] {
  return Array.from({ length: size }, (_, k) => {
    const set: Record<string, string> = Object.create(null);
    for (const name of Object.keys(values)) {
      set[name] = variant(values[name]!, k + 1);
    }
    return set;
  });
}

/** Cycles through `pool`: every call returns the next entry. */
export function cycle<T>(pool: readonly T[]): () => T {
  let n = 0;
  return () => {
    const entry = pool[n]!;
    n = n + 1 === pool.length ? 0 : n + 1;
    return entry;
  };
}
