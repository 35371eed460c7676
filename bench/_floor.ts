/**
 * The true floor: what a hand-written renderer that knows every text in
 * advance does. Each text is split once; static edges are trimmed then, and
 * a render trims at run time only the value that sits at an edge (it may
 * begin or end with whitespace), never the section's output: trimming a
 * concatenation flattens it. Only when an edge value is blank does the
 * render trim its output (the next static text is then at the edge).
 * Static texts that are empty after trimming are dropped once. The fast
 * peers get the same edge plan in their own syntax (`_renderers.ts`), so the
 * only difference between them and the floor is how they interpolate.
 *
 * @module
 */

/** A section text split at its references: `[text, name, …, name, text]`. */
export type Parts = string[];

/** One section compiled for the floor: parts with static edges trimmed. */
export interface Piece {
  parts: Parts;
  /** A reference sits at the start: trim the start at run time. */
  trimStart: boolean;
  /** A reference sits at the end: trim the end at run time. */
  trimEnd: boolean;
}

/** What a render looks up: every referenced name has a string value. */
export type Values = Record<string, string | undefined>;

// The reference grammar for texts without escapes or malformed groups,
// which is all the corpora hold (each corpus is checked against ours).
const REFERENCE =
  /\{\{[ \t]*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)[ \t]*\}\}/;

/**
 * Splits `text` at its references. Names are interned (a hand-written
 * renderer would spell them as identifiers), so that looking one up is a
 * hash lookup, not a string-table search first.
 */
export function splitText(text: string): Parts {
  const parts = text.split(REFERENCE);
  for (let k = 1; k < parts.length; k += 2) parts[k] = intern(parts[k]!);
  return parts;
}

function intern(name: string): string {
  return Object.keys({ [name]: 0 })[0]!;
}

/**
 * Trims the static edges of `parts` once. Returns `undefined` for a text
 * that can only ever render empty (static and blank).
 */
export function compilePiece(source: readonly string[]): Piece | undefined {
  const parts = [...source];
  if (parts.length === 1) {
    const text = parts[0]!.trim();
    return text === ""
      ? undefined
      : { parts: [text], trimStart: false, trimEnd: false };
  }
  const first = parts[0]!.trimStart();
  const last = parts[parts.length - 1]!.trimEnd();
  parts[0] = first;
  parts[parts.length - 1] = last;
  return { parts, trimStart: first === "", trimEnd: last === "" };
}

/** Interpolates one piece; `""` when it renders empty. */
export function renderPiece(piece: Piece, values: Values): string {
  const parts = piece.parts;
  const last = parts.length - 2;
  let text = parts[0]!;
  let blankEdge = false;
  for (let k = 1; k < parts.length; k += 2) {
    let value = values[parts[k]!]!;
    if (k === 1 && piece.trimStart) {
      value = value.trimStart();
      if (value === "") blankEdge = true;
    }
    if (k === last && piece.trimEnd) {
      value = value.trimEnd();
      if (value === "") blankEdge = true;
    }
    text += value + parts[k + 1]!;
  }
  if (blankEdge) return text.trim();
  return text;
}

/** The floor's whole render: pieces interpolated and joined. */
export function renderPieces(
  pieces: readonly (Piece | undefined)[],
  values: Values,
): string {
  let prompt = "";
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (piece === undefined) continue;
    const text = renderPiece(piece, values);
    if (text === "") continue;
    prompt = prompt === "" ? text : prompt + "\n\n" + text;
  }
  return prompt;
}

/** Compiles every text for the floor. */
export function compileTexts(texts: readonly string[]): (Piece | undefined)[] {
  return texts.map((text) => compilePiece(splitText(text)));
}
