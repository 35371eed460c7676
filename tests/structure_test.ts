// The layers of src/ as docs/design.md draws them: core ← render ← registry ←
// inspect ← adapters ← page,
// each importing only the layers to its left, and no import cycle.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { repoRoot } from "./support/repo_root.ts";

const SRC = join(repoRoot(), "src");
const LAYERS = ["core", "render", "registry", "inspect", "adapters", "page"];
const IMPORT = /from "(\.[^"]+)"/g;

/** Every file of src/ and the files of src/ it imports, relative to src/. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const layer of LAYERS) {
    for (const name of readdirSync(join(SRC, layer))) {
      if (!name.endsWith(".ts")) continue;
      const file = join(layer, name);
      const text = readFileSync(join(SRC, file), "utf8");
      const imports = [...text.matchAll(IMPORT)].map((match) =>
        relative(SRC, normalize(join(SRC, dirname(file), match[1]!)))
      );
      graph.set(file, imports);
    }
  }
  return graph;
}

describe("src/", () => {
  const graph = importGraph();

  it("has files in each layer", () => {
    for (const layer of LAYERS) {
      assert.ok([...graph.keys()].some((file) => file.startsWith(layer)));
    }
  });

  it("imports only from its own layer or the layers to its left", () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      const layer = LAYERS.indexOf(file.split(/[\\/]/)[0]!);
      for (const target of imports) {
        if (LAYERS.indexOf(target.split(/[\\/]/)[0]!) > layer) {
          wrong.push(`${file} -> ${target}`);
        }
      }
    }
    assert.deepEqual(wrong, []);
  });

  it("has no import cycle", () => {
    const done = new Set<string>();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]) => {
      if (path.includes(file)) {
        cycles.push([...path.slice(path.indexOf(file)), file].join(" -> "));
        return;
      }
      if (done.has(file)) return;
      for (const target of graph.get(file) ?? []) {
        visit(target, [...path, file]);
      }
      done.add(file);
    };
    for (const file of graph.keys()) visit(file, []);
    assert.deepEqual(cycles, []);
  });
});
