// Issue #11: errors in text order, and check() that diagnoses instead of
// rejecting.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type PromptAssembly, renderPrompt } from "../mod.ts";

function render(text: string, variables: Record<string, string> = {}) {
  return renderPrompt({
    sections: [{ name: "s", order: 0, text }],
    tools: [],
    variables,
  });
}

describe("renderPrompt() reports the first problem in the text", () => {
  it("reports an unknown reference at 1:11 before a malformed group at 1:38", () => {
    const text = "Hello, to {{usr}}, and please, write {{ use braces }}.";
    assert.throws(() => render(text, { user: "Ada" }), {
      code: "unknown-variable",
      line: 1,
      column: 11,
      suggestion: "user",
    });
  });

  it("reports a malformed group before a later unknown reference", () => {
    assert.throws(() => render("{{ a b }} then {{usr}}"), {
      code: "malformed-reference",
      column: 1,
    });
  });

  it("reports a valueless reference before a malformed group", () => {
    assert.throws(
      () =>
        renderPrompt({
          sections: [{ name: "s", order: 0, text: "{{x}} {{}}" }],
          tools: [],
          variables: { x: undefined },
        }),
      { code: "missing-value", column: 1 },
    );
  });

  it("reports the malformed group when the references before it resolve", () => {
    assert.throws(() => render("{{x}} {{}} {{nope}}", { x: "1" }), {
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
