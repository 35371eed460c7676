/**
 * A provider's cache minimum for a model: the longest row of its table the
 * model's name contains, else the most conservative row.
 *
 * @module
 */

import type { ModelMinimum, ProviderProfile } from "./profiles.ts";

/** The minimum for `model`, and whether a row of the table matched it. */
export function minimumFor(
  profile: ProviderProfile,
  model: string | undefined,
): { minTokens: number; matched: boolean } {
  let best: ModelMinimum | undefined;
  for (const row of profile.models) {
    if (
      model?.includes(row.model) &&
      row.model.length > (best?.model.length ?? -1)
    ) {
      best = row;
    }
  }
  if (best !== undefined) return { minTokens: best.minTokens, matched: true };
  // Unknown or absent model: the most conservative row.
  const minTokens = Math.max(0, ...profile.models.map((row) => row.minTokens));
  return { minTokens, matched: false };
}
