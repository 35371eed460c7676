/**
 * Sentences of prose, normalised for comparison.
 *
 * @module
 */

/** Sentences shorter than this many words are too generic to flag. */
export const MIN_SENTENCE_WORDS = 5;

const SENTENCE_END = /(?<=[.!?])\s+/;
const WHITESPACE = /\s+/g;

/**
 * The sentences of `text` with at least {@linkcode MIN_SENTENCE_WORDS}
 * words, lower-cased, with whitespace collapsed.
 */
export function sentences(text: string): string[] {
  return text.replace(WHITESPACE, " ").trim().split(SENTENCE_END)
    .map((sentence) => sentence.toLowerCase())
    .filter((sentence) => sentence.split(" ").length >= MIN_SENTENCE_WORDS);
}
