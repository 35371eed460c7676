// estimateTokens(): within ±15% of o200k_base (gpt-tokenizer) on the corpus in
// tests/fixtures/tokens and on mixed scripts and emoji; a non-negative
// integer that never throws, adds up across a cut and counts huge texts in
// one pass.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { encode } from "gpt-tokenizer";
import { estimateTokens } from "../inspect.ts";
import { repoRoot } from "./support/repo_root.ts";

// English prose, TypeScript, JSON schemas, a padded Markdown table, and
// Chinese, Japanese and Korean text: tests/fixtures/tokens/*.txt.
const CORPUS = join(repoRoot(), "tests", "fixtures", "tokens");

function errorOf(text: string): { real: number; error: number } {
  const real = encode(text).length; // o200k_base, the package's default
  return { real, error: estimateTokens(text) / real - 1 };
}

// The pricing model written the slow, obvious way: the pre-tokenizer's
// pieces cut by a regex, priced piece by piece, in twentieths of a token.
// The scan must give the same count on every string.
const PIECE =
  /[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+/gu;
const PER_LETTER: [RegExp, number][] = [
  [/\p{sc=Han}/u, 15],
  [/[\p{sc=Hiragana}\p{sc=Katakana}]/u, 16],
  [/\p{sc=Hangul}/u, 14],
  [/\p{L}/u, 10],
];
const emoji = (char: string) =>
  char.length === 2 && !/[\p{L}\p{N}]/u.test(char);

function reference(text: string): number {
  let units = 0;
  for (const [piece] of text.matchAll(PIECE)) {
    const chars = [...piece];
    if (/\p{L}/u.test(piece)) {
      let letters = 0;
      let upperRun = false;
      const endWord = () => {
        if (letters > 0) units += 20 * Math.max(1, Math.floor(letters / 5));
        letters = 0;
      };
      for (const char of chars) {
        if (/\p{L}/u.test(char) && char.codePointAt(0)! < 0x250) {
          const upper = /\p{Lu}/u.test(char);
          if (upper && letters > 0 && !upperRun) endWord();
          upperRun = upper;
          letters++;
        } else {
          endWord();
          if (/\p{L}/u.test(char)) {
            units += PER_LETTER.find(([script]) => script.test(char))![1];
          } else if (emoji(char)) units += 22; // the prefix
        }
      }
      endWord();
    } else if (/^\p{N}/u.test(piece)) units += 20;
    else {
      const marks = [...piece.trim()];
      units += 20 * Math.max(1, Math.ceil(marks.length / 4));
      units += 22 * marks.filter(emoji).length;
    }
  }
  return Math.round(units / 20);
}

// Characters that sit at the edges of the scan's classes.
const EDGES = [
  "a",
  "Ab",
  "HTTPServer",
  "camelCaseWord",
  "abcdefghijklmnopqrstu",
  " ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "\u00a0",
  "\u3000",
  "\u2028",
  "\ufeff",
  ".",
  "..",
  "-->",
  "{",
  '"',
  "1",
  "1234567",
  "²",
  "½",
  "Ⅻ",
  "𝟘",
  "界",
  "中文",
  "㐀",
  "ひらがな",
  "カタカナ",
  "ー",
  "한국어",
  "ᄀ",
  "é",
  "ß",
  "ǅ",
  "Ж",
  "ñ",
  "अ",
  "ि",
  "\u0301",
  "ﬁ",
  "⺀",
  "😀",
  "👍🏽",
  "👨‍👩‍👧",
  "🇫🇷",
  "𠀀",
  "𝐀",
  "\ud800",
  "\udc00",
  "\udbff\udbff",
];
const strings = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.array(fc.constantFrom(...EDGES), { maxLength: 30 }).map((parts) =>
    parts.join("")
  ),
);

