// fast-check properties of renderPrompt(): it throws only a PromptError with
// a documented code, agrees with the reference renderer of docs/syntax.md on
// the text or the error, and never interpolates a value again.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { PromptError, type PromptErrorCode } from "../../src/core/errors.ts";
import { renderPrompt } from "../../src/render/render.ts";
import { assemblyOf } from "../support/assembly.ts";
import { referenceRender } from "../support/reference_renderer.ts";

const RUNS = { numRuns: 10_000, seed: 20261130 };

const DOCUMENTED_CODES: ReadonlySet<PromptErrorCode> = new Set<PromptErrorCode>(
  [
    "unknown-variable",
    "missing-value",
    "malformed-reference",
    "invalid-value",
    "invalid-section",
  ],
);

// Text pieces biased toward the grammar's edges.
const PIECES = [
  "{",
  "}",
  "{{",
  "}}",
  "{{{",
  "\\",
  "\\{{",
  "{{\\}}",
  " ",
  "\t",
  "\n",
  ".",
  "1",
  "_",
  "a",
  "b",
  "x",
  "é",
  "😀",
  "{{x}}",
  "{{ a }}",
  "{{a.b}}",
  "{{\tb\t}}",
  "{{toString}}",
  "{{__proto__}}",
  "{{missing}}",
  "hello ",
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((
  parts,
) => parts.join(""));
const value = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom("{{x}}", "\\{{a}}", " padded ", "", "}}{{"),
);
const variables = fc.record(
  {
    x: fc.option(value, { nil: undefined }),
    a: fc.option(value, { nil: undefined }),
    b: value,
    "a.b": value,
    toString: value,
  },
  { requiredKeys: ["b"] },
);

describe("renderPrompt() properties", () => {
  it("never throws anything but a PromptError with a documented code", () => {
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 4 }),
        variables,
        (texts, vars) => {
          try {
            assert.equal(
              typeof renderPrompt(assemblyOf(texts, vars)),
              "string",
            );
          } catch (error) {
            assert.ok(error instanceof PromptError, `threw ${error}`);
            assert.ok(DOCUMENTED_CODES.has(error.code), error.code);
          }
        },
      ),
      RUNS,
    );
  });

  it("renders a text without {{ unchanged apart from the trim", () => {
    const plain = fc.string({
      unit: fc.constantFrom("{", "}", "\\", " ", "\n", "a", "é", "😀"),
    })
      .filter((t) => !t.includes("{{"));
    fc.assert(
      fc.property(plain, (t) => {
        assert.equal(renderPrompt(assemblyOf([t], {})), t.trim());
      }),
      RUNS,
    );
  });

  it("agrees with the reference renderer on the text or on the error", () => {
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 4 }),
        variables,
        (texts, vars) => {
          const assembly = assemblyOf(texts, vars);
          const expected = referenceRender(assembly.sections, vars);
          if (expected.ok) {
            assert.equal(renderPrompt(assembly), expected.text);
            return;
          }
          assert.throws(() => renderPrompt(assembly), (error) => {
            assert.ok(error instanceof PromptError);
            assert.deepEqual(
              {
                code: error.code,
                section: error.section,
                offset: error.offset,
              },
              {
                code: expected.code,
                section: expected.section,
                offset: expected.offset,
              },
            );
            return true;
          });
        },
      ),
      RUNS,
    );
  });

  it("never interpolates a value again", () => {
    fc.assert(
      fc.property(text, fc.string({ maxLength: 6 }), (inserted, other) => {
        const rendered = renderPrompt(
          assemblyOf(["<{{a}}>"], { a: inserted, x: other, b: other }),
        );
        assert.equal(rendered, `<${inserted}>`);
      }),
      RUNS,
    );
  });
});
