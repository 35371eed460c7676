/**
 * The token estimate `explainPrompt` and the adapters' cache plans use.
 *
 * @module
 */

// What a character is to the pre-tokenizer of a BPE tokenizer. A letter is
// LOWER or above; the letters above UPPER are priced per character.
const DIGIT = 1; // \p{N}
const SPACE = 2; // \s but U+0020, \r and \n
const SP = 3; // U+0020, which a run of marks takes as its own
const NEWLINE = 4; // \r, \n: never a word's prefix
const MARK = 5; // anything else: punctuation, symbols, lone surrogates
const EMOJI = 6; // an astral mark: emoji, mostly, which cost ~2 tokens each
const LOWER = 7; // a Latin letter (below U+0250) but a capital
const UPPER = 8; // a Latin capital
const HAN = 9;
const KANA = 10;
const HANGUL = 11;
const LETTER = 12; // any other letter
const CLASSES = 16;
// Added to an astral character's class: it is 2 code units long.
const ASTRAL = 16;

// The estimate is counted in twentieths of a token, so that the prices
// per character add exactly.
const UNIT = 20;
// Twentieths of a token per character of scripts without spaces between
// words (Han 0.75, kana 0.8, Hangul 0.7) and of other non-Latin letters
// (0.5); measured against o200k_base (see the test). Indexed by class.
const PER_CHARACTER = [0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 16, 14, 10];
// What an emoji costs on top of being a mark: a run of marks costs a token
// per 4, and an emoji alone or after a space about 2 (o200k_base).
const PER_EMOJI = 22;
// A Latin word costs a token per this many letters (rounded down), at least one.
const WORD_LETTERS = 5;
// Characters per token in a run of punctuation.
const PER_MARKS = 4;
// Digits per token: the pre-tokenizer cuts numbers into groups of 3.
const DIGIT_GROUP = 3;

// The class of every UTF-16 code unit, 0 until first seen (then classified
// once, by the Unicode properties the scan stands for); high surrogates stay
// 0, since their class is the pair's. ASCII and the big CJK blocks are
// filled here, where the ranges are certain (the test checks every one).
const CLASS = new Uint8Array(0x10000);
for (let code = 0; code < 0x80; code++) {
  CLASS[code] = code >= 0x30 && code <= 0x39
    ? DIGIT
    : code >= 0x61 && code <= 0x7a
    ? LOWER
    : code >= 0x41 && code <= 0x5a
    ? UPPER
    : code === 0x20
    ? SP
    : code === 0x0a || code === 0x0d
    ? NEWLINE
    : code >= 0x09 && code <= 0x0c
    ? SPACE
    : MARK;
}
CLASS.fill(HAN, 0x4e00, 0xa000);
CLASS.fill(HAN, 0x3400, 0x4dc0);
CLASS.fill(KANA, 0x3041, 0x3097);
CLASS.fill(KANA, 0x30a1, 0x30fb);
CLASS.fill(HANGUL, 0xac00, 0xd7a4);
CLASS.fill(MARK, 0xdc00, 0xe000); // a low surrogate alone
// Astral characters by code point, classified once each (they are rare).
const ASTRAL_CLASS = new Map<number, number>();
const ASTRAL_BOUND = 4096;

/** The class of a character from its Unicode properties (once per character). */
function classify(char: string): number {
  if (/\p{L}/u.test(char)) {
    if (char.codePointAt(0)! < 0x250) {
      return /\p{Lu}/u.test(char) ? UPPER : LOWER;
    }
    if (/\p{sc=Han}/u.test(char)) return HAN;
    if (/[\p{sc=Hiragana}\p{sc=Katakana}]/u.test(char)) return KANA;
    return /\p{sc=Hangul}/u.test(char) ? HANGUL : LETTER;
  }
  if (/\p{N}/u.test(char)) return DIGIT;
  return /\s/u.test(char) ? SPACE : MARK;
}

/**
 * The class of the character at `i` (< length), plus ASTRAL if it is a
 * pair, when the table does not know it yet.
 */
function classAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 0xd800 || code > 0xdbff) {
    return CLASS[code] = classify(String.fromCharCode(code));
  }
  const low = text.charCodeAt(i + 1); // NaN past the end
  if (!(low >= 0xdc00 && low <= 0xdfff)) return MARK; // a high surrogate alone
  const point = (code - 0xd800) * 0x400 + low - 0xdc00 + 0x10000;
  let found = ASTRAL_CLASS.get(point);
  if (found === undefined) {
    found = classify(String.fromCodePoint(point));
    if (found === MARK) found = EMOJI;
    if (ASTRAL_CLASS.size < ASTRAL_BOUND) ASTRAL_CLASS.set(point, found);
  }
  return found + ASTRAL;
}

// The scan is a machine over classes whose states say what piece the
// pre-tokenizer is in (and, for runs priced by length, how long it is):
// every character moves it and adds the price of what that character
// settles. A word's Latin letters count to 14 and then cycle through 10–14
// (the word costs 1 token up to 9 letters, then one more per 5).
const WORD = 0; // in a word after a non-Latin letter, or at the start
const DIGITS = 1; // 1, 2, 3 digits into a group: 1–3
const LONE_MARK = 4; // one mark, no space before it: a word's, if one follows
const MARKS = 5; // 1, 2, 3, 4 (mod 4) marks into a run: 5–8
const BREAKS = 9; // the line breaks after marks, which are theirs
const LONE_SPACE = 10; // one \s (not a line break): a word's, if one follows
const LONE_SP = 11; // one U+0020: a word's or the marks' after it
const BLANK = 12; // a run of whitespace, priced
const LATIN = 13; // + 2 × (letters − 1) + (1 if the last was a capital)
const LATIN_MAX = 14;
const STATES = LATIN + 2 * LATIN_MAX;

