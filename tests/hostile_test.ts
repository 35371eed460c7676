// Hostile sizes and names: 1 MB texts of braces, backslashes and references
// rendered as the grammar says, __proto__ and friends as ordinary variable
// names, 10,000 sections and variables, and the parse cache within its bound
// over 100,000 distinct texts.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderPrompt, SystemPrompt } from "../mod.ts";
import { assemblyOf } from "./support/assembly.ts";
import { TEMPLATES } from "../src/render/_template.ts";

const MB = 1 << 20;
const fill = (unit: string) =>
  unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
const one = (text: string, variables: Record<string, string> = {}) =>
  assemblyOf([text], variables);

describe("renderPrompt() on hostile input", () => {
  for (const unit of ["{", "}", "{{ x", "{{ }", "{{ a } b"]) {
    it(`renders 1 MB of ${JSON.stringify(unit)} verbatim`, () => {
      const text = fill(unit);
      assert.equal(renderPrompt(one(text)), text.trim());
    });
  }

  it("renders 1 MB of \\{{ as literal {{", () => {
    const text = fill("\\{{");
    assert.equal(renderPrompt(one(text)), text.replaceAll("\\{{", "{{"));
  });

  it("renders one group left open for 1 MB verbatim", () => {
    const text = "{{ " + fill("x");
    assert.equal(renderPrompt(one(text)), text);
  });

  it("throws malformed-reference at 1:2 for 1 MB of {{{}}}", () => {
    assert.throws(() => renderPrompt(one(fill("{{{}}}"))), {
      code: "malformed-reference",
      reference: "{{}}",
      line: 1,
      column: 2,
    });
  });

  it("renders 1 MB of references", () => {
    const text = fill("{{x}} ");
    assert.equal(
      renderPrompt(one(text, { x: "y" })),
      text.replaceAll("{{x}}", "y").trim(),
    );
  });
});

describe("SystemPrompt with hostile names and sizes", () => {
  it("registers and renders __proto__, constructor and toString as ordinary variables", async () => {
    const prompt = new SystemPrompt();
    for (
      const name of ["__proto__", "constructor", "toString", "hasOwnProperty"]
    ) {
      prompt.variable(name, () => `<${name}>`);
    }
    prompt.section({
      name: "s",
      order: 0,
      text: "{{__proto__}} {{constructor}} {{toString}} {{hasOwnProperty}}",
    });
    const assembly = await prompt.assemble();
    assert.equal(
      renderPrompt(assembly),
      "<__proto__> <constructor> <toString> <hasOwnProperty>",
    );
    assert.equal(Object.getPrototypeOf(assembly.variables), null);
    assert.deepEqual(Object.keys(assembly.variables), [
      "__proto__",
      "constructor",
      "toString",
      "hasOwnProperty",
    ]);
  });

  it("assembles and renders 10,000 sections and 10,000 variables", async () => {
    const prompt = new SystemPrompt();
    for (let i = 0; i < 10_000; i++) {
      prompt.variable(`v${i}`, () => String(i));
      prompt.section({ name: `s${i}`, order: 10_000 - i, text: `{{v${i}}}` });
    }
    const assembly = await prompt.assemble();
    assert.equal(assembly.sections.length, 10_000);
    assert.equal(Object.keys(assembly.variables).length, 10_000);
    const rendered = renderPrompt(assembly).split("\n\n");
    assert.equal(rendered.length, 10_000);
    assert.equal(rendered[0], "9999");
    assert.equal(rendered[9_999], "0");
  });
});

describe("the parsed-text cache", () => {
  it("never passes its bound while 100,000 distinct texts are rendered", () => {
    renderMany(TEMPLATES);
  });
});

function renderMany(cache: typeof TEMPLATES): void {
  const bound = cache.maxSize;
  for (let i = 0; i < 100_000; i++) {
    assert.equal(
      renderPrompt(one(`step ${i}: {{x}}`, { x: "x" })),
      `step ${i}: x`,
    );
    if (cache.size > cache.maxSize) {
      assert.fail(
        `cache holds ${cache.size} > ${cache.maxSize} after ${i + 1} texts`,
      );
    }
  }
  assert.ok(cache.size > 0);
  assert.equal(cache.maxSize, bound); // never read again: no growth
}
