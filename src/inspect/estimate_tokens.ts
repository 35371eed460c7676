/**
 * The token estimate `explainPrompt` and the adapters' cache plans use.
 *
 * @module
 */

// The pieces a BPE tokenizer's pre-tokenizer cuts text into: a word (with
// the space or punctuation mark before it), up to 3 digits, a run of
// punctuation, a run of whitespace.
const PIECE =
  /[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+/gu;
const LETTER = /\p{L}/u;
const DIGIT = /^\p{N}/u;
const UPPER = /\p{Lu}/u;

// Tokens per character of scripts without spaces between words (Han, kana,
// Hangul), and of other non-Latin letters; measured against o200k_base
// (see the test).
const PER_CHARACTER: readonly (readonly [RegExp, number])[] = [
  [/\p{sc=Han}/u, 0.75],
  [/[\p{sc=Hiragana}\p{sc=Katakana}]/u, 0.8],
  [/\p{sc=Hangul}/u, 0.7],
  [LETTER, 0.5],
];
// A Latin word costs a token per this many letters (rounded down), at least one.
const WORD_LETTERS = 5;
// Characters per token in a run of punctuation.
const PER_MARKS = 4;

/**
 * An estimate of how many tokens `text` costs with a current BPE tokenizer.
 * It cuts the text as such a tokenizer's pre-tokenizer does (words, digit
 * groups, punctuation runs, whitespace runs) and prices each piece: a Latin
 * word one token per 5 letters after its first 5 (camel case splits it), a
 * group of up to 3 digits one, a run of punctuation one per 4 characters, a
 * run of whitespace one, and Chinese, Japanese and Korean characters 0.75,
 * 0.8 and 0.7 each. Measured against `o200k_base` it is within 6% on
 * English prose, TypeScript, JSON schemas, padded Markdown tables and
 * Chinese, Japanese and Korean text (the "4 characters a token" rule it
 * replaces is 2.5× low on Japanese). It is for sizing parts of a prompt and
 * planning cache breakpoints, not for billing: pass a provider's counter
 * where exact figures matter.
 *
 * @param text The text.
 * @returns The estimate, a non-negative integer.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { estimateTokens } from "@dsh/system-prompt/inspect";
 *
 * assert.equal(estimateTokens("Check every exit code."), 5);
 * assert.equal(estimateTokens('{"type":"object"}'), 5);
 * assert.equal(estimateTokens("终端中工作"), 4);
 * assert.equal(estimateTokens(""), 0);
 * ```
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const [piece] of text.matchAll(PIECE)) {
    // A word, up to 3 digits, punctuation (a token per 4 marks), or
    // whitespace (no marks: one token).
    if (LETTER.test(piece)) tokens += wordTokens(piece);
    else if (DIGIT.test(piece)) tokens++;
    else tokens += Math.max(1, Math.ceil([...piece.trim()].length / PER_MARKS));
  }
  return Math.round(tokens);
}

/** A word piece: Latin words by length and case, other letters per character. */
function wordTokens(piece: string): number {
  let tokens = 0;
  let letters = 0; // of the current Latin word
  let upperRun = false;
  const endWord = () => {
    if (letters > 0) tokens += Math.max(1, Math.floor(letters / WORD_LETTERS));
    letters = 0;
  };
  for (const char of piece) {
    if (char.codePointAt(0)! < 0x250 && LETTER.test(char)) {
      const upper = UPPER.test(char);
      // camelCase and HTTPServer split where a capital starts a word.
      if (upper && letters > 0 && !upperRun) endWord();
      upperRun = upper;
      letters++;
    } else {
      endWord();
      tokens += PER_CHARACTER.find(([script]) => script.test(char))?.[1] ?? 0;
    }
  }
  endWord();
  return tokens;
}
