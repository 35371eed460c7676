/**
 * Counts the code lines of `src/` layers: lines that are neither blank nor
 * comments (`//` lines and `/* … *\/` blocks, JSDoc included). Usage:
 * `deno run --allow-read scripts/count_lines.ts [folder …]` (default: the
 * core, render, registry and inspect layers); prints one line per folder
 * and a total. `tests/structure_test.ts` holds every file of `src/` to
 * 300 code lines with the same count.
 *
 * @module
 */

import { codeLines } from "../tests/support/code_lines.ts";

if (import.meta.main) {
  const folders = Deno.args.length > 0
    ? Deno.args
    : ["src/core", "src/render", "src/registry", "src/inspect"];
  let total = 0;
  let files = 0;
  for (const folder of folders) {
    let lines = 0;
    let count = 0;
    for (const entry of Deno.readDirSync(folder)) {
      if (!entry.isFile || !entry.name.endsWith(".ts")) continue;
      lines += codeLines(Deno.readTextFileSync(`${folder}/${entry.name}`));
      count++;
    }
    console.log(`${folder}: ${count} files, ${lines} code lines`);
    total += lines;
    files += count;
  }
  console.log(`total: ${files} files, ${total} code lines`);
}
