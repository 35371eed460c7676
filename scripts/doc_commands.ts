/**
 * A Markdown page as a reader follows it: its `##` sections, the files its
 * code blocks name (`// main.mjs` on their first line), and the commands of
 * its `sh` blocks, in page order. `scripts/docs_commands_test.ts` runs them.
 *
 * A `sh` block is a list of commands, one a line (`#` comments are
 * ignored), or a transcript: `$ command` lines, each followed by the output
 * it prints. A block marked `sh release` needs the published package: its
 * commands are skipped until the first release.
 *
 * @module
 */

/** One thing a reader does, in page order. */
export type DocStep =
  | { kind: "section"; title: string; line: number }
  | { kind: "file"; name: string; text: string; line: number }
  | {
    kind: "command";
    command: string;
    line: number;
    /** For a transcript line: what it prints (trimmed lines). */
    output?: string;
    /** Set for a command of a `sh release` block. */
    release?: true;
  };

/** Every fenced block of a page: its info string, body and first line. */
export interface FencedBlock {
  info: string;
  body: string;
  /** The 1-based line of the opening fence. */
  line: number;
}

/**
 * The fenced blocks of `markdown` (fences at the start of a line).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fencedBlocks } from "./doc_commands.ts";
 *
 * const fence = "`".repeat(3);
 * assert.deepEqual(fencedBlocks(`x\n${fence}sh release\nls\n${fence}\n`), [
 *   { info: "sh release", body: "ls\n", line: 2 },
 * ]);
 * ```
 */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i]!);
    if (open === null) continue;
    const start = i;
    let body = "";
    for (i++; i < lines.length && lines[i] !== "```"; i++) {
      body += `${lines[i]}\n`;
    }
    blocks.push({ info: open[1]!.trim(), body, line: start + 1 });
  }
  return blocks;
}

/** A file name a reader would save a block as: `main.mjs`, `deno.json`. */
const FILE_NAME = /^\/\/ ([\w.-]+\.[a-z]+)$/;

/**
 * What a reader of `markdown` does, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { docSteps } from "./doc_commands.ts";
 *
 * const fence = "`".repeat(3);
 * const page = [
 *   "## Node", "", `${fence}sh`, "mkdir app && cd app  # a project", fence,
 *   `${fence}js`, "// main.mjs", "console.log(1);", fence,
 *   `${fence}sh`, "$ node main.mjs", "1", fence,
 *   `${fence}sh release`, "npm install x", fence,
 * ].join("\n");
 * assert.deepEqual(docSteps(page), [
 *   { kind: "section", title: "Node", line: 1 },
 *   { kind: "command", command: "mkdir app && cd app  # a project", line: 4 },
 *   { kind: "file", name: "main.mjs", text: "// main.mjs\nconsole.log(1);\n", line: 6 },
 *   { kind: "command", command: "node main.mjs", output: "1", line: 11 },
 *   { kind: "command", command: "npm install x", line: 15, release: true },
 * ]);
 * ```
 */
export function docSteps(markdown: string): DocStep[] {
  const steps: DocStep[] = [];
  const blocks = fencedBlocks(markdown);
  const lines = markdown.split("\n");
  let b = 0;
  for (let i = 0; i < lines.length; i++) {
    const block = blocks[b];
    if (block !== undefined && block.line === i + 1) {
      b++;
      const bodyLines = block.body.split("\n").slice(0, -1);
      i += bodyLines.length + 1;
      const [language, ...marks] = block.info.split(/\s+/);
      if (language === "sh") {
        steps.push(...blockCommands(bodyLines, block.line, marks));
      } else {
        const name = FILE_NAME.exec(bodyLines[0] ?? "")?.[1];
        if (name !== undefined) {
          steps.push({
            kind: "file",
            name,
            text: block.body,
            line: block.line,
          });
        }
      }
      continue;
    }
    const heading = /^## (.+)$/.exec(lines[i]!);
    if (heading !== null) {
      steps.push({ kind: "section", title: heading[1]!, line: i + 1 });
    }
  }
  return steps;
}

function blockCommands(
  lines: readonly string[],
  fence: number,
  marks: readonly string[],
): DocStep[] {
  const release = marks.includes("release");
  const transcript = lines.some((line) => line.startsWith("$ "));
  const steps: DocStep[] = [];
  for (let k = 0; k < lines.length; k++) {
    const text = lines[k]!;
    if (transcript && !text.startsWith("$ ")) continue;
    if (
      !transcript && (text.trim() === "" || text.trimStart().startsWith("#"))
    ) {
      continue;
    }
    const step: DocStep = {
      kind: "command",
      command: transcript ? text.slice(2) : text,
      line: fence + 1 + k,
    };
    if (transcript) {
      const output: string[] = [];
      for (
        let j = k + 1;
        j < lines.length && !lines[j]!.startsWith("$ ");
        j++
      ) {
        output.push(lines[j]!);
      }
      step.output = output.join("\n").trim();
    }
    if (release) step.release = true;
    steps.push(step);
  }
  return steps;
}
