// fast-check: no inspection function throws anything but a PromptError with
// a documented code, whatever the assembly holds (parts of the wrong shape,
// nested lists, tools without a description, schemas with cycles and
// BigInts, values that are no assembly at all); checkPrompt never rejects;
// cache blocks join back to the prompt and are never more stable than a part.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { type PromptAssembly, PromptError, type Stability } from "../../mod.ts";
import {
  cacheBlocks,
  checkPrompt,
  comparePrompts,
  explainPrompt,
  type ItemExplanation,
  type SectionExplanation,
} from "../../inspect.ts";
import { checkable } from "../support/checkable.ts";

const RUNS = { numRuns: 400, seed: 20261201 };

/** Every code errors.ts documents. */
const CODES = new Set([
  "invalid-section",
  "duplicate-section",
  "invalid-context",
  "duplicate-context",
  "invalid-variable-name",
  "duplicate-variable",
  "invalid-item",
  "duplicate-item",
  "orphan-item",
  "invalid-option",
  "scope-disposed",
  "unknown-layer",
  "multiple-complete",
  "provider-failed",
  "handler-failed",
  "listener-failed",
  "invalid-value",
  "duplicate-tool",
  "aborted",
  "unknown-variable",
  "missing-value",
  "malformed-reference",
]);

const VOLATILITY: Record<Stability, number> = {
  static: 0,
  session: 1,
  step: 2,
};

const name = fc.constantFrom("a", "b", "c", "tools", "x.md");
const text = fc.constantFrom(
  "",
  " ",
  "A.",
  "{{x}}",
  "{{ y }}",
  "{{missing}}",
  "{{ a b }}",
  "\\{{x}}",
  "Each call starts a fresh shell, so cd does not persist.",
);
const stability = fc.constantFrom<Stability>("static", "session", "step");
const separator = fc.constantFrom("\n", "", " | ", "\n\n");
const list = fc.record({
  separator,
  headingSeparator: separator,
  footer: text,
  footerSeparator: separator,
  empty: text,
  dedupe: fc.boolean(),
}, { requiredKeys: [] });

/** Well-formed parts, lists nested up to a few levels. */
const { part } = fc.letrec((tie) => ({
  part: fc.record({
    name,
    order: fc.integer({ min: -5, max: 300 }),
    text,
    owner: fc.constantFrom("p", "q"),
    layer: fc.constantFrom("l"),
    stability,
    literal: fc.boolean(),
    trim: fc.boolean(),
    separator,
    list,
    items: fc.array(tie("part"), { maxLength: 3, depthIdentifier: "items" }),
  }, { requiredKeys: ["name", "order", "text"] }),
}));

/** A part, a part with one field replaced by anything, or anything. */
const hostilePart = fc.oneof(
  { weight: 6, arbitrary: part },
  {
    weight: 2,
    arbitrary: fc.tuple(
      part,
      fc.constantFrom(
        "name",
        "order",
        "text",
        "list",
        "items",
        "separator",
        "trim",
        "literal",
        "stability",
      ),
      fc.anything(),
    ).map(([p, key, value]) => ({ ...p, [key]: value })),
  },
  { weight: 1, arbitrary: fc.anything() },
);

const tool = fc.oneof(
  fc.record({ name, description: text, parameters: fc.constant({}) }),
  name.map((n) => ({ name: n, parameters: { type: "object" } })),
  fc.tuple(name, fc.bigInt()).map(([n, big]) => {
    const parameters: Record<string, unknown> = { big };
    parameters.self = parameters;
    return { name: n, description: "Loops.", parameters };
  }),
  fc.anything(),
);

const assemblies = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.record({
      sections: fc.array(hostilePart, { maxLength: 4 }),
      contexts: fc.array(hostilePart, { maxLength: 2 }),
      tools: fc.array(tool, { maxLength: 3 }),
      variables: fc.oneof(
        fc.constant({ x: "1", y: "two", a: undefined }),
        fc.dictionary(
          fc.constantFrom("x", "y", "missing"),
          fc.option(fc.string(), { nil: undefined }),
        ),
        fc.anything(),
      ),
      separator: fc.oneof(separator, fc.anything()),
    }, { requiredKeys: ["sections", "tools", "variables"] }),
  },
  { weight: 1, arbitrary: fc.anything() },
) as fc.Arbitrary<PromptAssembly>;

/** Runs `run`; a throw must be a PromptError with a documented code. */
function throwsOnlyPromptErrors(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof PromptError, `not a PromptError: ${error}`);
    assert.ok(CODES.has(error.code), error.code);
  }
}

function mostVolatile(part: ItemExplanation): number {
  return Math.max(
    VOLATILITY[part.stability],
    ...(part.items ?? []).map(mostVolatile),
  );
}

describe("inspection of hostile assemblies (property)", () => {
  it("comparePrompts and cacheBlocks throw nothing but documented PromptErrors", () => {
    fc.assert(
      fc.property(assemblies, assemblies, (a, b) => {
        throwsOnlyPromptErrors(() => comparePrompts(a, b));
        throwsOnlyPromptErrors(() => comparePrompts(a, a));
        throwsOnlyPromptErrors(() => cacheBlocks(a));
      }),
      RUNS,
    );
  });

  it("checkPrompt resolves with diagnostics, never a failed check", async () => {
    await fc.assert(
      fc.asyncProperty(assemblies, async (a) => {
        const diagnostics = await checkPrompt(checkable(() => a));
        assert.ok(Array.isArray(diagnostics));
        for (const d of diagnostics) {
          assert.notEqual(d.code, "check-failed", d.message);
          assert.equal(typeof d.message, "string");
        }
      }),
      RUNS,
    );
  });

  it("cache blocks of a prompt that renders join back to it and are never more stable than a part", () => {
    fc.assert(
      fc.property(assemblies, (a) => {
        let explained;
        try {
          explained = explainPrompt(a);
        } catch {
          return;
        }
        const blocks = cacheBlocks(a);
        assert.equal(
          blocks.map((b) => b.separator + b.text).join(""),
          explained.text,
        );
        // Blocks list the rendered sections in order (names may repeat).
        let at = 0;
        for (const block of blocks) {
          for (const section of block.sections) {
            const found: SectionExplanation = explained.sections[at++]!;
            assert.equal(found.name, section);
            assert.ok(VOLATILITY[block.stability] >= mostVolatile(found));
          }
        }
        assert.equal(at, explained.sections.length);
        const step = blocks.findIndex((b) => b.stability === "step");
        assert.ok(blocks.filter((b) => b.cache).length <= 3);
        if (step !== -1) {
          assert.ok(blocks.slice(step).every((b) => !b.cache));
        }
      }),
      RUNS,
    );
  });

  it("a change of the runtime context alone is never a prefix break", () => {
    fc.assert(
      fc.property(
        assemblies,
        fc.array(part, { maxLength: 2 }),
        (a, contexts) => {
          let comparison;
          try {
            comparison = comparePrompts(
              a,
              { ...a, contexts } as PromptAssembly,
            );
          } catch {
            return;
          }
          assert.equal(comparison.sameText, true);
          assert.equal(comparison.prefixBreak, undefined);
          assert.equal(comparison.firstChangedSection, undefined);
          assert.equal(comparison.tools.changed, false);
          assert.equal(comparison.identical, !comparison.context.changed);
        },
      ),
      RUNS,
    );
  });
});
