// The structure docs/design.md and CONTRIBUTING.md describe, checked:
// - the layers of src/ (core ← render ← registry ← inspect ← adapters ←
//   page ← mcp), each importing only the layers to its left, no cycle;
// - the `_` rule: internals live in `_` files, every entry point is
//   `export *` of its public files, every symbol a public file exports is
//   public API, and only the registry reads the registry's internals;
// - the rules that keep files readable: at most two positional parameters
//   plus an options object for anything shared across files, explicit
//   return types on exports, and no file over 300 code lines.
// Each failure names the file, and the symbol or line, at fault.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { codeLines } from "./support/code_lines.ts";
import { repoRoot } from "./support/repo_root.ts";
import { signatures } from "./support/signatures.ts";
import { sourceExports } from "./support/source_exports.ts";

const ROOT = repoRoot();
const SRC = join(ROOT, "src");
const LAYERS = [
  "core",
  "render",
  "registry",
  "inspect",
  "adapters",
  "page",
  "mcp",
];
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

/** Every `.ts` file of src/, relative to the root (`src/core/errors.ts`). */
function sourceFiles(): string[] {
  return LAYERS.flatMap((layer) =>
    readdirSync(join(SRC, layer)).filter((name) => name.endsWith(".ts"))
      .map((name) => `src/${layer}/${name}`)
  );
}

/** The entry points: the `.ts` files at the root (deno.json `exports`). */
function entryPoints(): string[] {
  return readdirSync(ROOT).filter((name) => name.endsWith(".ts")).sort();
}

const isInternal = (file: string) => /(^|\/)_[^/]*$/.test(file);

/**
 * Public files whose internals still wait for a `_` file of their own:
 * the entry point that hand-picks from each, and the internal symbols it
 * still exports. A symbol leaving the file needs no change here; a new
 * internal symbol fails. Remove a file once its list is empty and make
 * its entry point `export *` from it.
 */
const PENDING: Record<string, { entry: string; internals: string[] }> = {};

const STAR = /^export \* from "\.\/(src\/[^"]+)";$/;
const PICKED = /^export (?:type )?\{[^}]*\} from "\.\/(src\/[^"]+)";$/;

/** An entry point's export statements, one string each, comments removed. */
function exportStatements(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return [...text.matchAll(/^export\b[^;]*;/gm)].map((match) =>
    match[0].replace(/\s+/g, " ").replace(/\{ /, "{").replace(/,? \}/, "}")
  );
}

describe("the `_` rule", () => {
  const files = sourceFiles();
  const entries = entryPoints();
  // Each public file and the entry points that export from it.
  const servedBy = new Map<string, string[]>();
  for (const entry of entries) {
    for (const statement of exportStatements(entry)) {
      const source = (STAR.exec(statement) ?? PICKED.exec(statement))?.[1];
      if (source !== undefined) {
        servedBy.set(source, [...(servedBy.get(source) ?? []), entry]);
      }
    }
  }

  it("makes every entry point `export *` of its public files", () => {
    const wrong: string[] = [];
    for (const entry of entries) {
      for (const statement of exportStatements(entry)) {
        const star = STAR.exec(statement)?.[1];
        const picked = PICKED.exec(statement)?.[1];
        if (star !== undefined && !isInternal(star)) continue;
        if (picked !== undefined && PENDING[picked]?.entry === entry) continue;
        wrong.push(
          `${entry}: \`${statement}\` (only \`export * from\` a public file)`,
        );
      }
    }
    assert.deepEqual(wrong, []);
  });

  it("serves every public file from exactly one entry point", () => {
    const wrong = files.filter((file) => !isInternal(file)).flatMap((file) => {
      const by = servedBy.get(file) ?? [];
      return by.length === 1 ? [] : [
        `${file}: exported by ${
          by.length === 0 ? "no entry point" : by.join(" and ")
        }`,
      ];
    });
    assert.deepEqual(wrong, []);
  });

  it("exports from public files only what an entry point exports", () => {
    const api = new Set<string>();
    for (const entry of entries) {
      const { values, types } = sourceExports(join(ROOT, entry));
      for (const name of [...values, ...types]) api.add(name);
    }
    const wrong: string[] = [];
    for (const file of files.filter((file) => !isInternal(file))) {
      const { values, types } = sourceExports(join(ROOT, file));
      const known = PENDING[file]?.internals ?? [];
      for (const name of [...values, ...types]) {
        if (!api.has(name) && !known.includes(name)) {
          wrong.push(
            `${file}: exports ${name}, which no entry point does (move it to a \`_\` file)`,
          );
        }
      }
    }
    assert.deepEqual(wrong, []);
  });

  it("keeps the registry's internals to the registry", () => {
    const wrong: string[] = [];
    for (const [file, imports] of importGraph()) {
      if (file.startsWith("registry")) continue;
      for (const target of imports) {
        if (/^registry[\\/]_/.test(target)) {
          wrong.push(`src/${file} -> src/${target}`);
        }
      }
    }
    assert.deepEqual(wrong, []);
  });
});

