// checkPrompt() on an assembly that cannot render: it reports every problem
// as a diagnostic instead of rejecting (which problem in a text the renderer
// reports first is in render_test.ts).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SystemPrompt } from "../mod.ts";
import { checkPrompt } from "../inspect.ts";

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

  it("reports a non-string variable value a handler left: the assembly fails with invalid-value", async () => {
    const prompt = new SystemPrompt();
    prompt.variable("n", () => "1");
    prompt.section({ name: "p", order: 0, text: "n is {{n}}" });
    prompt.on("system-prompt/assemble", (assembly) => {
      (assembly.variables as Record<string, unknown>).n = 42;
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.errorCode, d.variable]),
      [["assemble-failed", "invalid-value", "n"]],
    );
  });

  it("reports a non-string section text a handler left: the assembly fails with invalid-section, naming the handler", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("p").section({ name: "p", order: 0, text: "hello" });
    prompt.on("system-prompt/assemble", (assembly) => {
      (assembly.sections[0] as { text: unknown }).text = 42;
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.errorCode, d.section, d.handler]),
      [["assemble-failed", "invalid-section", "p", "#0"]],
    );
  });
});
