/**
 * The code before `render()` and asynchronous providers (main f483879), for
 * the targets that compare a step with the same step before: loaded from
 * `.tmp/before/` (`deno task bench:report` extracts it there with
 * `git archive`), so that both sides are timed in the same run. Absent when
 * it was not extracted: the report then falls back on the recorded
 * baselines of `bench/_tools/baselines.ts`.
 *
 * @module
 */

import type * as Library from "@dsh/system-prompt";

/** The commit whose step the after/before targets compare with. */
export const BEFORE_COMMIT = "f483879";

/** Where the report extracts it. */
export const BEFORE_DIR: URL = new URL("../.tmp/before/", import.meta.url);

/** The library as it was, or `undefined` when it was not extracted. */
export async function loadBefore(): Promise<typeof Library | undefined> {
  try {
    return await import(new URL("mod.ts", BEFORE_DIR).href);
  } catch {
    return undefined;
  }
}
