/**
 * The sentences `checkPrompt` compares to find text repeated between a
 * section and a tool description. Covered by tests/sentences_test.ts.
 *
 * @module
 */

/**
 * The sentences of `text` with at least five words (shorter ones are too
 * generic to flag), lower-cased, with whitespace collapsed.
 */
export function sentences(text: string): string[] {
  return text.replace(/\s+/g, " ").trim().split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.toLowerCase())
    .filter((sentence) => sentence.split(" ").length >= 5);
}
