// renderPrompt() by the rules of docs/syntax.md: references substituted
// from own values only, sections trimmed and joined, the first problem in a
// text reported with its place, and what a handler or host may hand it
// (nulls, proxies, owners) rejected with a PromptError.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PromptError } from "../src/core/errors.ts";
import type { AssembledSection, PromptAssembly } from "../src/core/types.ts";
import { renderPrompt } from "../src/render/render.ts";
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
      'Cannot render section "s1" of "agent-loop": {{ modle }} at 2:11 names variable "modle", ' +
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

  it("throws invalid-section for a list layout that is an array, as the field table does", () => {
    const a = assembly(["x"]);
    Object.assign(a.sections[0]!, { list: [], items: [] });
    assertPromptError(() => renderPrompt(a), {
      code: "invalid-section",
      section: "s0",
      message:
        'Cannot render section "s0" of the root registry: its list is an array, not an object',
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

  it("renders {{\\}} as a backslash, so one can stand right before a reference", () => {
    assert.equal(render("C:{{\\}}{{v}}", { v: "x" }), "C:\\x");
    assert.equal(render("{{\\}}{{\\}}", {}), "\\\\");
    // Escaped, or with spaces, it is what it was: literal, or malformed.
    assert.equal(render("\\{{\\}}"), "{{\\}}");
    assertPromptError(() => render("{{ \\ }}"), {
      code: "malformed-reference",
    });
  });
});

describe("renderPrompt() reports the first problem in the text", () => {
  const one = (text: string, variables: Record<string, unknown> = {}) =>
    renderPrompt({
      sections: [{ name: "s", order: 0, text }],
      tools: [],
      variables: variables as Record<string, string>,
    });

  it("reports an unknown reference at 1:11 before a malformed group at 1:38", () => {
    const text = "Hello, to {{usr}}, and please, write {{ use braces }}.";
    assert.throws(() => one(text, { user: "Ada" }), {
      code: "unknown-variable",
      line: 1,
      column: 11,
      suggestion: "user",
    });
  });

  it("reports a malformed group before a later unknown reference", () => {
    assert.throws(() => one("{{ a b }} then {{usr}}"), {
      code: "malformed-reference",
      column: 1,
    });
  });

  it("reports a valueless reference before a malformed group", () => {
    assert.throws(() => one("{{x}} {{}}", { x: undefined }), {
      code: "missing-value",
      column: 1,
    });
  });

  it("reports the malformed group when the references before it resolve", () => {
    assert.throws(() => one("{{x}} {{}} {{nope}}", { x: "1" }), {
      code: "malformed-reference",
      column: 7,
      section: "s",
    });
  });

  it("names each section that shares a malformed text", () => {
    const assembly: PromptAssembly = {
      sections: [{ name: "first", order: 0, text: "ok" }, {
        name: "second",
        order: 1,
        text: "same {{ }}",
      }],
      tools: [],
      variables: {},
    };
    for (const name of ["second", "third"]) {
      assembly.sections[1]!.name = name;
      assert.throws(() => renderPrompt(assembly), { section: name });
    }
  });
});

describe("renderPrompt() on what a handler or a host may hand it", () => {
  it("names the owner of a malformed reference, as of every other reference error", () => {
    const a = assembly(["{{ use braces }}"]);
    a.sections[0]!.owner = "persona-plugin";
    const error = assertPromptError(() => renderPrompt(a), {
      code: "malformed-reference",
      section: "s0",
      owner: "persona-plugin",
    });
    assert.match(
      error.message,
      /^Cannot render section "s0" of "persona-plugin": /,
    );
  });

  it("throws invalid-section, not a TypeError, for a null section", () => {
    const a = assembly(["a"]);
    a.sections.push(null as never);
    const error = assertPromptError(() => renderPrompt(a), {
      code: "invalid-section",
      section: "#1",
    });
    assert.equal(
      error.message,
      'Cannot render section "#1": its entry is null, not an object',
    );
  });

  it("throws invalid-section for a section named 42, an empty name, a bad order or stability", () => {
    for (
      const [field, value] of [
        ["name", 42],
        ["name", ""],
        ["order", NaN],
        ["order", "1"],
        ["stability", "sometimes"],
        ["complete", "yes"],
      ] as const
    ) {
      const a = assembly(["a"]);
      (a.sections[0] as unknown as Record<string, unknown>)[field] = value;
      const error = assertPromptError(() => renderPrompt(a), {
        code: "invalid-section",
      });
      assert.match(error.message, new RegExp(`its ${field} is `), field);
    }
  });

  it("throws invalid-value for an assembly whose sections, variables or separator are of the wrong kind", () => {
    for (
      const bad of [
        { sections: null },
        { sections: {} },
        { variables: null },
        { variables: "x" },
        { separator: 1 },
      ]
    ) {
      const a = { ...assembly(["a"]), ...bad } as unknown as PromptAssembly;
      const error = assertPromptError(() => renderPrompt(a), {
        code: "invalid-value",
      });
      assert.match(error.message, /^Cannot render the prompt: /);
    }
    assertPromptError(() => renderPrompt(null as never), {
      code: "invalid-value",
    });
  });

  it("reads only own properties of a Proxy that answers every name", () => {
    const variables = new Proxy(Object.create(null), {
      get: (_target, name) =>
        typeof name === "string" ? `<${name}>` : undefined,
    });
    const a = { ...assembly(["I am {{model}}."]), variables };
    assertPromptError(() => renderPrompt(a), {
      code: "unknown-variable",
      variable: "model",
    });
    // A Proxy whose names are its own renders them.
    const target = Object.assign(Object.create(null), { model: "m-1" });
    const own = new Proxy(target, {});
    assert.equal(renderPrompt({ ...a, variables: own }), "I am m-1.");
  });

  it("gives a throwing getter's error as invalid-value naming the section, with it as cause, and renders the next assembly right", () => {
    const a = assembly(["{{a}}"], {});
    const cause = new RangeError("not now");
    Object.defineProperty(a.variables, "a", {
      enumerable: true,
      get() {
        throw cause;
      },
    });
    assert.throws(() => renderPrompt(a), {
      name: "PromptError",
      code: "invalid-value",
      section: a.sections[0]!.name,
      cause,
      message: `Cannot render section "${
        a.sections[0]!.name
      }": reading it threw: not now`,
    });
    assert.equal(renderPrompt(assembly(["{{a}}"], { a: "1" })), "1");
  });
});
