// fast-check properties of SPEC §7 over random layouts: renderPrompt agrees
// with the plain reference renderer; explain spans tile the prompt; cache
// blocks join back to it and are never more stable than their parts.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { PromptError, renderPrompt } from "../mod.ts";
import { cacheBlocks, explainPrompt } from "../inspect.ts";
import { layoutReferenceRender } from "./support/layout_reference_renderer.ts";
import { assembly } from "./support/layout_arbitrary.ts";

const RUNS = { numRuns: 5_000, seed: 20261202 };

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
