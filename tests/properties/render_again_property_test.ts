// A model test of renders over texts seen before: random steps over a few
// layouts, whose texts come back (the same strings, or fresh copies as function sections
// return them), rendered with plain values, getters that throw, proxies
// that answer every name, forwarding proxies and getters that render again;
// every result (text or error) equals a render from scratch.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { PromptError } from "../../src/core/errors.ts";
import type { PromptAssembly } from "../../src/core/types.ts";
import { templateCache } from "../../src/render/_template.ts";
import { renderAssembly } from "../../src/render/_walk.ts";
import { renderContext, renderPrompt } from "../../src/render/render.ts";
import { layouts, validLayouts } from "../support/layout_arbitrary.ts";

const RUNS = { numRuns: 1_000, seed: 20261130 };

/** The text, or what was thrown. */
function outcome(render: () => string): string {
  try {
    return `ok ${JSON.stringify(render())}`;
  } catch (error) {
    if (!(error instanceof PromptError)) return `threw ${String(error)}`;
    return `${error.code} ${error.section} ${error.context} ${error.item}`;
  }
}

/** Both texts of `a`, rendered with the shared cache or from scratch (a fresh one). */
function both(a: PromptAssembly, scratch = false): string {
  if (!scratch) {
    return outcome(() => renderPrompt(a)) + " / " +
      outcome(() => renderContext(a));
  }
  const render = (kind: "section" | "context") => {
    return renderAssembly(a, { kind, cache: templateCache() });
  };
  return outcome(() => render("section")) + " / " +
    outcome(() => render("context"));
}

type Values = { x: string; y: string };

/** A layout where x is read before y, in a section, an item and a footer. */
const KNOWN: PromptAssembly = {
  sections: [
    { name: "s", order: 0, text: "x={{x}} y={{ y }}" },
    {
      name: "l",
      order: 1,
      text: "{{x}}:",
      list: { footer: "{{x}}{{y}}" },
      items: [{ name: "i", order: 0, text: " {{x}}-{{y}} ", trim: false }],
    },
  ],
  contexts: [{ name: "c", order: 0, text: "{{y}}/{{x}}/{{y}}" }],
  tools: [],
  variables: {},
};
const KINDS = [
  "plain",
  "plain",
  "plain",
  "throwing",
  "liar",
  "proxy",
  "reentrant",
] as const;

const step = fc.record({
  // Few layouts and few values, so that texts come back with the values
  // they had before, and a throw lands between two such renders.
  layout: fc.nat(2),
  values: fc.record({
    x: fc.constantFrom("X", " {{y}} ", "a\\"),
    y: fc.constantFrom("Y", " y "),
  }),
  fresh: fc.boolean(),
  kind: fc.constantFrom(...KINDS),
  at: fc.constantFrom<"x" | "y">("x", "y"),
});

function copyTexts(a: PromptAssembly): PromptAssembly {
  const fresh = (text: string) => [...text].join("");
  const copy = <T extends { text: string; items?: T[] }>(part: T): T => ({
    ...part,
    text: fresh(part.text),
    ...(part.items === undefined ? {} : { items: part.items.map(copy) }),
  });
  return {
    ...a,
    sections: a.sections.map(copy),
    ...(a.contexts === undefined ? {} : { contexts: a.contexts.map(copy) }),
  };
}

/** The variables of one step, of the given kind. */
function variablesOf(
  kind: (typeof KINDS)[number],
  values: Values,
  at: "x" | "y",
  reenter: () => void,
): Record<string, string> {
  const plain = Object.assign(Object.create(null), values);
  switch (kind) {
    case "plain":
      return plain;
    case "throwing":
      Object.defineProperty(plain, at, {
        enumerable: true,
        get() {
          throw new Error("boom");
        },
      });
      return plain;
    case "liar":
      return new Proxy(Object.create(null), {
        get: (_target, name) =>
          typeof name === "string" ? `<${name}>` : undefined,
      });
    case "proxy":
      return new Proxy(plain, {});
    case "reentrant":
      Object.defineProperty(plain, at, {
        enumerable: true,
        get() {
          reenter();
          return values[at];
        },
      });
      return plain;
  }
}

describe("renderPrompt() and renderContext() over texts seen before (model)", () => {
  it("render what a render from scratch renders, step after step, whatever the variables do", () => {
    fc.assert(
      fc.property(
        fc.tuple(
          fc.oneof(layouts, validLayouts),
          validLayouts,
          fc.constant(KNOWN),
        ),
        fc.array(step, { minLength: 1, maxLength: 30 }),
        (chosen, steps) => {
          for (const { layout, values, fresh, kind, at } of steps) {
            const base = chosen[layout]!;
            const other = chosen[(layout + 1) % 3]!;
            const reenter = () => {
              both({
                ...other,
                variables: Object.assign(Object.create(null), {
                  x: values.y,
                  y: values.x,
                }),
              });
            };
            const a: PromptAssembly = {
              ...(fresh ? copyTexts(base) : base),
              variables: variablesOf(kind, values, at, reenter),
            };
            const actual = both(a);
            assert.equal(actual, both(a, true));
          }
        },
      ),
      RUNS,
    );
  });
});
