// renderPrompt reuses what did not change (a template's last render, the
// last prompts): over random sequences of steps, with several agents'
// values interleaved and texts that come back, it renders exactly what a
// render from scratch (reuse off, a fresh parse cache) renders.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { type PromptAssembly, PromptError, renderPrompt } from "../mod.ts";
import { BoundedCache } from "../src/render/_bounded_cache.ts";
import { useRenderMemo } from "../src/render/_render_text.ts";
import { useTemplateCache } from "../src/render/_template.ts";
import { assembly } from "./support/layout_arbitrary.ts";

const RUNS = { numRuns: 2_000, seed: 20261130 };

/** The text, or the error's code, section and item. */
function outcome(render: () => string): string {
  try {
    return `ok ${JSON.stringify(render())}`;
  } catch (error) {
    assert.ok(error instanceof PromptError, String(error));
    return `${error.code} ${error.section} ${error.item}`;
  }
}

function fromScratch(a: PromptAssembly): string {
  const memo = useRenderMemo(false);
  const cache = useTemplateCache(new BoundedCache());
  try {
    return outcome(() => renderPrompt(a));
  } finally {
    useRenderMemo(memo);
    useTemplateCache(cache);
  }
}

/** A step: one of a few layouts, rendered with one of a few agents' values. */
const step = fc.record({
  layout: fc.nat(3),
  values: fc.record({
    x: fc.constantFrom("X", " {{y}} ", "", "x2"),
    y: fc.constantFrom("Y", "", " y "),
  }),
  /** Fresh strings of the same texts, as function sections return them. */
  fresh: fc.boolean(),
});

function copyTexts(a: PromptAssembly): PromptAssembly {
  const fresh = (text: string) => [...text].join("");
  return {
    ...a,
    sections: a.sections.map((s) => ({
      ...s,
      text: fresh(s.text),
      ...(s.items === undefined
        ? {}
        : { items: s.items.map((i) => ({ ...i, text: fresh(i.text) })) }),
    })),
  };
}

describe("renderPrompt() reusing earlier renders", () => {
  it("renders what a render from scratch renders, step after step", () => {
    fc.assert(
      fc.property(
        fc.array(assembly, { minLength: 4, maxLength: 4 }),
        fc.array(step, { minLength: 1, maxLength: 12 }),
        (layouts, steps) => {
          for (const { layout, values, fresh } of steps) {
            const base = layouts[layout]!;
            const a: PromptAssembly = {
              ...(fresh ? copyTexts(base) : base),
              variables: Object.assign(Object.create(null), values),
            };
            assert.equal(outcome(() => renderPrompt(a)), fromScratch(a));
          }
        },
      ),
      RUNS,
    );
  });

  it("returns the same string when nothing changed", () => {
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
    // A changed value is rendered, not remembered.
    a.variables.model = "m-2";
    assert.equal(renderPrompt(a), "I am m-2.\n\nCheck exit codes.");
  });

  it("checks every value again when it reuses a render", () => {
    const a: PromptAssembly = {
      sections: [{ name: "a", order: 0, text: "I am {{model}}." }],
      tools: [],
      variables: Object.assign(Object.create(null), { model: "m-1" }),
    };
    renderPrompt(a);
    a.variables.model = undefined;
    assert.throws(() => renderPrompt(a), { code: "missing-value" });
    delete a.variables.model;
    assert.throws(() => renderPrompt(a), { code: "unknown-variable" });
    // A prototype's value is not an own value, remembered or not.
    const inherited = { ...a, variables: Object.create({ model: "m-1" }) };
    assert.throws(() => renderPrompt(inherited), { code: "unknown-variable" });
  });

  it("renders a getter's second answer checked, never unchecked", () => {
    let reads = 0;
    const variables = Object.create(null);
    Object.defineProperty(variables, "v", {
      enumerable: true,
      get: () => (++reads === 2 ? 42 : `v${reads}`),
    });
    const a: PromptAssembly = {
      sections: [{ name: "g", order: 0, text: "{{v}}" }],
      tools: [],
      variables,
    };
    const outcomes = [1, 2, 3].map(() => outcome(() => renderPrompt(a)));
    for (const o of outcomes) {
      assert.ok(o.startsWith('ok "v') || o.startsWith("invalid-value"), o);
    }
  });
});
