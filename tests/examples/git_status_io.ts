// examples/plugins/git_status.ts with real child processes: git in a
// temporary repository, and a command that never ends for the abort. Needs
// --allow-run (git, sh), --allow-write (the repository) and --allow-env
// (the temp directory; node:child_process reads the environment).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PromptError, renderPrompt, SystemPrompt } from "@dsh/system-prompt";
import {
  CLEAN,
  gitStatus,
  gitStatusPlugin,
} from "../../examples/plugins/git_status.ts";

/** A `spawn` that keeps every child it starts. */
function recordingSpawn() {
  const children: ChildProcess[] = [];
  const record = ((...args: Parameters<typeof spawn>) => {
    const child = spawn(...args);
    children.push(child);
    return child;
  }) as typeof spawn;
  return { spawn: record, children };
}

/** How the child ended: its exit code and the signal that killed it. */
async function ended(child: ChildProcess) {
  if (child.exitCode === null && child.signalCode === null) {
    await once(child, "exit");
  }
  return { code: child.exitCode, signal: child.signalCode };
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  const child = spawn("git", args, { cwd, stdio: "ignore" });
  const [code] = await once(child, "close");
  assert.equal(code, 0, `git ${args.join(" ")} failed`);
}

describe("examples/plugins/git_status.ts: git.status from an async provider that honours the signal", () => {
  let top: string;
  let repo: string;

  before(async () => {
    top = await mkdtemp(join(tmpdir(), "git-status-"));
    repo = join(top, "repo");
    await mkdir(repo);
    await git(repo, "init", "--quiet");
  });
  after(async () => {
    await rm(top, { recursive: true, force: true });
  });

  it("is (clean) in a repository without changes", async () => {
    assert.equal(await gitStatus(repo), CLEAN);
  });

  it("lists the changes of the work tree, porcelain, in a section that references it", async () => {
    await writeFile(join(repo, "notes.txt"), "todo\n");
    await mkdir(join(repo, "src"), { recursive: true });
    await writeFile(join(repo, "src", "a.ts"), "export {};\n");
    const prompt = new SystemPrompt<{ cwd: string }>();
    gitStatusPlugin(prompt.scope("git"), { cwd: (context) => context.cwd });
    prompt.section({
      name: "env:git",
      order: 20,
      text: "Git status at the start of this step:\n{{git.status}}",
    });
    const assembly = await prompt.assemble({ cwd: repo });
    assert.equal(assembly.variables["git.status"], "?? notes.txt\n?? src/");
    assert.equal(
      renderPrompt(assembly),
      "Git status at the start of this step:\n?? notes.txt\n?? src/",
    );
    assert.deepEqual(prompt.registrations().variables, [
      { name: "git.status", owner: "git" },
    ]);
  });

  it("has no value outside a repository", async () => {
    const outside = join(top, "outside");
    await mkdir(outside);
    // The system temp directory is in no repository.
    assert.equal(await gitStatus(outside), undefined);
  });

  it("kills the child process when the assembly's signal aborts, and the assembly rejects with aborted", async () => {
    const { spawn: record, children } = recordingSpawn();
    const prompt = new SystemPrompt();
    gitStatusPlugin(prompt.scope("git"), {
      cwd: () => repo,
      // A status that never comes.
      command: ["sh", "-c", "exec sleep 100000"],
      spawn: record,
    });
    const controller = new AbortController();
    const pending = prompt.assemble({}, { signal: controller.signal });
    // Providers start inside assemble(): the child is running.
    assert.equal(children.length, 1);
    const reason = new Error("the user pressed Esc");
    controller.abort(reason);
    await assert.rejects(pending, (error) => {
      assert.ok(error instanceof PromptError);
      assert.equal(error.code, "aborted");
      assert.equal(error.cause, reason);
      return true;
    });
    assert.deepEqual(await ended(children[0]!), {
      code: null,
      signal: "SIGTERM",
    });
  });

  it("rejects with the signal's reason and kills the child when gitStatus() is aborted", async () => {
    const { spawn: record, children } = recordingSpawn();
    const controller = new AbortController();
    const status = gitStatus(repo, {
      signal: controller.signal,
      command: ["sh", "-c", "exec sleep 100000"],
      spawn: record,
    });
    const reason = new Error("stop");
    controller.abort(reason);
    await assert.rejects(status, (error) => error === reason);
    assert.equal((await ended(children[0]!)).signal, "SIGTERM");
  });

  it("starts no process for an already-aborted signal", async () => {
    const { spawn: record, children } = recordingSpawn();
    const reason = new Error("stop");
    await assert.rejects(
      gitStatus(repo, { signal: AbortSignal.abort(reason), spawn: record }),
      (error) => error === reason,
    );
    const prompt = new SystemPrompt();
    gitStatusPlugin(prompt.scope("git"), { cwd: () => repo, spawn: record });
    await assert.rejects(
      prompt.assemble({}, { signal: AbortSignal.abort(reason) }),
      { code: "aborted" },
    );
    assert.equal(children.length, 0);
  });

  it("reports a command that cannot start as provider-failed naming the variable and the plugin", async () => {
    const prompt = new SystemPrompt();
    gitStatusPlugin(prompt.scope("git"), {
      cwd: () => repo,
      command: ["no-such-command-for-git-status"],
    });
    await assert.rejects(prompt.assemble(), (error) => {
      assert.ok(error instanceof PromptError);
      assert.equal(error.code, "provider-failed");
      assert.equal(error.variable, "git.status");
      assert.equal(error.owner, "git");
      assert.match(error.message, /its provider rejected: .*ENOENT/);
      return true;
    });
  });
});
