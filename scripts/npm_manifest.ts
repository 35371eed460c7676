/**
 * npm/package.json, derived from deno.json: the same name, version, license
 * and entry points, plus what npm's pages show (repository, homepage, bugs,
 * keywords).
 *
 * @module
 */

import type { DenoManifest, EntryPoint } from "./entry_points.ts";

/**
 * The oldest Node.js the package supports, as docs/install.md says: ESM
 * from 20 (`require(esm)` without a flag from 20.19, which the docs say too).
 */
export const NODE_ENGINES = ">=20";

/** The package.json of the npm build. */
export function npmManifest(
  manifest: DenoManifest,
  entries: readonly EntryPoint[],
): Record<string, unknown> {
  if (manifest.repository === undefined) {
    throw new Error('deno.json needs a "repository" URL for npm/package.json');
  }
  const exports = Object.fromEntries(
    entries.map((entry) => [entry.subpath, {
      types: `./${entry.stem}.d.ts`,
      default: `./${entry.stem}.js`,
    }]),
  );
  const main = entries.find((entry) => entry.subpath === ".");
  return {
    name: manifest.name,
    version: manifest.version,
    description:
      "Assembles an LLM agent's system prompt from owned sections, tools and variables.",
    keywords: [
      "llm",
      "agent",
      "system-prompt",
      "prompt",
      "template",
      "ai",
      "deno",
    ],
    homepage: `${manifest.repository}#readme`,
    bugs: { url: `${manifest.repository}/issues` },
    repository: { type: "git", url: `git+${manifest.repository}.git` },
    license: "MIT",
    type: "module",
    exports,
    ...(main ? { types: `./${main.stem}.d.ts` } : {}),
    sideEffects: false,
    engines: { node: NODE_ENGINES },
    publishConfig: { access: "public" },
  };
}
