/**
 * The prompts rendered last, with the pieces they were joined from: a step
 * whose pieces are all the same as one of them (nothing changed) gets that
 * prompt back, the same string, instead of a new one built piece by piece.
 *
 * @module
 */

import { renderMemoEnabled } from "./_render_text.ts";

/** How many recent prompts are kept: a few agents sharing a registry. */
const RECENT = 4;

interface Recent {
  readonly pieces: readonly string[];
  readonly prompt: string;
}

/** Newest first. */
const recent: Recent[] = [];

/**
 * `pieces[0..count)` joined: a recent prompt with exactly these pieces, or
 * a new one, then remembered. Pieces are compared with `===`, which for the
 * unchanged sections of a step is a pointer comparison: the renderer hands
 * back the same string for the same text and values.
 */
export function joinPieces(pieces: readonly string[], count: number): string {
  if (!renderMemoEnabled()) return join(pieces, count);
  for (let r = 0; r < recent.length; r++) {
    const candidate = recent[r]!;
    if (samePieces(candidate.pieces, pieces, count)) {
      if (r > 0) {
        recent.splice(r, 1);
        recent.unshift(candidate);
      }
      return candidate.prompt;
    }
  }
  const prompt = join(pieces, count);
  recent.unshift({ pieces: pieces.slice(0, count), prompt });
  if (recent.length > RECENT) recent.pop();
  return prompt;
}

function samePieces(
  known: readonly string[],
  pieces: readonly string[],
  count: number,
): boolean {
  if (known.length !== count) return false;
  // From the end: a step's changes are usually in its volatile, late sections.
  for (let k = count - 1; k >= 0; k--) {
    if (known[k] !== pieces[k]) return false;
  }
  return true;
}

function join(pieces: readonly string[], count: number): string {
  let prompt = "";
  for (let k = 0; k < count; k++) prompt += pieces[k]!;
  return prompt;
}
