/**
 * What every compared implementation shares: the byte-identity check run
 * before anything is timed, and how a peer writes a section's edge trims.
 *
 * @module
 */

import type { Piece } from "./_floor.ts";

/**
 * Throws unless `actual` equals `expected`, naming `who` and the first
 * differing offset: every compared implementation is checked this way
 * before anything is timed.
 */
export function assertSame(
  who: string,
  actual: string,
  expected: string,
): void {
  if (actual === expected) return;
  let at = 0;
  while (actual[at] === expected[at]) at++;
  throw new Error(
    `${who} renders differently from ours at offset ${at}: ` +
      `${JSON.stringify(actual.slice(at, at + 40))} vs ${
        JSON.stringify(expected.slice(at, at + 40))
      }`,
  );
}

/** The trim a reference's value gets: at the start, the end, both, none. */
export type EdgeTrim = "" | "trimStart" | "trimEnd" | "trim";

/**
 * Writes a piece in an engine's syntax: `ref(name, trim)` for each
 * reference, `trim` naming the edge its value sits at (see `_floor.ts`).
 */
export function writePiece(
  piece: Piece,
  ref: (name: string, trim: EdgeTrim) => string,
): string {
  const parts = piece.parts;
  const last = parts.length - 2;
  let text = parts[0]!;
  for (let k = 1; k < parts.length; k += 2) {
    const start = k === 1 && piece.trimStart;
    const end = k === last && piece.trimEnd;
    const trim: EdgeTrim = start
      ? (end ? "trim" : "trimStart")
      : end
      ? "trimEnd"
      : "";
    text += ref(parts[k]!, trim) + parts[k + 1]!;
  }
  return text;
}
