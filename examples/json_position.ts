/**
 * Where `JSON.parse` failed, as a line and column: V8 names the offset for
 * most errors (Node.js 20 without the line), for an unexpected token only
 * the token, and for a truncated text nothing.
 *
 * @module
 */

/** A 1-based line and column. */
export interface TextPosition {
  line: number;
  column: number;
}

/** The position `JSON.parse(text)` failed at, from its error message. */
export function jsonErrorPosition(text: string, message: string): TextPosition {
  const offset = /at position (\d+)/.exec(message);
  if (offset) return positionAt(text, Number(offset[1]));
  const token = /^Unexpected token '(.)'/u.exec(message);
  if (token) return positionAt(text, unexpectedTokenOffset(text, token[1]!));
  return positionAt(text, text.length);
}

/** The parser's reason without the position V8 appends. */
export function jsonErrorReason(message: string): string {
  return message
    .replace(/ in JSON at position \d+( \(line \d+ column \d+\))?$/, "")
    .replace(/^(Unexpected token '.'), .* is not valid JSON$/su, "$1");
}

function positionAt(text: string, offset: number): TextPosition {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return {
    line: before.split("\n").length,
    column: offset - lineStart + 1,
  };
}

// The first `token` outside a string and outside true/false/null.
function unexpectedTokenOffset(text: string, token: string): number {
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === "\\") i++;
      }
    } else if (char === token) {
      const literal = ["true", "false", "null"].find((word) =>
        text.startsWith(word, i)
      );
      if (literal === undefined) return i;
      i += literal.length - 1;
    }
  }
  return text.length;
}
