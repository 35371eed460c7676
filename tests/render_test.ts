import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type AssembledSection, PromptError, renderPrompt } from "../mod.ts";
import { assemblyOf } from "./support/assembly.ts";

const assembly = assemblyOf;

const render = (
  text: string,
  variables: Record<string, string | undefined> = {},
) => renderPrompt(assembly([text], variables));

function assertPromptError(
  fn: () => unknown,
  expected: Partial<Record<keyof PromptError, unknown>>,
): PromptError {
  let caught: unknown;
  assert.throws(fn, (error) => {
    caught = error;
    return true;
  });
  assert.ok(
    caught instanceof PromptError,
    `expected a PromptError, got ${caught}`,
  );
  for (const [key, value] of Object.entries(expected)) {
    assert.deepEqual(caught[key as keyof PromptError], value, `field ${key}`);
  }
  return caught;
}

describe("renderPrompt()", () => {
  it("substitutes references, with optional spaces and tabs", () => {
    assert.equal(
      render("{{a}} {{ a }} {{\ta\t}} {{git.branch}}", {
        a: "1",
        "git.branch": "main",
      }),
      "1 1 1 main",
    );
  });

  it("trims sections, drops empty ones and joins with one blank line", () => {
    const result = renderPrompt(
      assembly(["  first\n", "", " \n\t ", "{{empty}}", "\nsecond  "], {
        empty: " ",
      }),
    );
    assert.equal(result, "first\n\nsecond");
  });

  it("keeps the section order of the assembly", () => {
    const a = assembly(["one", "two"]);
    a.sections.reverse();
    assert.equal(renderPrompt(a), "two\n\none");
  });

  it("returns an empty string for no sections", () => {
    assert.equal(renderPrompt(assembly([])), "");
  });

  it("passes lone braces and {{{ runs through verbatim", () => {
    assert.equal(render("a {{ b } c }} {"), "a {{ b } c }} {");
    assert.equal(render("{{ x {{y}} }}", { y: "Y" }), "{{ x Y }}");
  });

  it("renders {{{x}}} as { + value + }", () => {
    assert.equal(render("{{{x}}}", { x: "v" }), "{v}");
  });

  it("renders \\{{ as a literal {{", () => {
    assert.equal(
      render("Quote \\{{name}} and ${\\{{ github.sha }}"),
      "Quote {{name}} and ${{{ github.sha }}",
    );
  });

  it("inserts values verbatim and never interpolates them again", () => {
    assert.equal(
      render("{{a}}", { a: "{{b}} \\{{c}}", b: "no" }),
      "{{b}} \\{{c}}",
    );
  });

  it("looks up own properties only", () => {
    for (
      const name of ["toString", "constructor", "__proto__", "hasOwnProperty"]
    ) {
      assertPromptError(
        () => renderPrompt({ ...assembly([`{{${name}}}`]), variables: {} }),
        {
          code: "unknown-variable",
          variable: name,
        },
      );
    }
  });

  it("accepts own values on a plain object", () => {
    const a = assembly(["{{toString}}"]);
    a.variables = { toString: "ok" } as unknown as Record<string, string>;
    assert.equal(renderPrompt(a), "ok");
  });

  it("throws unknown-variable with section, reference, position and suggestion", () => {
    const a = assembly(["persona", "Hello\n  you are {{ modle }}."], {
      model: "m",
    });
    (a.sections[1] as AssembledSection).owner = "agent-loop";
    const error = assertPromptError(() => renderPrompt(a), {
      code: "unknown-variable",
      section: "s1",
      owner: "agent-loop",
      variable: "modle",
      reference: "{{ modle }}",
      line: 2,
      column: 11,
      offset: 16,
      suggestion: "model",
    });
    assert.equal(
      error.message,
      'Cannot render section "s1": {{ modle }} at 2:11 names variable "modle", ' +
        'which is not registered; did you mean "model"?',
    );
  });

  it("suggests nothing when no name is within edit distance 2", () => {
    const error = assertPromptError(() => render("{{abcdef}}", { xyz: "1" }), {
      code: "unknown-variable",
      suggestion: undefined,
    });
    assert.doesNotMatch(error.message, /did you mean/);
  });

  it("throws missing-value for a valueless reference", () => {
    const error = assertPromptError(
      () => render("x {{cwd}}", { cwd: undefined }),
      {
        code: "missing-value",
        variable: "cwd",
        reference: "{{cwd}}",
        line: 1,
        column: 3,
      },
    );
    assert.match(error.message, /has no value in this assembly/);
  });

  it("throws missing-value even in a section that would be empty otherwise", () => {
    assertPromptError(() => render("{{cwd}}", { cwd: undefined }), {
      code: "missing-value",
    });
  });

  it("throws invalid-value for a non-string value a handler set", () => {
    const a = assembly(["{{n}}"]);
    (a.variables as Record<string, unknown>).n = 42;
    assertPromptError(() => renderPrompt(a), {
      code: "invalid-value",
      variable: "n",
    });
  });

  it("throws invalid-section for a non-string section text", () => {
    const a = assembly(["x"]);
    (a.sections[0] as { text: unknown }).text = 7;
    assertPromptError(() => renderPrompt(a), {
      code: "invalid-section",
      section: "s0",
    });
  });

  it("throws malformed-reference naming the section", () => {
    assertPromptError(() => render("a {{ use braces }} b"), {
      code: "malformed-reference",
      section: "s0",
      reference: "{{ use braces }}",
      line: 1,
      column: 3,
    });
  });

  it("counts columns in UTF-16 code units", () => {
    assertPromptError(() => render("😀 {{x}}"), {
      code: "unknown-variable",
      column: 4,
    });
  });

  it("is a pure function of the assembly", () => {
    const a = assembly(["{{a}}"], { a: "1" });
    const before = structuredClone({ ...a, variables: { ...a.variables } });
    assert.equal(renderPrompt(a), renderPrompt(a));
    assert.deepEqual({ ...a, variables: { ...a.variables } }, before);
  });

  it("renders a changed text afresh rather than from a stale cache", () => {
    assert.equal(render("{{a}}!", { a: "1" }), "1!");
    assert.equal(render("{{a}}?", { a: "2" }), "2?");
  });
});
