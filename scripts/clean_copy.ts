/**
 * A clean checkout of this repository without git or network: a copy of
 * the files a clone would have (tracked and new files that .gitignore does
 * not ignore), so tests follow the docs on what a user gets, local changes
 * included, without `node_modules`, `npm/` or `.tmp/`.
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO: string = join(dirname(fileURLToPath(import.meta.url)), "..");

/** What a clone never has, when git cannot say (no `.git`). */
const LOCAL = new Set([".git", "node_modules", "npm", ".tmp"]);

/** The repository's files a clone would have, relative to its root. */
async function cloneFiles(): Promise<string[]> {
  const git = spawnSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    { cwd: REPO, encoding: "utf8" },
  );
  if (git.status === 0) {
    return git.stdout.split("\0").filter((path) =>
      path !== "" && existsSync(join(REPO, path))
    );
  }
  return (await readdir(REPO)).filter((entry) => !LOCAL.has(entry));
}

/** Copies the repository as a clone would have it to `to`. */
export async function cleanCopy(to: string): Promise<void> {
  for (const path of await cloneFiles()) {
    await mkdir(dirname(join(to, path)), { recursive: true });
    await cp(join(REPO, path), join(to, path), { recursive: true });
  }
}
