/**
 * The package's entry points, read from deno.json `exports` (a string or an
 * object of subpaths), so the npm build, the Node suite and the consumer
 * test follow deno.json when an entry point is added.
 *
 * @module
 */

/** One entry point: the subpath users import and the source that serves it. */
export interface EntryPoint {
  /** `"."` or `"./inspect"`. */
  subpath: string;
  /** The source relative to the root, without `./`: `mod.ts`, `inspect.ts`. */
  source: string;
  /** The compiled module relative to the package root, without `./`: `mod`. */
  stem: string;
}

/** The package manifest fields the scripts read from deno.json. */
export interface DenoManifest {
  name: string;
  version: string;
  exports: string | Record<string, string>;
  repository?: string;
}

/**
 * The entry points of `exports`.
 *
 * @throws {Error} If an entry is not a `./…ts` file.
 */
export function entryPoints(exports: DenoManifest["exports"]): EntryPoint[] {
  const map = typeof exports === "string" ? { ".": exports } : exports;
  return Object.entries(map).map(([subpath, path]) => {
    const match = /^\.\/(.+)\.ts$/.exec(path);
    if (match === null) {
      throw new Error(
        `deno.json exports "${subpath}" is "${path}"; expected a "./….ts" file`,
      );
    }
    return { subpath, source: `${match[1]}.ts`, stem: match[1]! };
  });
}

/** The import specifier of an entry point: `@dsh/system-prompt/inspect`. */
export function specifier(name: string, entry: EntryPoint): string {
  return entry.subpath === "." ? name : `${name}${entry.subpath.slice(1)}`;
}
