/**
 * What a TypeScript module exports, read from its source text: the export
 * statements of the file and, through `export *` and `export type *`, of the
 * files it re-exports. Types need the source: they leave no trace at run
 * time. A form of `export` this reader does not know is an error, so a new
 * form cannot slip past the tests that use it.
 *
 * @module
 */

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** A module's exported names: run-time values, and types only. */
export interface SourceExports {
  /** Classes, functions, constants: what `import * as m` holds. */
  values: Set<string>;
  /** Interfaces and type aliases, and names re-exported as `type`. */
  types: Set<string>;
}

const NAME = "[A-Za-z_$][\\w$]*";
const LIST =
  /^export\s+(type\s+)?\{([^}]*)\}(?:\s*from\s*["']([^"']+)["'])?\s*;/gm;
const STAR = /^export\s+(type\s+)?\*\s+from\s*["']([^"']+)["']\s*;/gm;
const DECLARATION = new RegExp(
  `^export\\s+(?:declare\\s+)?(?:abstract\\s+)?(?:async\\s+)?` +
    `(function\\*?|class|const|let|var|enum|interface|type)\\s+(${NAME})`,
  "gm",
);
const ANY_EXPORT = /^export\b/gm;
const COMMENTS = /\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm;

/** The exports of the module at `path` (a `.ts` file). */
export function sourceExports(path: string): SourceExports {
  const result: SourceExports = { values: new Set(), types: new Set() };
  collect(path, false, result);
  return result;
}

function collect(path: string, typesOnly: boolean, into: SourceExports): void {
  const text = readFileSync(path, "utf8").replace(COMMENTS, "");
  let handled = 0;
  const add = (name: string, isType: boolean) =>
    (typesOnly || isType ? into.types : into.values).add(name);

  for (const [, allTypes, list, from] of text.matchAll(LIST)) {
    handled++;
    if (from === undefined) {
      throw new Error(`${path}: a local export list is not supported here`);
    }
    for (const entry of list!.split(",").map((part) => part.trim())) {
      if (entry === "") continue;
      const typed = /^type\s+/.test(entry);
      const exported = entry.replace(/^type\s+/, "").split(/\s+as\s+/).at(-1)!;
      add(exported, allTypes !== undefined || typed);
    }
  }
  for (const [, allTypes, from] of text.matchAll(STAR)) {
    handled++;
    collect(
      join(dirname(path), from!),
      typesOnly || allTypes !== undefined,
      into,
    );
  }
  for (const [, kind, name] of text.matchAll(DECLARATION)) {
    handled++;
    add(name!, kind === "interface" || kind === "type");
  }
  const found = [...text.matchAll(ANY_EXPORT)].length;
  if (found !== handled) {
    throw new Error(
      `${path}: ${
        found - handled
      } export statement(s) of a form this reader does not know`,
    );
  }
}
