// Issue #11: errors in text order, and check() that diagnoses instead of
// rejecting.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type PromptAssembly, renderPrompt, SystemPrompt } from "../mod.ts";
import { checkPrompt } from "../inspect.ts";

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

describe("checkPrompt() diagnoses, never rejects", () => {
  it("does not report a variable as unused when the section that uses it has a malformed group", async () => {
    const prompt = new SystemPrompt();
    prompt.variable("model", () => "m-1");
    prompt.section({
      name: "persona",
      order: 0,
      text: "I am {{model}}. Use {{ use braces }} here.",
    });
    const codes = (await checkPrompt(prompt)).map((d) => d.code);
    assert.deepEqual(codes, ["malformed-reference"]);
  });

  it("counts references after a malformed group as used", async () => {
    const prompt = new SystemPrompt();
    prompt.variable("model", () => "m-1");
    prompt.section({ name: "p", order: 0, text: "{{ x y }} {{model}}" });
    const codes = (await checkPrompt(prompt)).map((d) => d.code);
    assert.deepEqual(codes, ["malformed-reference"]);
  });

  it("reports a non-string variable value a handler left as invalid-value", async () => {
    const prompt = new SystemPrompt();
    prompt.variable("n", () => "1");
    prompt.section({ name: "p", order: 0, text: "n is {{n}}" });
    prompt.on("system-prompt/assemble", (assembly) => {
      (assembly.variables as Record<string, unknown>).n = 42;
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.variable]), [[
      "invalid-value",
      "n",
    ]]);
  });

  it("reports a non-string section text a handler left as invalid-section", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("p").section({ name: "p", order: 0, text: "hello" });
    prompt.on("system-prompt/assemble", (assembly) => {
      (assembly.sections[0] as { text: unknown }).text = 42;
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.section, d.owner]), [[
      "invalid-section",
      "p",
      "p",
    ]]);
  });
});
