// fast-check properties of docs/layout.md over random nested layouts:
// renderPrompt and renderContext agree with the plain reference renderer
// (on the text or on the error); explainPrompt's spans of parts,
// separators, headings, items and footers tile both texts exactly.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { PromptError } from "../../src/core/errors.ts";
import type { AssembledItem, PromptAssembly } from "../../src/core/types.ts";
import { renderContext, renderPrompt } from "../../src/render/render.ts";
import { explainPrompt } from "../../src/inspect/explain.ts";
import type { ItemExplanation } from "../../src/inspect/explanation.ts";
import {
  contextReferenceRender,
  layoutReferenceRender,
  type LayoutResult,
  renderOne,
  renderPart,
} from "../support/layout_reference_renderer.ts";
import { layouts, validLayouts } from "../support/layout_arbitrary.ts";

const RUNS = { numRuns: 5_000, seed: 20261202 };
const VOLATILITY = { static: 0, session: 1, step: 2 } as const;

function agrees(render: () => string, expected: LayoutResult): void {
  if (expected.ok) {
    assert.equal(render(), expected.text);
    return;
  }
  assert.throws(render, (error) => {
    assert.ok(error instanceof PromptError, String(error));
    assert.deepEqual(
      {
        code: error.code,
        section: error.section,
        context: error.context,
        item: error.item,
      },
      {
        code: expected.code,
        section: expected.section,
        context: expected.context,
        item: expected.item,
      },
    );
    return true;
  });
}

interface Sequence {
  text: string;
  variables: Record<string, string | undefined>;
  /** The parts as declared (names are unique in a sequence). */
  declared: readonly AssembledItem[];
  /** Between two parts that set no separator. */
  separator: string;
  /** What goes before the first part: a heading's separator, or nothing. */
  first: string;
  /** Where the first part's separator starts. */
  from: number;
}

/**
 * Checks that `explained` (the parts of one sequence) tile the text from
 * `from`: each part after its separator, each list as heading, items and
 * footer, every slice equal to what the reference renders. Returns the end.
 */
function tiles(explained: readonly ItemExplanation[], at: Sequence): number {
  const { text, variables } = at;
  let position = at.from;
  for (const [k, e] of explained.entries()) {
    const part = at.declared.find((d) => d.name === e.name)!;
    assert.equal(e.separatorStart, position);
    assert.equal(
      text.slice(e.separatorStart, e.start),
      k === 0 ? at.first : part.separator ?? at.separator,
    );
    assert.equal(text.slice(e.start, e.end), renderPart(part, variables));
    assert.ok(e.end > e.start);
    assert.equal(e.chars, e.end - e.start);
    let stability: number = VOLATILITY[part.stability ?? "static"];
    if (part.list === undefined) {
      assert.equal("items" in e, false);
    } else if (e.items!.length === 0) {
      assert.equal(text.slice(e.start, e.end), part.list.empty);
    } else {
      const list = part.list;
      const heading = renderOne(part.text, part.literal, part.trim, variables);
      assert.equal(text.slice(e.start, e.start + heading.length), heading);
      const separator = list.separator ?? "\n";
      const last = tiles(e.items!, {
        text,
        variables,
        declared: part.items!,
        separator,
        first: heading === "" ? "" : list.headingSeparator ?? separator,
        from: e.start + heading.length,
      });
      const footer = list.footer === undefined
        ? ""
        : renderOne(list.footer, part.literal, part.trim, variables);
      assert.equal(
        text.slice(last, e.end),
        footer === "" ? "" : (list.footerSeparator ?? separator) + footer,
      );
      for (const item of e.items!) {
        stability = Math.max(stability, VOLATILITY[item.stability]);
      }
    }
    assert.equal(VOLATILITY[e.stability], stability);
    position = e.end;
  }
  return position;
}

describe("layout properties (nested lists and contexts)", () => {
  it("renderPrompt agrees with the reference renderer on the text or the error", () => {
    fc.assert(
      fc.property(fc.oneof(layouts, validLayouts), (a) => {
        agrees(() => renderPrompt(a), layoutReferenceRender(a));
      }),
      RUNS,
    );
  });

  it("renderContext agrees with the reference renderer on the text or the error", () => {
    fc.assert(
      fc.property(fc.oneof(layouts, validLayouts), (a) => {
        agrees(() => renderContext(a), contextReferenceRender(a));
      }),
      RUNS,
    );
  });

  it("explain spans of parts, separators, headings, items and footers tile the prompt and the context", () => {
    fc.assert(
      fc.property(validLayouts, (a: PromptAssembly) => {
        if (!layoutReferenceRender(a).ok || !contextReferenceRender(a).ok) {
          return;
        }
        const explained = explainPrompt(a);
        assert.equal(explained.text, renderPrompt(a));
        assert.equal(explained.context.text, renderContext(a));
        const end = tiles(explained.sections, {
          text: explained.text,
          variables: a.variables,
          declared: a.sections,
          separator: a.separator ?? "\n\n",
          first: "",
          from: 0,
        });
        assert.equal(end, explained.text.length);
        const contextEnd = tiles(explained.context.sections, {
          text: explained.context.text,
          variables: a.variables,
          declared: a.contexts ?? [],
          separator: "\n\n",
          first: "",
          from: 0,
        });
        assert.equal(contextEnd, explained.context.text.length);
        const rendered = new Set(explained.sections.map((s) => s.name));
        assert.deepEqual(
          explained.dropped,
          a.sections.map((s) => s.name).filter((n) => !rendered.has(n)),
        );
      }),
      RUNS,
    );
  });
});