/** Files exempt from the size rule, each with why. */
const OVERSIZED: Record<string, string> = {};

/** Functions exempt from the parameter rule, each with why. */
const POSITIONAL: Record<string, string> = {
  // Public API: a new signature is a breaking change.
  "src/adapters/pricing.ts priceFor": "public API",
};

/** Functions exempt from the return type rule, each with why. */
const UNTYPED: Record<string, string> = {};

const MAX_LINES = 300;
const PRIMITIVE =
  /^(?:string|number|boolean|bigint|symbol|unknown|undefined|null|any|never)$/;

/**
 * Whether a parameter is an options object: a destructured object, or
 * typed as an object (a literal type, or a named type that is not a
 * primitive, an array, a function, or a string union of this file).
 */
function isOptions(parameter: string, aliases: Map<string, string>): boolean {
  if (parameter.startsWith("{")) return true;
  const colon = parameter.indexOf(":");
  if (colon === -1) return false; // untyped: a default value
  let type = parameter.slice(colon + 1).replace(/=.*$/, "").trim();
  type = aliases.get(type) ?? type;
  const alternatives = topLevel(type, "|").filter((t) => t !== "undefined");
  return alternatives.length > 0 &&
    alternatives.every((t) =>
      !PRIMITIVE.test(t) && !/^["'\d]/.test(t) && !t.endsWith("[]") &&
      !/^(?:readonly |Readonly)?(?:Array|Set|Map)\b/.test(t) &&
      !t.includes("=>")
    );
}

/** `text` split at each `separator` outside brackets, trimmed. */
function topLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if ("({[<".includes(c)) depth++;
    else if (")}]>".includes(c) && text[i - 1] !== "=") depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  return [...parts, text.slice(start).trim()];
}

describe("the rules for shared code", () => {
  const files = [...sourceFiles(), ...entryPoints()];

  it(`keeps every file within ${MAX_LINES} code lines`, () => {
    const wrong = files.flatMap((file) => {
      const lines = codeLines(readFileSync(join(ROOT, file), "utf8"));
      return lines > MAX_LINES && !(file in OVERSIZED)
        ? [`${file}: ${lines} code lines`]
        : [];
    });
    assert.deepEqual(wrong, []);
  });

  it("gives shared functions at most two positional parameters and an options object", () => {
    const wrong: string[] = [];
    for (const file of files) {
      const source = readFileSync(join(ROOT, file), "utf8");
      const aliases = new Map(
        [...source.matchAll(/^(?:export )?type (\w+) =([^;]+);/gm)].map((
          match,
        ) => [match[1]!, match[2]!.trim()]),
      );
      for (const { name, line, parameters } of signatures(source)) {
        if (`${file} ${name}` in POSITIONAL) continue;
        const third = parameters[2];
        if (
          parameters.length > 3 ||
          third !== undefined && !isOptions(third, aliases)
        ) {
          wrong.push(`${file}:${line} ${name}(${parameters.join(", ")})`);
        }
      }
    }
    assert.deepEqual(wrong, []);
  });

  it("writes the return type of every exported function and method", () => {
    const wrong: string[] = [];
    for (const file of files) {
      const source = readFileSync(join(ROOT, file), "utf8");
      for (const { name, line, kind, returnType } of signatures(source)) {
        if (`${file} ${name}` in UNTYPED) continue;
        if (kind !== "constructor" && !returnType) {
          wrong.push(`${file}:${line} ${name}`);
        }
      }
    }
    assert.deepEqual(wrong, []);
  });
});
