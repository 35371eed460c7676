// Every shell command of README.md and docs/*.md, run as a reader would run
// it, on a clean checkout (scripts/clean_copy.ts): in page order, each `##`
// section starting in the page's home directory, `cd` carrying over, the
// files the page's code blocks name written where the reader stands, and a
// transcript's output (`$ command` and the lines after it) compared.
//
// A page whose first command is `git clone` starts in an empty directory
// and the clone is the clean checkout (the URL must be deno.json's
// repository); any other page starts at the root of the clean checkout.
// Skipped, with the reason in the test name: `sh release` blocks (they
// install the published package, which exists from the first release), the
// README's test command (it runs this test; the last test checks that
// .ci/run calls it), and `bun` commands where Bun is not installed (the
// consumer test runs the same files with Bun from npm).
//
// The other code blocks are run elsewhere; the "every code block" test
// below fails for a block that no test runs. A Deno-only test (it runs
// npm, npx and Deno), kept out of tests/ so the suite there keeps its
// narrow permissions and runs on Node.js too.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join } from "node:path";
import process from "node:process";
import { cleanCopy, REPO } from "./clean_copy.ts";
import { type DocStep, docSteps, fencedBlocks } from "./doc_commands.ts";

const TEST_COMMAND = "npx --yes deno@2.9.6 task test";
const PAGES = [
  "README.md",
  ...readdirSync(join(REPO, "docs")).filter((name) => name.endsWith(".md"))
    .sort().map((name) => `docs/${name}`),
];
const { repository } = JSON.parse(
  readFileSync(join(REPO, "deno.json"), "utf8"),
) as { repository: string };
/** Files the commands after them read without naming them. */
const CONFIG_FILES = new Set(["deno.json", "package.json", "tsconfig.json"]);
const HAS_BUN = spawnSync("bash", ["-c", "command -v bun"]).status === 0;
const ENV = {
  ...process.env,
  // The reader's `deno` is the Deno running this test.
  PATH: `${dirname(Deno.execPath())}${delimiter}${process.env.PATH}`,
  NO_COLOR: "1",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};

