// docs/examples.md names every file in examples/, so a new example cannot
// go unlisted.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { repoRoot } from "./support/repo_root.ts";

const ROOT = repoRoot();

describe("docs/examples.md", () => {
  it("names every file in examples/, by its path there or its file name", () => {
    const doc = readFileSync(join(ROOT, "docs", "examples.md"), "utf8");
    const files = readdirSync(join(ROOT, "examples"), { recursive: true })
      .map(String)
      .filter((path) => /\.(ts|json)$/.test(path))
      .map((path) => path.replaceAll("\\", "/"));
    assert.ok(files.includes("plugins/bash.ts"), "examples/ was not read");
    const unlisted = files.filter((path) =>
      !doc.includes(`\`${path}\``) && !doc.includes(`\`${basename(path)}\``)
    );
    assert.deepEqual(unlisted, []);
  });
});