describe("estimateTokens()", () => {
  it("is within ±15% of o200k_base (gpt-tokenizer) on every corpus text", () => {
    const files = readdirSync(CORPUS).filter((f) => f.endsWith(".txt")).sort();
    assert.ok(files.length >= 7);
    for (const file of files) {
      const { real, error } = errorOf(readFileSync(join(CORPUS, file), "utf8"));
      assert.ok(
        Math.abs(error) <= 0.15,
        `${file}: ${real} tokens, estimate off by ${(error * 100).toFixed(1)}%`,
      );
    }
  });

  it("is within ±15% of o200k_base on mixed scripts and on emoji in prose", () => {
    for (
      const text of [
        "Run `deno test` 然后检查 exit code。テストが失敗したら、ログを見てください. 로그를 확인하세요 → fix it.",
        "Release 🚀 shipped 🎉; bugs 🐛 fixed 🔧; docs 📝 updated; tests 🧪 green ✅. Ship it 🚀 then rest 😴.",
      ]
    ) {
      const { real, error } = errorOf(text);
      assert.ok(
        Math.abs(error) <= 0.15,
        `${text}: ${real} tokens, off by ${(error * 100).toFixed(1)}%`,
      );
    }
  });

  it("counts nothing for nothing and at least one token for any text", () => {
    assert.equal(estimateTokens(""), 0);
    for (
      const text of [" ", "\n", "a", "7", "?", "界", "😀", "-->", "\ud800"]
    ) {
      assert.ok(estimateTokens(text) >= 1, JSON.stringify(text));
    }
  });

  it("splits camel case and prices digits in groups of 3", () => {
    assert.equal(estimateTokens("estimate"), 1);
    assert.equal(estimateTokens("estimateTokens"), 2);
    assert.equal(estimateTokens("123456789"), 3);
  });

  it("prices an emoji as about 2 tokens, a surrogate pair as one character", () => {
    assert.equal(estimateTokens("🚀"), 2);
    assert.equal(estimateTokens("Ship it 🚀"), 4);
    // A run of marks costs a token per 4 characters (a pair is one), and
    // an emoji 1.1 more.
    assert.equal(estimateTokens("😀😀😀😀"), 5);
    assert.equal(estimateTokens("...."), 1);
    assert.equal(estimateTokens("𠀀𠀀𠀀𠀀"), 3); // astral Han, 0.75 each
  });

  it("takes a lone surrogate for a mark, wherever it stands", () => {
    assert.equal(estimateTokens("\ud800"), 1);
    assert.equal(estimateTokens("\udc00"), 1);
    assert.equal(estimateTokens("a\ud800"), 2);
    assert.equal(estimateTokens("\udc00\ud800"), 1);
    assert.equal(
      estimateTokens("\ud800\ud800\udc00"),
      estimateTokens("\ud800𐀀"),
    );
  });

  it("gives the pricing model's count (a regex reference) on arbitrary strings", () => {
    fc.assert(
      fc.property(strings, (text) => {
        assert.equal(
          estimateTokens(text),
          reference(text),
          JSON.stringify(text),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it("classifies every BMP character as its Unicode properties say", () => {
    for (let code = 0; code < 0x10000; code++) {
      const char = String.fromCharCode(code);
      for (const text of [char, `a${char}b`, ` ${char}界`, char.repeat(5)]) {
        if (estimateTokens(text) !== reference(text)) {
          assert.fail(`U+${code.toString(16)} in ${JSON.stringify(text)}`);
        }
      }
    }
  });

  it("is a non-negative integer, never throws, and adds up across a cut", () => {
    fc.assert(
      fc.property(strings, strings, (a, b) => {
        const whole = estimateTokens(a + b);
        assert.ok(Number.isInteger(whole) && whole >= 0);
        assert.equal(whole === 0, a + b === "");
        // Only the pieces at the cut change: they merge or split.
        const parts = estimateTokens(a) + estimateTokens(b);
        assert.ok(Math.abs(whole - parts) <= 3, `${whole} vs ${parts}`);
      }),
      { numRuns: 3000 },
    );
  });

  it("counts a huge text as the sum of its repeats, in one pass", () => {
    const unit = readFileSync(join(CORPUS, "prose_en.txt"), "utf8") + "\n";
    const times = 500; // about 4.5 million characters
    const once = estimateTokens(unit);
    const huge = estimateTokens(unit.repeat(times));
    assert.ok(Math.abs(huge - once * times) <= times, `${huge} vs ${once}×`);
    assert.equal(estimateTokens("\ud800".repeat(1_000_000)), 250_000);
  });
});
