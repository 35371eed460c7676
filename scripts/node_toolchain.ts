/**
 * The pinned Node.js toolchain the npm build and the Node test suite share:
 * a scratch project under `.tmp/` with TypeScript from npm, into which the
 * sources are copied and compiled to ESM (so `node_modules` resolves as it
 * would for a user).
 *
 * @module
 */

import { cp, mkdir, readdir, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DenoManifest, entryPoints, specifier } from "./entry_points.ts";

/** Pinned versions: the same build on every machine. */
export const VERSIONS = {
  typescript: "5.9.3",
  /** The oldest TypeScript the package's declarations support. */
  typescriptOldest: "5.2.2",
  esbuild: "0.28.2",
  bun: "1.4.5",
  typesNode: "20.19.43",
  ai: "6.0.325",
  typesJsonSchema: "7.0.15",
  fastCheck: "4.11.0",
  mcpSdk: "1.32.2",
  zod: "4.6.7",
} as const;

/** The repository root. */
export const ROOT: string = join(dirname(fileURLToPath(import.meta.url)), "..");

/** A command that exited with a non-zero code, with what it printed. */
export class CommandError extends Error {
  /** Its stdout and stderr, in that order. */
  readonly output: string;

  /** An error for `command` and its output. */
  constructor(message: string, output: string) {
    super(message);
    this.name = "CommandError";
    this.output = output;
  }
}

/**
 * Runs a command; prints its output only when it fails (never, with
 * `quiet`: a failure the caller expects; always, with `echo`).
 *
 * @throws {CommandError} If it exits with a non-zero code.
 */
export async function run(
  command: string,
  args: string[],
  options: { cwd: string; echo?: boolean; quiet?: boolean },
): Promise<string> {
  const output = await new Deno.Command(command, {
    args,
    cwd: options.cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  const stderr = new TextDecoder().decode(output.stderr);
  if (options.echo || (!output.success && !options.quiet)) {
    await Deno.stdout.write(new TextEncoder().encode(stdout));
    await Deno.stderr.write(new TextEncoder().encode(stderr));
  }
  if (!output.success) {
    throw new CommandError(
      `${command} ${args.join(" ")} failed with exit code ${output.code}`,
      stdout + stderr,
    );
  }
  return stdout;
}

/**
 * A fresh scratch project at `.tmp/<name>` with `packageJson`, the given
 * paths of this repository copied in, and `packages` installed.
 */
export async function scratchProject(
  name: string,
  packageJson: Record<string, unknown>,
  copy: string[],
  packages: string[],
): Promise<string> {
  const dir = join(ROOT, ".tmp", name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify(packageJson, null, 2),
  );
  for (const path of copy) {
    await cp(join(ROOT, path), join(dir, path), { recursive: true });
  }
  await run("npm", [
    "install",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    ...packages,
  ], {
    cwd: dir,
  });
  return dir;
}

/**
 * Removes the scratch project `.tmp/<name>`, and `.tmp/` itself once it is
 * empty, so a passing run leaves nothing behind. A failing run keeps its
 * scratch projects for a look.
 */
export async function removeScratch(name: string): Promise<void> {
  const tmp = join(ROOT, ".tmp");
  await rm(join(tmp, name), { recursive: true, force: true });
  const left = await readdir(tmp).catch(() => undefined);
  if (left?.length === 0) await rmdir(tmp).catch(() => {});
}

/** Options of {@linkcode compile}. */
export interface CompileOptions {
  /** Paths to compile, relative to `dir`. */
  include: string[];
  /** Where the JavaScript (and `.d.ts`) files go. */
  outDir: string;
  /** Emit `.d.ts` files. @default {false} */
  declaration?: boolean;
  /** Further compiler options, applied last. */
  compilerOptions?: Record<string, unknown>;
  /** Paths not to compile (tsc excludes `outDir` unless told otherwise). */
  exclude?: string[];
}

/**
 * Compiles `dir`'s sources with its pinned `tsc`, rewriting `.ts` import
 * extensions to `.js`, as strict as deno.json.
 */
export async function compile(
  dir: string,
  options: CompileOptions,
): Promise<void> {
  await writeFile(
    join(dir, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          lib: ["ES2022", "ESNext.Disposable", "DOM"],
          types: ["node"],
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          noImplicitOverride: true,
          skipLibCheck: true,
          allowImportingTsExtensions: true,
          rewriteRelativeImportExtensions: true,
          declaration: options.declaration ?? false,
          rootDir: ".",
          outDir: options.outDir,
          paths: await selfPaths(),
          ...options.compilerOptions,
        },
        include: options.include,
        ...(options.exclude ? { exclude: options.exclude } : {}),
      },
      null,
      2,
    ),
  );
  await run(join(dir, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json"], {
    cwd: dir,
  });
}

/** The package manifest, deno.json. */
export async function denoManifest(): Promise<DenoManifest> {
  return JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
}

/** TypeScript `paths` resolving the package's own name to its sources. */
async function selfPaths(): Promise<Record<string, string[]>> {
  const { name, exports } = await denoManifest();
  return Object.fromEntries(
    entryPoints(exports).map((entry) => [
      specifier(name, entry),
      [`./${entry.source}`],
    ]),
  );
}
