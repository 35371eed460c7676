/**
 * The repository root, for tests that read its documents and sources. In
 * Deno the tests sit one level below it; on Node.js they are compiled into
 * `out/tests/` of a scratch copy that holds the same files at its root.
 *
 * @module
 */

import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The nearest directory above this file that holds `mod.ts` and `README.md`. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, "mod.ts")) && existsSync(join(dir, "README.md"))) {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(
        `No directory above ${
          fileURLToPath(import.meta.url)
        } holds mod.ts and README.md`,
      );
    }
    dir = parent;
  }
}