/** The command without a trailing `# comment`. */
function bare(command: string): string {
  return command.replace(/\s+#.*$/, "").trim();
}

/** Why a command is not run here, or `undefined` to run it. */
function skipReason(step: DocStep & { kind: "command" }): string | undefined {
  if (step.release) {
    return "installs the published package: runs from the first release on";
  }
  if (bare(step.command) === TEST_COMMAND) {
    return "the test task, which runs this test (.ci/run runs it)";
  }
  if (!HAS_BUN && /^bun\s/.test(bare(step.command))) {
    return "Bun is not installed here; the consumer test runs these files with Bun from npm";
  }
  return undefined;
}

/** A reader's shell: where they stand, and where each section starts. */
interface Session {
  home: string;
  cwd: string;
}

let scratch: string;
let checkout: string;

/** Runs one command in `session`, `cd` included; returns what it printed. */
async function runCommand(session: Session, command: string): Promise<{
  code: number | null;
  output: string;
}> {
  const clone = /^git clone (\S+)(?: (\S+))?$/.exec(bare(command));
  if (clone !== null) {
    const [, url, into] = clone;
    assert.ok(
      url === repository || url === `${repository}.git`,
      `the docs clone ${url}; deno.json's repository is ${repository}`,
    );
    await cleanCopy(join(session.cwd, into ?? basename(url!, ".git")));
    return { code: 0, output: "" };
  }
  const state = join(scratch, "cwd");
  const result = spawnSync(
    "bash",
    ["-c", `set -euo pipefail\nexec 2>&1\n${command}\npwd > '${state}'`],
    { cwd: session.cwd, env: ENV, encoding: "utf8" },
  );
  if (result.status === 0) session.cwd = (await readFile(state, "utf8")).trim();
  return { code: result.status, output: result.stdout };
}

/** The page's commands, each with the steps a reader takes before it. */
function commandGroups(steps: readonly DocStep[]) {
  const groups: {
    before: DocStep[];
    step: DocStep & { kind: "command" };
  }[] = [];
  let pending: DocStep[] = [];
  for (const step of steps) {
    if (step.kind === "command") {
      groups.push({ before: pending, step });
      pending = [];
    } else pending.push(step);
  }
  return groups;
}

describe("README.md and docs/ commands on a clean checkout", () => {
  before(async () => {
    scratch = await mkdtemp(join(tmpdir(), "docs-commands-"));
    checkout = join(scratch, "checkout");
    await cleanCopy(checkout);
  });

  after(async () => {
    if (scratch !== undefined && process.env.KEEP_DOCS_SCRATCH !== "1") {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  for (const page of PAGES) {
    const steps = docSteps(readFileSync(join(REPO, page), "utf8"));
    const groups = commandGroups(steps);
    if (groups.length === 0) continue;
    const clonesFirst = groups[0]!.step.command.startsWith("git clone ");
    let session: Session | undefined;

    describe(page, () => {
      for (const { before: steps, step } of groups) {
        const reason = skipReason(step);
        const title = `${page}:${step.line} ${step.command}`;
        if (reason !== undefined) {
          it(`${title} (skipped: ${reason})`, { skip: true }, () => {});
          continue;
        }
        it(title, async () => {
          if (session === undefined) {
            const home = clonesFirst
              ? join(scratch, basename(page, ".md"))
              : checkout;
            await mkdir(home, { recursive: true });
            session = { home, cwd: home };
          }
          const reader = session;
          for (const earlier of steps) {
            if (earlier.kind === "section") reader.cwd = reader.home;
            if (earlier.kind === "file") {
              await writeFile(join(reader.cwd, earlier.name), earlier.text);
            }
          }
          const { code, output } = await runCommand(reader, step.command);
          if (step.output === undefined) {
            assert.equal(code, 0, `exit code ${code}:\n${output}`);
          } else {
            // What the reader sees, less Deno's "Task …" echo of a task.
            const shown = output.split("\n").filter((line) =>
              !line.startsWith("Task ")
            ).join("\n").trim();
            assert.equal(shown, step.output);
          }
        });
      }
    });
  }

  it(`the README's test command is "${TEST_COMMAND}", which .ci/run runs`, () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const quickStart = readme.slice(readme.indexOf("## Quick start"));
    const commands = docSteps(quickStart).filter((step) =>
      step.kind === "command"
    ).map((step) => bare((step as { command: string }).command));
    assert.ok(commands.includes(TEST_COMMAND), `Quick start: ${commands}`);
    assert.ok(commands.includes("npx --yes deno@2.9.6 task demo"));
    const ci = readFileSync(join(REPO, ".ci/run"), "utf8");
    assert.match(
      ci,
      new RegExp(`^${TEST_COMMAND.replaceAll(".", "\\.")}\\b`, "m"),
    );
    const { tasks } = JSON.parse(readFileSync(join(REPO, "deno.json"), "utf8"));
    assert.equal(typeof tasks.test, "string");
    assert.equal(typeof tasks.demo, "string");
  });

  it("every code block of README.md and docs/ is run by a test", () => {
    const runner = readFileSync(join(REPO, "scripts/test.ts"), "utf8");
    const consumer = readFileSync(
      join(REPO, "scripts/test_consumer.ts"),
      "utf8",
    );
    // `deno task test` doc-tests README.md and docs/ (deno test --doc).
    assert.match(runner, /"--doc",[\s\S]*"README\.md",\s*"docs\/",/);
    const unrun: string[] = [];
    for (const page of PAGES) {
      const text = readFileSync(join(REPO, page), "utf8");
      // A file this test writes where the reader stands, and a later
      // command uses (by name, or as the directory's config file).
      const steps = docSteps(text);
      const used = new Set(
        steps.flatMap((step, i) =>
          step.kind === "file" &&
            (CONFIG_FILES.has(step.name) ||
              steps.slice(i).some((later) =>
                later.kind === "command" && !later.release &&
                later.command.includes(step.name)
              ))
            ? [step.line]
            : []
        ),
      );
      for (const block of fencedBlocks(text)) {
        const [language, ...marks] = block.info.split(/\s+/);
        const docTested = ["ts", "js", "tsx", "jsx"].includes(language!) &&
          !marks.includes("ignore");
        const first = block.body.split("\n")[0]!;
        const consumed = first.startsWith("// ") &&
          consumer.includes(JSON.stringify(first));
        if (
          language === "sh" || docTested || consumed || used.has(block.line)
        ) {
          continue;
        }
        unrun.push(`${page}:${block.line} \`\`\`${block.info} ${first}`);
      }
    }
    assert.deepEqual(unrun, []);
  });

  it("README.md and docs/ cite only documents the repository holds, and sections by name", () => {
    // A document named in the prose (code spans and blocks aside: a
    // harness's own AGENTS.md is an example, not a citation) is a file of
    // the repository; a section is cited by its heading, never by number.
    const citing: string[] = [];
    for (const page of PAGES) {
      const prose = readFileSync(join(REPO, page), "utf8")
        .replace(/```[\s\S]*?```/g, "")
        .replace(/`[^`\n]*`/g, "")
        .replace(/https?:\/\/\S+/g, "");
      for (const [name] of prose.matchAll(/(?<![\w./-])[\w./-]+\.md\b/g)) {
        const near = join(REPO, dirname(page), name);
        if (!existsSync(near) && !existsSync(join(REPO, name))) {
          citing.push(`${page}: ${name}`);
        }
      }
      for (const [number] of prose.matchAll(/§\s*\d+(?:\.\d+)*/g)) {
        citing.push(`${page}: ${number}`);
      }
    }
    assert.deepEqual(citing, []);
  });
});
