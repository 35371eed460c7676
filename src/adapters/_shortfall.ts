/**
 * Whether a set of breakpoints would all be cached: the first one whose
 * prefix (or, where the minimum applies per checkpoint, increment) is
 * under the model's minimum.
 *
 * @module
 */

import type { ProviderProfile } from "./profiles.ts";

/** The first breakpoint of a set that the profile would not cache, and why. */
export function shortfall<C extends { readonly tokens: number }>(
  set: readonly C[],
  by: { profile: ProviderProfile; minTokens: number },
): { at: C; detail: string } | undefined {
  const { profile, minTokens } = by;
  const sorted = set.slice().sort((a, b) => a.tokens - b.tokens);
  let previous = 0;
  for (const at of sorted) {
    const size = profile.minimum === "increment"
      ? at.tokens - previous
      : at.tokens;
    if (size < minTokens) {
      const what = profile.minimum === "increment"
        ? `${size} tokens since the previous breakpoint`
        : `a prefix of ${size} tokens`;
      return { at, detail: `${what}, under the minimum of ${minTokens}` };
    }
    previous = at.tokens;
  }
  return undefined;
}
