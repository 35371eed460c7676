/**
 * `deno task test:node`: compiles the test suite (with the sources and
 * examples it imports) with the pinned TypeScript and runs it on Node.js
 * with `node --test`. The scratch project is named `@dsh/system-prompt`, so
 * tests that import the package by name resolve to the compiled `mod.js`.
 *
 * @module
 */

import { cp, readdir } from "node:fs/promises";
import { join } from "node:path";
import { compile, run, scratchProject, VERSIONS } from "./node_toolchain.ts";

const dir = await scratchProject(
  "node-test",
  {
    name: "@dsh/system-prompt",
    private: true,
    type: "module",
    exports: { ".": "./out/mod.js", "./inspect": "./out/inspect.js" },
  },
  ["mod.ts", "inspect.ts", "src", "tests", "examples"],
  [
    `typescript@${VERSIONS.typescript}`,
    `@types/node@${VERSIONS.typesNode}`,
    `ai@${VERSIONS.ai}`,
    `fast-check@${VERSIONS.fastCheck}`,
  ],
);
await compile(dir, {
  include: ["mod.ts", "inspect.ts", "src", "tests", "examples"],
  outDir: "out",
});
// Data files the compiled tests and examples read next to themselves.
for (const data of ["examples/personas", "tests/fixtures"]) {
  await cp(join(dir, data), join(dir, "out", data), { recursive: true });
}

const files = (await readdir(join(dir, "out", "tests"), { recursive: true }))
  .filter((file) => file.endsWith("_test.js"))
  .sort()
  .map((file) => join("out", "tests", file));
const nodeVersion = (await run("node", ["--version"], { cwd: dir })).trim();
console.log(`node ${nodeVersion}: ${files.length} test files`);
await run("node", ["--test", "--test-reporter=spec", ...files], {
  cwd: dir,
  echo: true,
});
