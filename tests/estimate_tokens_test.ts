import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { encode } from "gpt-tokenizer";
import { estimateTokens } from "../inspect.ts";
import { repoRoot } from "./support/repo_root.ts";

// English prose, TypeScript, JSON schemas, a padded Markdown table, and
// Chinese, Japanese and Korean text: tests/fixtures/tokens/*.txt.
const CORPUS = join(repoRoot(), "tests", "fixtures", "tokens");

describe("estimateTokens()", () => {
  it("is within ±15% of o200k_base (gpt-tokenizer) on every corpus text", () => {
    const files = readdirSync(CORPUS).filter((f) => f.endsWith(".txt")).sort();
    assert.ok(files.length >= 7);
    const errors = files.map((file) => {
      const text = readFileSync(join(CORPUS, file), "utf8");
      const real = encode(text).length;
      return { file, real, error: estimateTokens(text) / real - 1 };
    });
    for (const { file, real, error } of errors) {
      assert.ok(
        Math.abs(error) <= 0.15,
        `${file}: ${real} tokens, estimate off by ${(error * 100).toFixed(1)}%`,
      );
    }
  });

  it("counts nothing for nothing and at least one token for any text", () => {
    assert.equal(estimateTokens(""), 0);
    for (const text of [" ", "\n", "a", "7", "?", "界", "😀", "-->"]) {
      assert.ok(estimateTokens(text) >= 1, JSON.stringify(text));
    }
  });

  it("splits camel case and prices digits in groups of 3", () => {
    assert.equal(estimateTokens("estimate"), 1);
    assert.equal(estimateTokens("estimateTokens"), 2);
    assert.equal(estimateTokens("123456789"), 3);
  });
});
