// `deno task demo` on a fresh machine: a copy of the repository without
// node_modules, an empty DENO_DIR. The demo must run and leave no npm
// package in the cache: test and bench dependencies stay out of its way.
// A Deno-only test (it runs Deno itself), kept out of tests/ so the suite
// there keeps its narrow permissions and runs on Node.js too.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { cleanCopy } from "./clean_copy.ts";

async function size(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const entry of await readdir(path)) {
    total += await size(join(path, entry));
  }
  return total;
}

describe("deno task demo on a fresh machine", () => {
  it("runs with an empty DENO_DIR and caches no npm package", async () => {
    const scratch = await mkdtemp(join(tmpdir(), "demo-cache-"));
    try {
      const repo = join(scratch, "repo");
      const denoDir = join(scratch, "deno-dir");
      await cleanCopy(repo);
      const result = spawnSync(process.execPath, ["task", "demo"], {
        cwd: repo,
        env: { ...process.env, DENO_DIR: denoDir, NO_COLOR: "1" },
        encoding: "utf8",
      });
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /^You are Dash/);
      assert.doesNotMatch(result.stderr, /Download/);
      const npm = await readdir(join(denoDir, "npm"), { recursive: true })
        .catch(() => []);
      assert.deepEqual(npm.filter((path) => path.includes("/")), []);
      await assert.rejects(stat(join(repo, "node_modules")));
      const kb = Math.round((await size(denoDir)) / 1024);
      console.log(
        `DENO_DIR after the demo's first run: ${kb} KB, no npm package`,
      );
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
