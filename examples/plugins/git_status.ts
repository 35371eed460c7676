/**
 * The `git.status` variable: `git status --porcelain` in the step's working
 * directory, run by an async provider at every assembly. The provider
 * honours the assembly's abort signal: an abort kills the child process
 * and rejects, so an abandoned step leaves no `git` running.
 *
 * Spawns with `node:child_process`, so it runs in Deno and Node.
 *
 * @module
 */

import { spawn as nodeSpawn } from "node:child_process";
import process from "node:process";
import type { AssembleContext, PromptRegistrar } from "@dsh/system-prompt";

/** What `git.status` holds for a work tree without changes. */
export const CLEAN = "(clean)";

/** Options of {@linkcode gitStatus}. */
export interface GitStatusOptions {
  /** Kills the child process and rejects with the signal's reason. @default {undefined} */
  signal?: AbortSignal | undefined;
  /** The command and its arguments. @default {["git", "status", "--porcelain"]} */
  command?: readonly [string, ...string[]];
  /** Starts the child process. @default {spawn from node:child_process} */
  spawn?: typeof nodeSpawn;
}

/**
 * The porcelain status of the work tree at `cwd`: its lines without the
 * final newline, {@linkcode CLEAN} when nothing changed, `undefined` when
 * the command fails (not a repository). Rejects when the command cannot
 * start, and with the signal's reason when it aborts (the child is killed).
 */
export function gitStatus(
  cwd: string,
  options: GitStatusOptions = {},
): Promise<string | undefined> {
  const {
    signal,
    command = ["git", "status", "--porcelain"],
    spawn = nodeSpawn,
  } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const [program, ...args] = command;
    const child = spawn(program, args, {
      cwd,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const onAbort = () => {
      child.kill("SIGTERM");
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk) => (out += chunk));
    child.on("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.on("close", (code) => {
      signal?.removeEventListener("abort", onAbort);
      if (code !== 0) resolve(undefined);
      else resolve(out.trimEnd() === "" ? CLEAN : out.trimEnd());
    });
  });
}

/** Options of {@linkcode gitStatusPlugin}. */
export interface GitStatusPluginOptions<C>
  extends Omit<GitStatusOptions, "signal"> {
  /** The step's working directory. @default {() => process.cwd()} */
  cwd?: (context: C) => string;
}

/** Registers `git.status`, read at every assembly. */
export function gitStatusPlugin<C = AssembleContext>(
  to: PromptRegistrar<C>,
  options: GitStatusPluginOptions<C> = {},
): void {
  const { cwd = () => process.cwd(), ...run } = options;
  to.variable(
    "git.status",
    (context, { signal }) => gitStatus(cwd(context), { ...run, signal }),
  );
}
