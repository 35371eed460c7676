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
 * `pieces` joined: a recent prompt with exactly these pieces, or a new one,
 * then remembered with `pieces` (which the caller must not change again).
 * Pieces are compared with `===`, which for the unchanged sections of a
 * step is a pointer comparison: the renderer hands back the same string for
 * the same text and values.
 */
export function joinPieces(pieces: readonly string[]): string {
  if (!renderMemoEnabled()) return join(pieces);
  for (let r = 0; r < recent.length; r++) {
    const candidate = recent[r]!;
    if (samePieces(candidate.pieces, pieces)) {
      if (r > 0) {
        recent.splice(r, 1);
        recent.unshift(candidate);
      }
      return candidate.prompt;
    }
  }
  const prompt = join(pieces);
  recent.unshift({ pieces, prompt });
  if (recent.length > RECENT) recent.pop();
  return prompt;
}

function samePieces(
  known: readonly string[],
  pieces: readonly string[],
): boolean {
  if (known.length !== pieces.length) return false;
  // From the end: a step's changes are usually in its volatile, late sections.
  for (let k = pieces.length - 1; k >= 0; k--) {
    if (known[k] !== pieces[k]) return false;
  }
  return true;
}

function join(pieces: readonly string[]): string {
  let prompt = "";
  for (let k = 0; k < pieces.length; k++) prompt += pieces[k]!;
  return prompt;
}
