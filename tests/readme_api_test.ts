// The README's API tables name every export of mod.ts, inspect.ts,
// adapters.ts and page.ts, and nothing else, so they cannot drift from the
// code; each heading links to its entry point's source.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as core from "../mod.ts";
import * as inspect from "../inspect.ts";
import * as adapters from "../adapters.ts";
import * as page from "../page.ts";
import { repoRoot } from "./support/repo_root.ts";
import { sourceExports } from "./support/source_exports.ts";

const ROOT = repoRoot();
const README = readFileSync(join(ROOT, "README.md"), "utf8");

const ENTRY_POINTS = [
  {
    specifier: "@dsh/system-prompt",
    file: "mod.ts",
    runtime: core,
    docs: "mod.ts",
  },
  {
    specifier: "@dsh/system-prompt/inspect",
    file: "inspect.ts",
    runtime: inspect,
    docs: "inspect.ts",
  },
  {
    specifier: "@dsh/system-prompt/page",
    file: "page.ts",
    runtime: page,
    docs: "page.ts",
  },
  {
    specifier: "@dsh/system-prompt/adapters",
    file: "adapters.ts",
    runtime: adapters,
    docs: "adapters.ts",
  },
];

/** The rows of the table under the README heading that names `specifier`. */
function tableNames(specifier: string, docs: string): string[] {
  const lines = README.split("\n");
  const heading = `### [\`${specifier}\`](${docs})`;
  const start = lines.indexOf(heading);
  assert.notEqual(start, -1, `README has no heading ${heading}`);
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,3} /.test(line)) break;
    if (!line.startsWith("|") || /^\|\s*(export|-+)\s*\|/.test(line)) continue;
    const name = /^\|\s*`([A-Za-z_$][\w$]*)`\s*\|/.exec(line)?.[1];
    assert.ok(
      name,
      `README API row does not start with an export name: ${line}`,
    );
    names.push(name);
  }
  return names;
}

const sorted = (names: Iterable<string>) => [...names].sort();

describe("README API tables", () => {
  for (const { specifier, file, runtime, docs } of ENTRY_POINTS) {
    const exports = sourceExports(join(ROOT, file));

    it(`sourceExports() reads the run-time exports of ${file} that import * sees`, () => {
      assert.deepEqual(sorted(exports.values), sorted(Object.keys(runtime)));
    });

    it(`the ${specifier} table names every run-time and type export of ${file} once, and nothing else`, () => {
      const names = tableNames(specifier, docs);
      assert.deepEqual(
        sorted(names),
        sorted(new Set([...exports.values, ...exports.types])),
      );
      assert.equal(new Set(names).size, names.length, "a name listed twice");
    });
  }

  it("sourceExports() follows export type * into the files it names", () => {
    const { types } = sourceExports(join(ROOT, "mod.ts"));
    // One name from each file mod.ts re-exports with `export type *`.
    for (const name of ["PromptChange", "ListLayout", "PromptAssembly"]) {
      assert.ok(types.has(name), `${name} missing from the types of mod.ts`);
    }
  });
});
