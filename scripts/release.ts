/**
 * Releases: `deno task release X.Y.Z` prepares one (sets the version in
 * deno.json, turns CHANGELOG.md's Unreleased section into `[X.Y.Z] - date`,
 * commits and tags `vX.Y.Z`); pushing the tag makes the publish workflow run
 * `deno task publish`, which publishes that version to JSR and npm/ to npm.
 * `deno task publish --dry-run` checks all of it without publishing.
 *
 * @module
 */

import { join } from "node:path";
import { buildNpm, NPM_DIR } from "./build_npm.ts";
import { denoManifest, ROOT, run } from "./node_toolchain.ts";

/**
 * CHANGELOG.md with its Unreleased section released as `version` on `date`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { releaseChangelog } from "./release.ts";
 *
 * const before = "## [Unreleased]\n\n### Fixed\n\n- x\n\n## [0.1.0] - 2026-11-30\n\n" +
 *   "[Unreleased]: https://g/compare/v0.1.0...HEAD\n";
 * assert.equal(
 *   releaseChangelog(before, "0.2.0", "2026-12-01", "https://g"),
 *   "## [Unreleased]\n\n## [0.2.0] - 2026-12-01\n\n### Fixed\n\n- x\n\n" +
 *     "## [0.1.0] - 2026-11-30\n\n" +
 *     "[Unreleased]: https://g/compare/v0.2.0...HEAD\n" +
 *     "[0.2.0]: https://g/compare/v0.1.0...v0.2.0\n",
 * );
 * ```
 */
export function releaseChangelog(
  text: string,
  version: string,
  date: string,
  repository: string,
): string {
  const unreleased = /^## \[Unreleased\]\n\n([\s\S]*?)(?=^## \[)/m.exec(text);
  if (unreleased === null || unreleased[1]!.trim() === "") {
    throw new Error("CHANGELOG.md: the Unreleased section lists no change");
  }
  const link = /^\[Unreleased\]: .*\/compare\/v(.+)\.\.\.HEAD$/m.exec(text);
  if (link === null) throw new Error("CHANGELOG.md: no [Unreleased] link");
  return text
    .replace(
      unreleased[0],
      `## [Unreleased]\n\n## [${version}] - ${date}\n\n${unreleased[1]}`,
    )
    .replace(
      link[0],
      `[Unreleased]: ${repository}/compare/v${version}...HEAD\n` +
        `[${version}]: ${repository}/compare/v${link[1]}...v${version}`,
    );
}

/** Throws unless CHANGELOG.md has a dated section for `version`. */
export function assertReleased(changelog: string, version: string): void {
  const escaped = version.replace(/\./g, "\\.");
  if (
    !new RegExp(`^## \\[${escaped}\\] - \\d{4}-\\d{2}-\\d{2}$`, "m").test(
      changelog,
    )
  ) {
    throw new Error(`CHANGELOG.md has no "## [${version}] - date" section`);
  }
}

async function git(...args: string[]): Promise<string> {
  return (await run("git", args, { cwd: ROOT })).trim();
}

async function prepare(version: string): Promise<void> {
  if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version)) {
    throw new Error(`"${version}" is not a version like 0.2.0`);
  }
  if (await git("status", "--porcelain") !== "") {
    throw new Error("the working tree has changes; commit or stash them first");
  }
  const manifest = await denoManifest();
  const denoJson = join(ROOT, "deno.json");
  await Deno.writeTextFile(
    denoJson,
    (await Deno.readTextFile(denoJson)).replace(
      `"version": "${manifest.version}"`,
      `"version": "${version}"`,
    ),
  );
  const changelog = join(ROOT, "CHANGELOG.md");
  const date = new Date().toISOString().slice(0, 10);
  await Deno.writeTextFile(
    changelog,
    releaseChangelog(
      await Deno.readTextFile(changelog),
      version,
      date,
      manifest.repository!,
    ),
  );
  await git("commit", "-am", `Release ${version}`);
  await git("tag", "-a", `v${version}`, "-m", `Release ${version}`);
  console.log(
    `Tagged v${version}. Push it to publish: git push origin HEAD v${version}`,
  );
}

async function publish(dryRun: boolean): Promise<void> {
  const { name, version } = await denoManifest();
  assertReleased(await Deno.readTextFile(join(ROOT, "CHANGELOG.md")), version);
  const tag = Deno.env.get("GITHUB_REF_NAME");
  if (Deno.env.get("GITHUB_REF_TYPE") === "tag" && tag !== `v${version}`) {
    throw new Error(`tag ${tag} does not match deno.json version ${version}`);
  }
  const { dir } = await buildNpm(NPM_DIR);
  const dry = dryRun ? ["--dry-run"] : [];
  await run("deno", ["publish", ...dry, ...(dryRun ? ["--allow-dirty"] : [])], {
    cwd: ROOT,
    echo: true,
  });
  // Provenance needs the CI's OIDC token; a local run publishes without it.
  const provenance = Deno.env.get("GITHUB_ACTIONS") === "true" && !dryRun
    ? ["--provenance"]
    : [];
  await run("npm", ["publish", ...dry, ...provenance], {
    cwd: dir,
    echo: true,
  });
  console.log(
    `${
      dryRun ? "dry run: would publish" : "published"
    } ${name}@${version} to JSR and npm`,
  );
}

if (import.meta.main) {
  const [command, argument] = Deno.args;
  if (command === "prepare" && argument !== undefined) await prepare(argument);
  else if (command === "publish") await publish(argument === "--dry-run");
  else {
    console.error(
      "Usage: deno task release X.Y.Z | deno task publish [--dry-run]",
    );
    Deno.exit(2);
  }
}
