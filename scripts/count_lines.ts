/**
 * Counts the code lines of `src/` layers: lines that are neither blank nor
 * comments (`//` lines and `/* … *\/` blocks, JSDoc included). Usage:
 * `deno run --allow-read scripts/count_lines.ts [folder …]` (default: the
 * core, render, registry and inspect layers); prints one line per folder
 * and a total.
 *
 * @module
 */

/** The code lines of one TypeScript source. */
export function codeLines(source: string): number {
  let count = 0;
  let inBlock = false;
  for (const raw of source.split("\n")) {
    let line = raw.trim();
    if (inBlock) {
      const end = line.indexOf("*/");
      if (end === -1) continue;
      inBlock = false;
      line = line.slice(end + 2).trim();
    }
    if (line.startsWith("/*")) {
      if (!line.includes("*/")) inBlock = true;
      continue;
    }
    if (line === "" || line.startsWith("//")) continue;
    count++;
  }
  return count;
}

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
