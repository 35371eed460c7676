// examples/plugins/agents_md.ts on a temporary directory tree. Needs
// --allow-write (the tree) and --allow-env (the system's temp directory).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PromptError, renderPrompt, SystemPrompt } from "@dsh/system-prompt";
import {
  agentsMdPlugin,
  findInstructionFiles,
  repositoryChain,
} from "../../examples/plugins/agents_md.ts";

describe("examples/plugins/agents_md.ts: AGENTS.md files from the working directory up to the repository root", () => {
  let top: string; // outside any repository
  let repo: string;
  let app: string;
  let src: string;

  before(async () => {
    top = await mkdtemp(join(tmpdir(), "agents-md-"));
    repo = join(top, "repo");
    app = join(repo, "packages", "app");
    src = join(app, "src");
    await mkdir(join(repo, ".git"), { recursive: true });
    await mkdir(src, { recursive: true });
    await writeFile(join(top, "AGENTS.md"), "Outside the repository.\n");
    await writeFile(
      join(repo, "AGENTS.md"),
      "# Repository\nUse tabs. Templates look like {{name}} or {{ a b }}.\n",
    );
    await mkdir(join(repo, "packages"), { recursive: true });
    await writeFile(join(repo, "packages", "AGENTS.md"), "  \n");
    await writeFile(
      join(app, "AGENTS.md"),
      "Run `npm test` in packages/app.\n",
    );
  });
  after(async () => {
    await rm(top, { recursive: true, force: true });
  });

  const assembleFor = async (cwd: string) => {
    const prompt = new SystemPrompt<{ cwd: string }>();
    agentsMdPlugin(prompt.scope("agents-md"), {
      cwd: (context) => context.cwd,
    });
    return await prompt.assemble({ cwd });
  };

  it("finds the directories from the repository root down to the working directory", async () => {
    assert.deepEqual(await repositoryChain(src), [
      repo,
      join(repo, "packages"),
      app,
      src,
    ]);
  });

  it("makes one literal item per file, named by its path from the root, the root's first, owned by the plugin's scope", async () => {
    const assembly = await assembleFor(src);
    const section = assembly.sections[0]!;
    assert.equal(section.owner, "agents-md");
    assert.deepEqual(
      section.items!.map((item) => [
        item.name,
        item.order,
        item.literal,
        item.owner,
      ]),
      [
        ["AGENTS.md", 0, true, "agents-md"],
        ["packages/app/AGENTS.md", 1, true, "agents-md"],
      ],
    );
  });

  it("renders the files verbatim: a {{ in them is text, the empty one and the one outside the repository are left out", async () => {
    assert.equal(
      renderPrompt(await assembleFor(src)),
      [
        "Instructions from AGENTS.md files, the repository root's first:",
        "From AGENTS.md:\n# Repository\nUse tabs. Templates look like {{name}} or {{ a b }}.",
        "From packages/app/AGENTS.md:\nRun `npm test` in packages/app.",
      ].join("\n\n"),
    );
  });

  it("reads the files again at every assembly", async () => {
    const prompt = new SystemPrompt();
    agentsMdPlugin(prompt.scope("agents-md"), { cwd: () => app });
    const first = renderPrompt(await prompt.assemble());
    await writeFile(join(app, "AGENTS.md"), "Run `deno task test`.\n");
    try {
      const second = renderPrompt(await prompt.assemble());
      assert.notEqual(second, first);
      assert.match(
        second,
        /From packages\/app\/AGENTS.md:\nRun `deno task test`.$/,
      );
    } finally {
      await writeFile(
        join(app, "AGENTS.md"),
        "Run `npm test` in packages/app.\n",
      );
    }
  });

  it("stops at a .git file (a worktree or a submodule) as at a .git directory", async () => {
    const worktree = join(top, "worktree");
    await mkdir(join(worktree, "sub"), { recursive: true });
    await writeFile(join(worktree, ".git"), "gitdir: /elsewhere\n");
    await writeFile(join(worktree, "AGENTS.md"), "Worktree rules.\n");
    const files = await findInstructionFiles(join(worktree, "sub"));
    assert.deepEqual(files.map((file) => [file.name, file.text]), [
      ["AGENTS.md", "Worktree rules.\n"],
    ]);
  });

  it("reads the working directory's file alone outside a repository", async () => {
    const files = await findInstructionFiles(top);
    assert.deepEqual(files.map((file) => file.name), ["AGENTS.md"]);
    assert.deepEqual(await repositoryChain(top), [top]);
  });

  it("drops the section when no file applies", async () => {
    const empty = join(top, "empty");
    await mkdir(empty, { recursive: true });
    assert.equal(renderPrompt(await assembleFor(empty)), "");
  });

  it("stops reading when the signal aborts: the search rejects with its reason, the assembly with aborted", async () => {
    const reason = new Error("stop");
    await assert.rejects(
      findInstructionFiles(src, { signal: AbortSignal.abort(reason) }),
      (error) => error === reason,
    );
    const prompt = new SystemPrompt();
    agentsMdPlugin(prompt.scope("agents-md"), { cwd: () => src });
    const controller = new AbortController();
    const pending = prompt.assemble({}, { signal: controller.signal });
    controller.abort(reason);
    await assert.rejects(pending, (error) => {
      assert.ok(error instanceof PromptError);
      assert.equal(error.code, "aborted");
      assert.equal(error.cause, reason);
      return true;
    });
  });

  it("skips a directory named AGENTS.md", async () => {
    const odd = join(top, "odd");
    await mkdir(join(odd, ".git"), { recursive: true });
    await mkdir(join(odd, "AGENTS.md"), { recursive: true });
    assert.deepEqual(await findInstructionFiles(odd), []);
  });

  it("reports a file it cannot read as provider-failed naming the list and the plugin", async () => {
    const broken = join(top, "broken");
    await mkdir(join(broken, ".git"), { recursive: true });
    await writeFile(join(broken, "plain"), "x");
    const prompt = new SystemPrompt();
    // "plain/AGENTS.md" goes through a file: reading it fails with ENOTDIR.
    agentsMdPlugin(prompt.scope("agents-md"), {
      cwd: () => broken,
      fileName: "plain/AGENTS.md",
    });
    await assert.rejects(prompt.assemble(), (error) => {
      assert.ok(error instanceof PromptError);
      assert.equal(error.code, "provider-failed");
      assert.equal(error.section, "agents-md");
      assert.equal(error.owner, "agents-md");
      assert.match(error.message, /its item provider rejected: .*ENOTDIR/);
      return true;
    });
  });
});
