/**
 * How `deno task test` reads its stages' output: the counts each kind of
 * run prints (`deno test`, `node --test`, the consumer test), and the part
 * of a failing stage's output worth showing.
 *
 * @module
 */

/** Tests passed, failed and skipped in one stage. */
export interface Counts {
  passed: number;
  failed: number;
  /** Tests the stage skipped (`deno test`'s "ignored"). */
  skipped?: number;
}

const DENO_SUMMARY =
  /^(?:ok|FAILED) \| (\d+) passed(?: \((\d+) steps?\))? \| (\d+) failed(?: \((\d+) steps?\))?(?: \| (\d+) ignored(?: \((\d+) steps?\))?)?/gm;

/**
 * The counts of `deno test` output, summed over its summary lines; tests
 * and their steps both count (a `describe` is a test, each `it` a step),
 * and so do ignored ones. `undefined` when it printed no summary.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { denoTestCounts } from "./test_summary.ts";
 *
 * assert.deepEqual(
 *   denoTestCounts("ok | 197 passed (505 steps) | 0 failed (17s)\n"),
 *   { passed: 702, failed: 0 },
 * );
 * assert.deepEqual(
 *   denoTestCounts("FAILED | 0 passed (12 steps) | 1 failed (2 steps) (43ms)\n"),
 *   { passed: 12, failed: 3 },
 * );
 * assert.deepEqual(
 *   denoTestCounts("ok | 1 passed (30 steps) | 0 failed | 0 ignored (9 steps) (29s)\n"),
 *   { passed: 31, failed: 0, skipped: 9 },
 * );
 * assert.equal(denoTestCounts("error: Type checking failed."), undefined);
 * ```
 */
export function denoTestCounts(output: string): Counts | undefined {
  let found: Counts | undefined;
  for (
    const [, tests, steps, failed, failedSteps, ignored, ignoredSteps] of output
      .matchAll(DENO_SUMMARY)
  ) {
    found ??= { passed: 0, failed: 0 };
    found.passed += Number(tests) + Number(steps ?? 0);
    found.failed += Number(failed) + Number(failedSteps ?? 0);
    const skipped = Number(ignored ?? 0) + Number(ignoredSteps ?? 0);
    if (skipped > 0) found.skipped = (found.skipped ?? 0) + skipped;
  }
  return found;
}

/**
 * The counts of `node --test` output (its `ℹ pass` and `ℹ fail` lines).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nodeTestCounts } from "./test_summary.ts";
 *
 * assert.deepEqual(nodeTestCounts("ℹ tests 505\nℹ pass 504\nℹ fail 1\n"), {
 *   passed: 504,
 *   failed: 1,
 * });
 * ```
 */
export function nodeTestCounts(output: string): Counts | undefined {
  const pass = /^ℹ pass (\d+)$/m.exec(output);
  const fail = /^ℹ fail (\d+)$/m.exec(output);
  if (pass === null || fail === null) return undefined;
  return { passed: Number(pass[1]), failed: Number(fail[1]) };
}

/**
 * The counts of the consumer test's closing `consumer: N passed, M failed`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { consumerCounts } from "./test_summary.ts";
 *
 * assert.deepEqual(consumerCounts("ok   x\nconsumer: 17 passed, 0 failed\n"), {
 *   passed: 17,
 *   failed: 0,
 * });
 * ```
 */
export function consumerCounts(output: string): Counts | undefined {
  const match = /^consumer: (\d+) passed, (\d+) failed$/m.exec(output);
  return match === null
    ? undefined
    : { passed: Number(match[1]), failed: Number(match[2]) };
}

/**
 * The part of a failing stage's output that says what failed: a `deno
 * test` run's ERRORS section, a `node --test` run's failing tests, the
 * consumer test's FAIL lines; else the last `max` lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failureExcerpt } from "./test_summary.ts";
 *
 * const output = "a ... ok\nb ... FAILED\n\n ERRORS \n\nb => x.ts:1\nerror: boom\n";
 * assert.equal(failureExcerpt(output), "ERRORS \n\nb => x.ts:1\nerror: boom");
 * assert.equal(failureExcerpt("ok   a\nFAIL b\n     why\nconsumer: 1 passed, 1 failed\n"),
 *   "FAIL b\n     why\nconsumer: 1 passed, 1 failed");
 * assert.equal(failureExcerpt("1\n2\n3\n", 2), "2\n3");
 * ```
 */
export function failureExcerpt(output: string, max = 60): string {
  const text = output.trimEnd();
  const errors = text.indexOf("\n ERRORS \n");
  if (errors !== -1) return text.slice(errors + 2);
  const failing = text.indexOf("✖ failing tests:");
  if (failing !== -1) return text.slice(failing);
  const lines = text.split("\n");
  const fails = lines.filter((line, i) =>
    line.startsWith("FAIL ") ||
    (line.startsWith("     ") && lines[i - 1] !== undefined &&
      (lines[i - 1]!.startsWith("FAIL ") ||
        lines[i - 1]!.startsWith("     "))) ||
    /^consumer: \d+ passed/.test(line) || line.startsWith("kept ")
  );
  if (fails.some((line) => line.startsWith("FAIL "))) return fails.join("\n");
  return lines.slice(-max).join("\n");
}
