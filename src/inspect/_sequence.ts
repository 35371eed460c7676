/**
 * One channel of an assembly explained (the system prompt or the runtime
 * context: each part's span, size, owner and references), and an
 * explanation read as a tree of parts, the one shape `comparePrompts`,
 * `checkPrompt` and `cacheBlocks` walk. Covered by tests/explain_test.ts
 * and tests/compare_test.ts.
 *
 * @module
 */

import type { PromptAssembly } from "../core/types.ts";
import { defined } from "../core/_defined.ts";
import { STABILITIES, stabilityRank } from "../core/_stability.ts";
import { referencesOf } from "../render/_template.ts";
import { type PartSpan, renderAssembly } from "../render/_walk.ts";
import { estimateTokens } from "./estimate_tokens.ts";
import type { ItemExplanation, PromptExplanation } from "./explanation.ts";

/** One channel rendered and explained: the system prompt's or the runtime context's. */
export type Explained = PromptExplanation["context"];

/**
 * Explains one channel: the system prompt (`"section"`) or the runtime
 * context; a list is as volatile as its most volatile item.
 */
export function explainSequence(
  assembly: PromptAssembly,
  kind: "section" | "context",
): Explained {
  const spans: PartSpan[] = [];
  const dropped: string[] = [];
  const text = renderAssembly(assembly, { kind, spans, dropped });
  // A span's positions are relative to `at`, the start of the part holding it.
  const explain = (span: PartSpan, at: number): ItemExplanation => {
    const [start, end] = [at + span.start, at + span.end];
    const { name, order, stability = "static", owner, layer, shadows } =
      span.part;
    const explained: ItemExplanation = defined({
      name,
      order,
      stability,
      separatorStart: at + span.separatorStart,
      start,
      end,
      chars: end - start,
      tokens: estimateTokens(text.slice(start, end)),
      variables: [...referencesOf(span.part, new Set())],
      owner,
      layer,
      shadows: shadows && { ...shadows },
    });
    if (span.items === undefined) return explained;
    explained.items = span.items.map((item) => explain(item, start));
    const parts = [explained, ...explained.items];
    const most = Math.max(...parts.map((p) => stabilityRank(p.stability)));
    explained.stability = STABILITIES[most]!;
    return explained;
  };
  return { text, sections: spans.map((span) => explain(span, 0)), dropped };
}

/**
 * An explained part as `comparePrompts` and `checkPrompt` read it: with the
 * lists above it, its `key` (the separator before it and its text), its
 * `own` text (without its items: a list's heading and footer) and its items.
 */
export type Part = ItemExplanation & Keyed & { children?: Part[] };
type Keyed = { list: string[]; key: string; own: string };

/**
 * The parts of an explained channel, with their items at any depth; with
 * `all`, every part collected there too, each before its items.
 */
export function partsOf({ text, sections }: Explained, all?: Part[]): Part[] {
  const of = (parts: ItemExplanation[], list: string[]): Part[] =>
    parts.map((explained) => {
      const { separatorStart, start, end, items } = explained;
      const [first, last] = [items?.[0], items?.at(-1)];
      // Its items, each after its separator, tile it between heading and footer.
      const own = first === undefined
        ? text.slice(start, end)
        : text.slice(start, first.separatorStart) + text.slice(last!.end, end);
      const key = text.slice(separatorStart, end);
      const part: Part = { ...explained, list, key, own };
      all?.push(part);
      if (items) part.children = of(items, [...list, explained.name]);
      return part;
    });
  return of(sections, []);
}
