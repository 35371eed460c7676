/**
 * The code lines of a TypeScript source: lines that are neither blank nor
 * comments (`//` lines and `/* … *\/` blocks, JSDoc included). What the
 * structure test bounds per file and `scripts/count_lines.ts` prints.
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
