// fast-check property over random layouts: cache blocks join back to the
// prompt and are never more stable than their parts (the renderer's and
// explain's properties are in tests/properties/layout_property_test.ts).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { renderPrompt } from "../../mod.ts";
import { cacheBlocks, explainPrompt } from "../../inspect.ts";
import { layoutReferenceRender } from "../support/layout_reference_renderer.ts";
import { assembly } from "../support/layout_arbitrary.ts";

const RUNS = { numRuns: 5_000, seed: 20261202 };

const VOLATILITY = { static: 0, session: 1, step: 2 } as const;

describe("layout properties (flat lists)", () => {
  it("cache blocks join back to the prompt and are never more stable than a part", () => {
    fc.assert(
      fc.property(assembly, (a) => {
        if (!layoutReferenceRender(a).ok) return;
        const blocks = cacheBlocks(a);
        assert.equal(
          blocks.map((b) => b.separator + b.text).join(""),
          renderPrompt(a),
        );
        const { contexts: _contexts, ...prompt } = a;
        const { sections } = explainPrompt(prompt);
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
