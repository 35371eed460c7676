/**
 * tokens: `estimateTokens` against a real tokenizer, `gpt-tokenizer`'s
 * `o200k_base` `countTokens`, in the configuration its README recommends
 * for speed (the encoding's module imported directly, the default merge
 * cache on, which a text counted again and again hits: the tokenizer's
 * best case). One group per kind of text of `tests/fixtures/tokens`
 * (prose, code, JSON schemas, Chinese + Japanese + Korean, a padded table),
 * each repeated to about {@linkcode TEXT_CHARS} characters so that one call
 * lasts well over the timer's resolution. Before anything is timed, every
 * estimate is checked within ±15% of the tokenizer's count.
 *
 * Run as a script, it also times the two in {@linkcode ROUNDS} interleaved
 * rounds (which goes first alternating) and prints, per group, the median
 * over rounds of ours / theirs, with the lowest and highest round:
 *
 *     deno run --lock=deno.lock bench/tokens_bench.ts
 *
 * @module
 */

import { countTokens } from "npm:gpt-tokenizer@4.0.0/encoding/o200k_base";
import { estimateTokens } from "@dsh/system-prompt/inspect";
import { addBench, ROUNDS } from "./_bench.ts";
// Text imports, so that `deno bench` needs no read permission.
import prose from "../tests/fixtures/tokens/prose_en.txt" with { type: "text" };
import code from "../tests/fixtures/tokens/code_ts.txt" with { type: "text" };
import json from "../tests/fixtures/tokens/json_schemas.txt" with {
  type: "text",
};
import zh from "../tests/fixtures/tokens/cjk_zh.txt" with { type: "text" };
import ja from "../tests/fixtures/tokens/cjk_ja.txt" with { type: "text" };
import ko from "../tests/fixtures/tokens/cjk_ko.txt" with { type: "text" };
import table from "../tests/fixtures/tokens/table_padded.txt" with {
  type: "text",
};

/** About how long each group's text is, in UTF-16 code units. */
const TEXT_CHARS = 64_000;
/** The largest error the estimate may have on a group's text. */
const TOLERANCE = 0.15;

const GROUPS: { group: string; texts: string[] }[] = [
  { group: "prose", texts: [prose] },
  { group: "code", texts: [code] },
  { group: "JSON", texts: [json] },
  { group: "CJK", texts: [zh, ja, ko] },
  { group: "table", texts: [table] },
];

interface Case {
  group: string;
  text: string;
  real: number;
  estimate: number;
}

const cases: Case[] = GROUPS.map(({ group, texts }) => {
  const unit = texts.join("\n");
  const text = unit.repeat(Math.ceil(TEXT_CHARS / unit.length));
  const real = countTokens(text);
  const estimate = estimateTokens(text);
  if (Math.abs(estimate / real - 1) > TOLERANCE) {
    throw new Error(
      `Cannot bench tokens ${group}: the estimate ${estimate} is more than ` +
        `${TOLERANCE * 100}% off the tokenizer's ${real}`,
    );
  }
  return { group, text, real, estimate };
});

let sink = 0;
for (const { group, text } of cases) {
  addBench({
    group: `tokens ${group}`,
    name: "gpt-tokenizer o200k countTokens",
    baseline: true,
    fn: () => void (sink += countTokens(text)),
  });
  addBench({
    group: `tokens ${group}`,
    name: "ours (estimateTokens)",
    fn: () => void (sink += estimateTokens(text)),
  });
}

/** ns per call of `count` over `calls` calls. */
function time(count: (text: string) => number, text: string, calls: number) {
  const start = performance.now();
  for (let i = 0; i < calls; i++) sink += count(text);
  return ((performance.now() - start) * 1e6) / calls;
}

/** The middle of `values` in order ({@linkcode ROUNDS} is odd). */
function middle(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1]!;
}

/** Batches sized to about 20 ms per candidate and round. */
function batch(count: (text: string) => number, text: string): number {
  for (let i = 0; i < 5; i++) time(count, text, 1);
  return Math.max(1, Math.round(20e6 / time(count, text, 3)));
}

if (import.meta.main) {
  console.log(
    "group  chars   o200k  estimate  error   theirs µs  ours µs  ours/theirs median [min, max]",
  );
  for (const { group, text, real, estimate } of cases) {
    const theirsCalls = batch(countTokens, text);
    const oursCalls = batch(estimateTokens, text);
    const ratios: number[] = [];
    const theirs: number[] = [];
    const ours: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let a: number, b: number;
      if (round % 2 === 0) {
        a = time(countTokens, text, theirsCalls);
        b = time(estimateTokens, text, oursCalls);
      } else {
        b = time(estimateTokens, text, oursCalls);
        a = time(countTokens, text, theirsCalls);
      }
      theirs.push(a);
      ours.push(b);
      ratios.push(b / a);
    }
    const sorted = [...ratios].sort((x, y) => x - y);
    console.log(
      [
        group.padEnd(6),
        String(text.length).padEnd(7),
        String(real).padEnd(6),
        String(estimate).padEnd(9),
        `${((estimate / real - 1) * 100).toFixed(1)}%`.padEnd(7),
        (middle(theirs) / 1e3).toFixed(0).padStart(9),
        (middle(ours) / 1e3).toFixed(0).padStart(8),
        ` ${middle(ratios).toFixed(3)} [${sorted[0]!.toFixed(3)}, ${
          sorted.at(-1)!.toFixed(3)
        }]`,
      ].join(" "),
    );
  }
  if (sink === 0) console.log("(nothing counted)");
}
