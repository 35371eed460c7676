/**
 * A small seeded generator, so that every corpus is the same on every run
 * and runtime.
 *
 * @module
 */

/** A linear congruential generator: numbers in [0, 1) from `seed`. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
