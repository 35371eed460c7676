// renderPrompt keeps each text's parse (and the text that came next) from
// one render to the next. A render over texts it saw before must never
// carry anything wrong over: not when a getter or a proxy throws partway,
// not when a getter renders again, not when the values changed.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PromptError } from "../src/core/errors.ts";
import type { PromptAssembly } from "../src/core/types.ts";
import { templateCache } from "../src/render/_template.ts";
import { renderAssembly } from "../src/render/_walk.ts";
import { renderPrompt } from "../src/render/render.ts";

/** The text, or the error's code, section and item. */
export function outcome(render: () => string): string {
  try {
    return `ok ${JSON.stringify(render())}`;
  } catch (error) {
    if (!(error instanceof PromptError)) return `threw ${String(error)}`;
    return `${error.code} ${error.section} ${error.item}`;
  }
}

/** `assembly` rendered from scratch: a fresh parse cache. */
export function fromScratch(assembly: PromptAssembly): string {
  return outcome(() => {
    return renderAssembly(assembly, {
      kind: "section",
      cache: templateCache(),
    });
  });
}

const one = (text: string, variables: object): PromptAssembly => ({
  sections: [{ name: "s", order: 0, text }],
  tools: [],
  variables: variables as Record<string, string>,
});

describe("renderPrompt() over texts it rendered before", () => {
  it("leaves no trace of a render whose getter threw partway", () => {
    const r = (v: object) => renderPrompt(one("A={{a}} B={{b}}", v));
    assert.equal(r({ a: "1", b: "2" }), "A=1 B=2");
    assert.equal(r({ a: "1", b: "2" }), "A=1 B=2");
    assert.throws(() =>
      r({
        a: "X",
        get b(): string {
          throw new Error("no b");
        },
      }), /no b/);
    assert.equal(r({ a: "X", b: "2" }), "A=X B=2");
    assert.equal(r({ a: "1", b: "2" }), "A=1 B=2");
  });

  it("leaves no trace of a render whose proxy trap threw partway", () => {
    const r = (v: object) => renderPrompt(one("{{a}}/{{b}}/{{c}}", v));
    for (let i = 0; i < 3; i++) {
      assert.equal(r({ a: "1", b: "2", c: "3" }), "1/2/3");
    }
    const trap = new Proxy({ a: "X", b: "2", c: "3" }, {
      getOwnPropertyDescriptor(target, name) {
        if (name === "c") throw new Error("trap");
        return Reflect.getOwnPropertyDescriptor(target, name);
      },
    });
    assert.throws(() => r(trap), /trap/);
    assert.equal(r({ a: "X", b: "2", c: "3" }), "X/2/3");
  });

  it("returns the same text when nothing changed, and renders a changed value", () => {
    const a: PromptAssembly = {
      sections: [
        { name: "a", order: 0, text: "  I am {{model}}.  " },
        { name: "b", order: 1, text: "Check exit codes." },
      ],
      tools: [],
      variables: Object.assign(Object.create(null), { model: "m-1" }),
    };
    const first = renderPrompt(a);
    const again = renderPrompt({
      ...a,
      sections: a.sections.map((s) => ({ ...s })),
    });
    assert.equal(again, "I am m-1.\n\nCheck exit codes.");
    assert.equal(again, first);
    a.variables.model = "m-2";
    assert.equal(renderPrompt(a), "I am m-2.\n\nCheck exit codes.");
  });

  it("checks every value again when it reuses a render", () => {
    const a: PromptAssembly = {
      sections: [{ name: "a", order: 0, text: "I am {{model}}." }],
      tools: [],
      variables: Object.assign(Object.create(null), { model: "m-1" }),
    };
    for (let i = 0; i < 3; i++) renderPrompt(a);
    a.variables.model = undefined;
    assert.throws(() => renderPrompt(a), { code: "missing-value" });
    delete a.variables.model;
    assert.throws(() => renderPrompt(a), { code: "unknown-variable" });
    // A prototype's value is not an own value, remembered or not.
    const inherited = { ...a, variables: Object.create({ model: "m-1" }) };
    assert.throws(() => renderPrompt(inherited), { code: "unknown-variable" });
    // Nor is a proxy's answer for a name it does not own.
    const liar = new Proxy(Object.create(null), { get: () => "m-1" });
    assert.throws(() => renderPrompt({ ...a, variables: liar }), {
      code: "unknown-variable",
    });
  });

  it("renders a getter's second answer checked, never unchecked", () => {
    let reads = 0;
    const variables = Object.create(null);
    Object.defineProperty(variables, "v", {
      enumerable: true,
      get: () => (++reads === 2 ? 42 : `v${reads}`),
    });
    const outcomes = [1, 2, 3].map(() =>
      outcome(() => renderPrompt(one("{{v}}", variables)))
    );
    assert.deepEqual(outcomes, [
      'ok "v1"',
      "invalid-value s undefined",
      'ok "v3"',
    ]);
  });
});

describe("renderPrompt() re-entered from a value's getter", () => {
  const TEXT = "{{a}} and {{b}}";

  function reentrant(answer: string): {
    outer: PromptAssembly;
    reenter: () => void;
  } {
    const inner: PromptAssembly = one(
      TEXT,
      Object.assign(Object.create(null), { a: "P", b: "Q" }),
    );
    let armed = false;
    const variables = Object.create(null);
    variables.a = "A1";
    Object.defineProperty(variables, "b", {
      enumerable: true,
      get() {
        if (armed) {
          armed = false;
          assert.equal(renderPrompt(inner), "P and Q");
        }
        return answer;
      },
    });
    return { outer: one(TEXT, variables), reenter: () => armed = true };
  }

  it("keeps the values read before the nested render", () => {
    const { outer, reenter } = reentrant("B1");
    assert.equal(renderPrompt(outer), "A1 and B1");
    assert.equal(renderPrompt(outer), "A1 and B1");
    reenter();
    assert.equal(renderPrompt(outer), "A1 and B1");
    assert.equal(renderPrompt(outer), "A1 and B1");
    assert.equal(renderPrompt(outer), "A1 and B1");
  });

  it("never returns the nested render's result", () => {
    const { outer, reenter } = reentrant("Q");
    for (let i = 0; i < 3; i++) assert.equal(renderPrompt(outer), "A1 and Q");
    reenter();
    assert.equal(renderPrompt(outer), "A1 and Q");
    assert.equal(renderPrompt(outer), "A1 and Q");
  });

  it("renders the inner assembly right after it was rendered from inside the outer one", () => {
    const { outer, reenter } = reentrant("B1");
    for (let i = 0; i < 3; i++) renderPrompt(outer);
    reenter();
    renderPrompt(outer);
    const inner = one(TEXT, { a: "P", b: "Q" });
    assert.equal(renderPrompt(inner), "P and Q");
    assert.equal(fromScratch(inner), 'ok "P and Q"');
  });
});
