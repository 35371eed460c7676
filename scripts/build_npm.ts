/**
 * `deno task build:npm`: emits `npm/` (ESM JavaScript, `.d.ts` files and a
 * package.json) from the same sources, with the pinned TypeScript. This is
 * what JSR's npm layer serves to Node users, built here without JSR.
 *
 * @module
 */

import { copyFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  compile,
  packageVersion,
  ROOT,
  scratchProject,
  VERSIONS,
} from "./node_toolchain.ts";

/** Builds `npm/` and returns its path. */
export async function buildNpm(): Promise<string> {
  const dir = await scratchProject(
    "npm-build",
    { private: true, type: "module" },
    ["mod.ts", "inspect.ts", "src"],
    [`typescript@${VERSIONS.typescript}`, `@types/node@${VERSIONS.typesNode}`],
  );
  const out = join(ROOT, "npm");
  await rm(out, { recursive: true, force: true });
  await compile(dir, {
    include: ["mod.ts", "inspect.ts", "src"],
    outDir: out,
    declaration: true,
  });
  await writeFile(
    join(out, "package.json"),
    JSON.stringify(
      {
        name: "@dsh/system-prompt",
        version: await packageVersion(),
        description:
          "Assembles an LLM agent's system prompt from owned sections, tools and variables.",
        license: "MIT",
        type: "module",
        exports: {
          ".": { types: "./mod.d.ts", default: "./mod.js" },
          "./inspect": { types: "./inspect.d.ts", default: "./inspect.js" },
        },
        types: "./mod.d.ts",
        sideEffects: false,
        engines: { node: ">=20" },
      },
      null,
      2,
    ) + "\n",
  );
  for (const file of ["README.md", "LICENSE"]) {
    await copyFile(join(ROOT, file), join(out, file));
  }
  return out;
}

if (import.meta.main) {
  const out = await buildNpm();
  console.log(`built ${out}`);
}
