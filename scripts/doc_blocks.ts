/**
 * The code blocks of a Markdown file that name a file in their first line
 * (`// main.cjs`): docs/install.md's examples, which the consumer test
 * writes out and runs exactly as a reader would copy them.
 *
 * @module
 */

/**
 * Blocks by their first line, e.g. `"// main.cjs"`, each with that line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { docBlocks } from "./doc_blocks.ts";
 *
 * const fence = "`".repeat(3);
 * const markdown = `${fence}js\n// a.mjs\nrun();\n${fence}\n\n${fence}sh\nls\n${fence}\n`;
 * const blocks = docBlocks(markdown);
 * assert.deepEqual([...blocks], [["// a.mjs", "// a.mjs\nrun();\n"]]);
 * ```
 */
export function docBlocks(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (
    const match of markdown.matchAll(
      /^```[^\n]*\n(\/\/ [^\n]+)\n([\s\S]*?)^```$/gm,
    )
  ) {
    blocks.set(match[1]!, `${match[1]}\n${match[2]}`);
  }
  return blocks;
}

/** The block named `firstLine`; throws when the docs lost it. */
export function docBlock(
  blocks: Map<string, string>,
  firstLine: string,
): string {
  const block = blocks.get(firstLine);
  if (block === undefined) {
    throw new Error(
      `docs/install.md has no code block starting "${firstLine}"`,
    );
  }
  return block;
}
