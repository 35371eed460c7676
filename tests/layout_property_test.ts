// fast-check properties of SPEC §7 over random layouts: renderPrompt agrees
// with the plain reference renderer; explain spans tile the prompt; cache
// blocks join back to it and are never more stable than their parts.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type AssembledItem,
  type AssembledSection,
  type ListLayout,
  type PromptAssembly,
  PromptError,
  renderPrompt,
  type Stability,
} from "../mod.ts";
import { cacheBlocks, explainPrompt } from "../inspect.ts";
import { layoutReferenceRender } from "./support/layout_reference_renderer.ts";

const RUNS = { numRuns: 5_000, seed: 20261202 };

const PIECES = [
  " ",
  "\n",
  "\t",
  "a",
  "b",
  "😀",
  "{",
  "}}",
  "\\{{",
  "{{x}}",
  "{{ y }}",
  "{{missing}}",
  "{{ a b }}",
  "text ",
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 6 })
  .map((parts) => parts.join(""));
const separator = fc.constantFrom("\n\n", "\n", "", " | ", "\n\n\n", "  ");
const stability = fc.constantFrom<Stability | undefined>(
  undefined,
  "static",
  "session",
  "step",
);
const flags = {
  literal: fc.option(fc.boolean(), { nil: undefined }),
  trim: fc.option(fc.boolean(), { nil: undefined }),
  stability,
};

const items = fc.uniqueArray(
  fc.record({
    name: fc.constantFrom("i1", "i2", "i3", "i4", "i5"),
    order: fc.integer({ min: 0, max: 3 }),
    text,
    owner: fc.option(fc.constantFrom("p", "q"), { nil: undefined }),
    ...flags,
  }, { requiredKeys: ["name", "order", "text"] }),
  { selector: (item) => item.name, maxLength: 5 },
);

const section = fc.record({
  text,
  separator: fc.option(separator, { nil: undefined }),
  owner: fc.option(fc.constantFrom("p", "q"), { nil: undefined }),
  ...flags,
  list: fc.option(
    fc.record({
      separator: fc.option(separator, { nil: undefined }),
      empty: fc.option(fc.constantFrom("", "none", " {{x}} "), {
        nil: undefined,
      }),
      dedupe: fc.option(fc.boolean(), { nil: undefined }),
    }, { requiredKeys: [] }),
    { nil: undefined },
  ),
  items,
}, { requiredKeys: ["text", "items"] });

/** Drops `undefined` fields, as the registry would leave them out. */
function defined<T>(value: object): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined),
  ) as T;
}

const assembly = fc.record({
  sections: fc.array(section, { maxLength: 5 }),
  separator: fc.option(separator, { nil: undefined }),
  x: fc.option(fc.constantFrom("X", " {{y}} ", ""), { nil: undefined }),
}).map(({ sections, separator, x }): PromptAssembly => {
  const result: PromptAssembly = {
    sections: sections.map(({ items, list, ...rest }, i) => {
      const s = defined<AssembledSection>({ name: `s${i}`, order: i, ...rest });
      if (list !== undefined) {
        s.list = defined<ListLayout>(list);
        s.items = items.map((item) => defined<AssembledItem>(item));
      }
      return s;
    }),
    tools: [],
    variables: Object.assign(Object.create(null), { x, y: "Y" }),
  };
  if (separator !== undefined) result.separator = separator;
  return result;
});

const VOLATILITY = { static: 0, session: 1, step: 2 } as const;

describe("layout properties (§7)", () => {
  it("renderPrompt agrees with the reference renderer on the text or the error", () => {
    fc.assert(
      fc.property(assembly, (a) => {
        const expected = layoutReferenceRender(a);
        if (expected.ok) {
          assert.equal(renderPrompt(a), expected.text);
          return;
        }
        assert.throws(() => renderPrompt(a), (error) => {
          assert.ok(error instanceof PromptError, String(error));
          assert.deepEqual(
            { code: error.code, section: error.section, item: error.item },
            {
              code: expected.code,
              section: expected.section,
              item: expected.item,
            },
          );
          return true;
        });
      }),
      RUNS,
    );
  });

  it("explain spans of sections, separators and items tile the prompt", () => {
    fc.assert(
      fc.property(assembly, (a) => {
        if (!layoutReferenceRender(a).ok) return;
        const { text, sections } = explainPrompt(a);
        assert.equal(text, renderPrompt(a));
        let at = 0;
        for (const [k, s] of sections.entries()) {
          const declared = a.sections.find((d) => d.name === s.name)!;
          assert.equal(s.separatorStart, at);
          const sep = text.slice(s.separatorStart, s.start);
          assert.equal(
            sep,
            k === 0 ? "" : declared.separator ?? a.separator ?? "\n\n",
          );
          assert.ok(s.end > s.start);
          at = s.end;
          if (s.items === undefined || s.items.length === 0) continue;
          const listSeparator = declared.list!.separator ?? "\n";
          for (const [j, item] of s.items.entries()) {
            assert.ok(item.separatorStart >= s.start);
            if (j > 0) assert.equal(item.separatorStart, s.items[j - 1]!.end);
            const before = text.slice(item.separatorStart, item.start);
            const headingEmpty = j === 0 && item.separatorStart === s.start;
            assert.equal(before, headingEmpty ? "" : listSeparator);
            assert.ok(item.end > item.start);
          }
          assert.equal(s.items.at(-1)!.end, s.end);
        }
        assert.equal(at, text.length);
      }),
      RUNS,
    );
  });

  it("cache blocks join back to the prompt and are never more stable than a part", () => {
    fc.assert(
      fc.property(assembly, (a) => {
        if (!layoutReferenceRender(a).ok) return;
        const blocks = cacheBlocks(a);
        assert.equal(
          blocks.map((b) => b.separator + b.text).join(""),
          renderPrompt(a),
        );
        const { sections } = explainPrompt(a);
        for (const block of blocks) {
          for (const name of block.sections) {
            const s = sections.find((e) => e.name === name)!;
            const parts = [
              a.sections.find((d) => d.name === name)!.stability ?? "static",
            ];
            for (const item of s.items ?? []) parts.push(item.stability);
            for (const part of parts) {
              assert.ok(VOLATILITY[block.stability] >= VOLATILITY[part]);
            }
          }
        }
      }),
      RUNS,
    );
  });
});
