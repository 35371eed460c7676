// escapeTemplate(): text nobody on the team wrote renders as written in any
// template (properties over arbitrary strings), escaping each {{ and a final
// backslash and nothing else.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { renderPrompt } from "../src/render/render.ts";
import { escapeTemplate } from "../src/render/escape_template.ts";

const RUNS = { numRuns: 10_000, seed: 20261201 };

/** What a trim: false section whose text is `text` renders. */
const rendered = (text: string, variables: Record<string, string> = {}) =>
  renderPrompt({
    sections: [{ name: "s", order: 0, text, trim: false }],
    tools: [],
    variables,
  });

// Units biased toward the grammar: braces, backslashes, whitespace, lone
// and paired surrogates.
const UNIT = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("{", "}", "\\", "{{", "}}", "\\{{") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(" ", "\n", "\t", "a", "x", ".", "_"),
  },
  { weight: 1, arbitrary: fc.constantFrom("😀", "\uD83D", "\uDE00", "é") },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 3 }) },
);
const untrusted = fc.array(UNIT, { maxLength: 40 }).map((units) =>
  units.join("")
);

describe("escapeTemplate()", () => {
  it("round-trips every string through a trim: false section (property)", () => {
    fc.assert(
      fc.property(untrusted, (x) => {
        assert.equal(rendered(escapeTemplate(x)), x);
      }),
      RUNS,
    );
  });

  it("round-trips arbitrary full-Unicode and UTF-16 strings (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "binary" }),
          fc.string({ unit: "grapheme-composite" }),
        ),
        (x) => assert.equal(rendered(escapeTemplate(x)), x),
      ),
      RUNS,
    );
  });

  it("keeps escaped text verbatim inside a template with references (property)", () => {
    fc.assert(
      fc.property(untrusted, (x) => {
        const text = "From {{cwd}}:\n" + escapeTemplate(x) + "\n-- {{cwd}}";
        assert.equal(rendered(text, { cwd: "/r" }), `From /r:\n${x}\n-- /r`);
      }),
      RUNS,
    );
  });

  it("escapes each {{, scanning left to right, and nothing else but a final backslash", () => {
    assert.equal(escapeTemplate("plain } { \\ text"), "plain } { \\ text");
    assert.equal(escapeTemplate("{{x}}"), "\\{{x}}");
    assert.equal(escapeTemplate("{{{"), "\\{{{");
    assert.equal(escapeTemplate("{{{{"), "\\{{\\{{");
    assert.equal(escapeTemplate("\\{{"), "\\\\{{");
    assert.equal(escapeTemplate("C:\\"), "C:{{\\}}");
    assert.equal(escapeTemplate("a\\\\"), "a{{\\}}{{\\}}");
    assert.equal(escapeTemplate("\\"), "{{\\}}");
    // A `\{` before the final backslash would pair with the group's brace.
    assert.equal(escapeTemplate("\\{\\"), "{{\\}}{{{\\}}");
    assert.equal(rendered(escapeTemplate("\\{\\{\\")), "\\{\\{\\");
  });

  it("keeps a final backslash before a reference that follows", () => {
    assert.equal(
      rendered(escapeTemplate("C:\\") + "{{v}}", { v: "file.txt" }),
      "C:\\file.txt",
    );
    assert.equal(
      rendered(
        escapeTemplate("C:\\Users\\") + "{{v}}\\" + escapeTemplate("x\\"),
        {
          v: "me",
        },
      ),
      "C:\\Users\\me\\x\\",
    );
    assert.equal(rendered(escapeTemplate("a\\") + "\\{{v}}"), "a\\{{v}}");
  });

  it("keeps escaped text verbatim between any template texts that do not open a group at the join (property)", () => {
    // Template text: words, references, escapes, braces and backslashes.
    const piece = fc.constantFrom(
      "a",
      " ",
      "\n",
      "\\",
      "{",
      "}",
      "}}",
      "\\{{",
      "{{\\}}",
      "{{cwd}}",
      "{{ cwd }}",
      "😀",
    );
    const template = fc.array(piece, { maxLength: 6 }).map((p) => p.join(""));
    const variables = { cwd: "/r" };
    const renders = (text: string) => {
      try {
        return rendered(text, variables);
      } catch {
        return undefined;
      }
    };
    // What the join rule asks of the template text around escaped text:
    // before it, no final `{` or `\` and no `{{` left open; after it, no
    // single `{` first.
    const before = template.filter((t) =>
      !t.endsWith("{") && !t.endsWith("\\") && renders(t) !== undefined &&
      renders(t + "}}") === renders(t)! + "}}"
    );
    const after = template.filter((t) =>
      !(t.startsWith("{") && !t.startsWith("{{")) && renders(t) !== undefined
    );
    fc.assert(
      fc.property(before, untrusted, after, (l, x, r) => {
        assert.equal(
          rendered(l + escapeTemplate(x) + r, variables),
          renders(l)! + x + renders(r)!,
        );
      }),
      RUNS,
    );
  });

  it("makes ${{ secrets.X }} and {{cwd}} render as written instead of throwing or substituting", () => {
    const file = "Use ${{ secrets.DEPLOY_TOKEN }} and {{cwd}}; see \\{{x}}.";
    assert.throws(() => rendered(file, { cwd: "/r" }), {
      code: "unknown-variable",
    });
    assert.equal(rendered("{{cwd}}", { cwd: "/r" }), "/r");
    assert.equal(
      rendered(escapeTemplate(file), {
        cwd: "/r",
        "secrets.DEPLOY_TOKEN": "t",
      }),
      file,
    );
  });

  it("throws TypeError for a non-string", () => {
    assert.throws(() => escapeTemplate(1 as never), TypeError);
  });
});
