/**
 * `AGENTS.md` files as list items, read at every assembly by an async item
 * provider: one item per file from the repository root down to the working
 * directory (the nearest directory holding `.git`; without one, the working
 * directory alone), named by its path from that root, outermost first so
 * the nearest file has the last word. Each file is `literal`: its words
 * are included verbatim, and a `{{` in them is just text.
 *
 * Uses `node:fs/promises` and `node:path`, so it runs in Deno and Node.
 *
 * @module
 */

import { readFile, stat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import process from "node:process";
import type { AssembleContext, PromptRegistrar } from "@dsh/system-prompt";

/** One instruction file found for a working directory. */
export interface InstructionFile {
  /** Its path from the repository root, with `/` separators (`pkg/AGENTS.md`). */
  readonly name: string;
  /** Its absolute path. */
  readonly path: string;
  /** Its content. */
  readonly text: string;
}

/** Options of {@linkcode findInstructionFiles}. */
export interface FindInstructionFilesOptions {
  /** Stops the search: it rejects with the signal's reason. @default {undefined} */
  signal?: AbortSignal | undefined;
  /** The file name to look for. @default {"AGENTS.md"} */
  fileName?: string;
}

/**
 * The directories from the repository root down to `cwd`: `cwd` and its
 * parents up to the first that holds `.git` (a directory, or the file of a
 * worktree or submodule). Without one, `cwd` alone.
 */
export async function repositoryChain(
  cwd: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const chain: string[] = [];
  for (let dir = cwd;; dir = dirname(dir)) {
    signal?.throwIfAborted();
    chain.push(dir);
    if (await exists(join(dir, ".git"))) return chain.reverse();
    if (dirname(dir) === dir) return [cwd];
  }
}

/**
 * Reads the instruction files that apply to `cwd`, outermost first. The
 * files are read concurrently; a missing one is skipped, and so is an
 * empty one.
 */
export async function findInstructionFiles(
  cwd: string,
  options: FindInstructionFilesOptions = {},
): Promise<InstructionFile[]> {
  const { signal, fileName = "AGENTS.md" } = options;
  const chain = await repositoryChain(cwd, signal);
  const root = chain[0]!;
  const found = await Promise.all(chain.map(async (dir) => {
    const path = join(dir, fileName);
    let text: string;
    try {
      text = await readFile(path, { encoding: "utf8", signal });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === "ENOENT" || code === "EISDIR") return undefined;
      throw error;
    }
    if (text.trim() === "") return undefined;
    return { name: relative(root, path).split(sep).join("/"), path, text };
  }));
  return found.filter((file) => file !== undefined);
}

/** Options of {@linkcode agentsMdPlugin}. */
export interface AgentsMdOptions<C> {
  /** The step's working directory. @default {() => process.cwd()} */
  cwd?: (context: C) => string;
  /** The list's name (a section the plugin registers). @default {"agents-md"} */
  list?: string;
  /** The section's order. @default {50} */
  order?: number;
  /** The file name to look for. @default {"AGENTS.md"} */
  fileName?: string;
}

/**
 * Registers the `agents-md` section (a heading; dropped when no file
 * applies) and the item provider that reads the files at every assembly,
 * honouring the assembly's abort signal.
 */
export function agentsMdPlugin<C = AssembleContext>(
  to: PromptRegistrar<C>,
  options: AgentsMdOptions<C> = {},
): void {
  const {
    cwd = () => process.cwd(),
    list = "agents-md",
    order = 50,
    fileName = "AGENTS.md",
  } = options;
  to.section({
    name: list,
    order,
    stability: "session",
    text: `Instructions from ${fileName} files, the repository root's first:`,
    list: { separator: "\n\n" },
  });
  to.items(list, async (context, { signal }) => {
    const files = await findInstructionFiles(cwd(context), {
      signal,
      fileName,
    });
    return files.map((file, index) => ({
      name: file.name,
      order: index,
      text: `From ${file.name}:\n${file.text.trim()}`,
      literal: true,
      stability: "session" as const,
    }));
  });
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
