/**
 * String order by Unicode code point.
 *
 * @module
 */

/**
 * Compares by code point, unlike `<`, which compares UTF-16 code units and
 * so puts astral characters (stored as surrogates, 0xD800–0xDFFF) before
 * U+E000–U+FFFF. Negative, zero or positive, as `sort` expects.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Only a surrogate against a unit at or above U+E000 disagrees with
    // code-unit order: the surrogate starts a code point above U+FFFF.
    if (isSurrogate(x) && y >= 0xe000) return 1;
    if (isSurrogate(y) && x >= 0xe000) return -1;
    return x - y;
  }
  return a.length - b.length;
}

function isSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdfff;
}
