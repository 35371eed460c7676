/**
 * `deno task build:npm`: emits `npm/` from the same sources as JSR, with the
 * pinned TypeScript: ESM JavaScript with source maps, `.d.ts` files with
 * declaration maps, the TypeScript sources they map to (under `source/`),
 * and a package.json whose `exports` follow deno.json's.
 *
 * @module
 */

import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type EntryPoint, entryPoints } from "./entry_points.ts";
import { npmManifest } from "./npm_manifest.ts";
import {
  compile,
  denoManifest,
  removeScratch,
  ROOT,
  scratchProject,
  VERSIONS,
} from "./node_toolchain.ts";
import { absoluteLinks } from "./readme_links.ts";

/** Where `deno task build:npm` puts the package. */
export const NPM_DIR: string = join(ROOT, "npm");

/** What {@linkcode buildNpm} built. */
export interface NpmBuild {
  /** The package directory. */
  dir: string;
  /** Its entry points, from deno.json. */
  entries: EntryPoint[];
}

/** Builds the npm package into `out` (default `npm/`). */
export async function buildNpm(out: string = NPM_DIR): Promise<NpmBuild> {
  const manifest = await denoManifest();
  const entries = entryPoints(manifest.exports);
  const sources = [...entries.map((entry) => entry.source), "src"];
  const dir = await scratchProject(
    "npm-build",
    { private: true, type: "module" },
    [],
    [`typescript@${VERSIONS.typescript}`],
  );
  // The sources sit inside the package, under source/, where the maps point;
  // not next to the .d.ts files, where TypeScript would pick a .ts first.
  for (const path of sources) {
    await cp(join(ROOT, path), join(dir, "package", "source", path), {
      recursive: true,
    });
  }
  await compile(dir, {
    include: ["package/source"],
    exclude: ["node_modules"],
    outDir: "package",
    declaration: true,
    compilerOptions: {
      rootDir: "package/source",
      // Runtime-neutral: no Node.js types (DOM only for `console`).
      lib: ["ES2022", "ESNext.Disposable", "DOM"],
      types: [],
      sourceMap: true,
      declarationMap: true,
    },
  });
  await rewriteDeclarationSpecifiers(join(dir, "package"));
  const packageJson = npmManifest(manifest, entries);
  await writeFile(
    join(dir, "package", "package.json"),
    JSON.stringify(packageJson, null, 2) + "\n",
  );
  const tree = `${manifest.repository}/blob/v${manifest.version}/`;
  for (const file of ["README.md", "CHANGELOG.md"]) {
    const text = await readFile(join(ROOT, file), "utf8");
    await writeFile(join(dir, "package", file), absoluteLinks(text, tree));
  }
  await cp(join(ROOT, "LICENSE"), join(dir, "package", "LICENSE"));
  await rm(out, { recursive: true, force: true });
  await mkdir(dirname(out), { recursive: true });
  await cp(join(dir, "package"), out, { recursive: true });
  await removeScratch("npm-build");
  return { dir: out, entries };
}

/**
 * tsc keeps `./x.ts` specifiers in `.d.ts` files even when it rewrites them
 * in JavaScript; TypeScript before 5.0 rejects them and `skipLibCheck` hides
 * the loss. Both extensions have three letters, so the maps stay exact.
 */
async function rewriteDeclarationSpecifiers(dir: string): Promise<void> {
  const files = (await readdir(dir, { recursive: true }))
    .filter((file) => file.endsWith(".d.ts") && !file.startsWith("source"));
  for (const file of files) {
    const path = join(dir, file);
    const text = await readFile(path, "utf8");
    await writeFile(
      path,
      text.replace(/(["'])(\.\.?\/[^"'\n]*)\.ts\1/g, "$1$2.js$1"),
    );
  }
}

if (import.meta.main) {
  const { dir, entries } = await buildNpm();
  console.log(
    `built ${dir}: ${
      entries.map((e) => `${e.subpath} → ${e.source}`).join(", ")
    }`,
  );
}