/** The next state and the price (in twentieths) of `cls` in `state`. */
function move(state: number, cls: number): [number, number] {
  if (cls === EMOJI) {
    const [next, price] = move(state, MARK);
    return [next, price + PER_EMOJI];
  }
  let price = 0;
  // A lone space is priced when it turns out not to be a prefix.
  if (state === LONE_SPACE || state === LONE_SP) {
    if (!(cls >= LOWER || (state === LONE_SP && cls === MARK))) price += UNIT;
  }
  // A lone mark before a letter is the word's: it was priced, give it back.
  if (state === LONE_MARK && cls >= LOWER) price -= UNIT;
  const blank = state >= LONE_SPACE && state <= BLANK;
  const marks = state >= LONE_MARK && state < BREAKS;
  if (cls === SPACE || cls === SP) {
    if (blank) return [BLANK, price];
    return [cls === SP ? LONE_SP : LONE_SPACE, price];
  }
  if (cls === NEWLINE) {
    if (marks || state === BREAKS) return [BREAKS, price];
    return [BLANK, blank ? price : price + UNIT];
  }
  if (cls === MARK) {
    if (marks) {
      const count = state === LONE_MARK ? 1 : state - MARKS + 1; // 1–4 mod 4
      const next = MARKS + count % PER_MARKS;
      return [next, next === MARKS ? price + UNIT : price];
    }
    return [state === LONE_SP ? MARKS : LONE_MARK, price + UNIT];
  }
  if (cls === DIGIT) {
    if (state >= DIGITS && state < DIGITS + DIGIT_GROUP) {
      const next = DIGITS + (state - DIGITS + 1) % DIGIT_GROUP;
      return [next, next === DIGITS ? price + UNIT : price];
    }
    return [DIGITS, price + UNIT];
  }
  if (cls === LOWER || cls === UPPER) {
    const capital = cls === UPPER ? 1 : 0;
    if (state >= LATIN) {
      const letters = ((state - LATIN) >> 1) + 1;
      const afterCapital = (state - LATIN) & 1;
      // camelCase and HTTPServer split where a capital starts a word.
      if (!(capital && !afterCapital)) {
        const next = letters === LATIN_MAX ? 2 * WORD_LETTERS : letters + 1;
        const more = next % WORD_LETTERS === 0 && next >= 2 * WORD_LETTERS;
        return [LATIN + 2 * (next - 1) + capital, more ? price + UNIT : price];
      }
    }
    return [LATIN + capital, price + UNIT];
  }
  return [WORD, price + PER_CHARACTER[cls]!];
}

// TRANSITIONS[state × CLASSES + class]: the next state × CLASSES, plus the
// price << 12.
const TRANSITIONS = new Int32Array(STATES * CLASSES);
// The price of ending in a state: a lone space is its own token.
const END = new Int32Array(STATES * CLASSES);
for (let state = 0; state < STATES; state++) {
  for (let cls = 1; cls <= LETTER; cls++) {
    const [next, price] = move(state, cls);
    TRANSITIONS[state * CLASSES + cls] = next * CLASSES + price * 4096;
  }
  END[state * CLASSES] = state === LONE_SPACE || state === LONE_SP ? UNIT : 0;
}

/**
 * An estimate of how many tokens `text` costs with a current BPE tokenizer.
 * It cuts the text as such a tokenizer's pre-tokenizer does (words, digit
 * groups, punctuation runs, whitespace runs) and prices each piece: a Latin
 * word one token per 5 letters after its first 5 (camel case splits it), a
 * group of up to 3 digits one, a run of punctuation one per 4 characters
 * (an emoji 1.1 more), a run of whitespace one, and Chinese, Japanese and
 * Korean characters 0.75, 0.8 and 0.7 each. Measured against `o200k_base`
 * (`gpt-tokenizer`) it is within 6% on English prose (−5.7%), TypeScript
 * (−4.4%), JSON schemas (0.0%), padded Markdown tables (−3.2%) and Chinese,
 * Japanese and Korean text (+0.7%, +0.4%, +3.5%); the "4 characters a
 * token" rule it replaces is 2.5× low on Japanese. It is less close on
 * other text (in short samples: about 2× high on Russian, 1.4× on Arabic,
 * 0.7× on German, 0.5× on base64). It is one pass over the text's
 * character codes, with no regex and no allocation per character: 14–48×
 * faster than that tokenizer's `countTokens` on the same texts, and linear
 * in their length. It is for sizing parts of a prompt and planning cache
 * breakpoints, not for billing: pass a provider's counter where exact
 * figures matter.
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
  let units = 0;
  let state = WORD * CLASSES;
  for (let i = 0; i < text.length; i++) {
    let cls = CLASS[text.charCodeAt(i)]!;
    if (cls === 0) {
      cls = classAt(text, i);
      if (cls >= ASTRAL) {
        cls -= ASTRAL;
        i++;
      }
    }
    const entry = TRANSITIONS[state + cls]!;
    units += entry >> 12;
    state = entry & 0xfff;
  }
  return Math.round((units + END[state]!) / UNIT);
}
