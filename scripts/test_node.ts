/**
 * `deno task test:node`: compiles the test suite (with the sources and
 * examples it imports) with the pinned TypeScript and runs it on Node.js
 * with `node --test`. The scratch project carries the package name and the entry points of deno.json, so
 * tests that import the package by name resolve to the compiled `mod.js`.
 *
 * @module
 */

import { cp, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { entryPoints } from "./entry_points.ts";
import {
  compile,
  denoManifest,
  removeScratch,
  ROOT,
  run,
  scratchProject,
  VERSIONS,
} from "./node_toolchain.ts";

// The SDKs, the tokenizer and the OpenTelemetry SDK the adapter tests use,
// at the versions import_map.json pins.
const TEST_PACKAGES = [
  "@opentelemetry/api",
  "@opentelemetry/sdk-trace-base",
  "@anthropic-ai/sdk",
  "openai",
  "@aws-sdk/client-bedrock-runtime",
  "@google/genai",
  "@ai-sdk/anthropic",
  "gpt-tokenizer",
];
const { imports } = JSON.parse(
  await readFile(join(ROOT, "import_map.json"), "utf8"),
) as { imports: Record<string, string> };
const pinned = TEST_PACKAGES.map((name) => imports[name]!.replace(/^npm:/, ""));

const manifest = await denoManifest();
const entries = entryPoints(manifest.exports);
const sources = [...entries.map((entry) => entry.source), "src"];
const dir = await scratchProject(
  "node-test",
  {
    name: manifest.name,
    private: true,
    type: "module",
    exports: Object.fromEntries(
      entries.map((entry) => [entry.subpath, `./out/${entry.stem}.js`]),
    ),
  },
  // README.md, docs/ and the pages they link for the tests that check them.
  [
    ...sources,
    "tests",
    "examples",
    "README.md",
    "CONTRIBUTING.md",
    "CHANGELOG.md",
    "LICENSE",
    "docs",
    "bench/RESULTS.md",
  ],
  [
    `typescript@${VERSIONS.typescript}`,
    `@types/node@${VERSIONS.typesNode}`,
    `ai@${VERSIONS.ai}`,
    `fast-check@${VERSIONS.fastCheck}`,
    ...pinned,
    `@modelcontextprotocol/sdk@${VERSIONS.mcpSdk}`,
    `zod@${VERSIONS.zod}`,
  ],
);
await compile(dir, {
  include: [...sources, "tests", "examples"],
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
await removeScratch("node-test");
