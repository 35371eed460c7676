/**
 * The rendered prompt cut into the spans the inspector page colours: each
 * section's own text, each list item, and the separators between
 * sections; and which spans changed since a previous step.
 *
 * @module
 */

import type { AssembledSection } from "../../mod.ts";
import { estimateTokens, type PromptExplanation } from "../../inspect.ts";

/** One span of the rendered text, `[start, end)`. */
export interface PageSpan {
  /** `"part"`: a section's or an item's text; `"separator"`: between two sections. */
  kind: "part" | "separator";
  start: number;
  end: number;
  text: string;
  /** The section it belongs to (for a separator: the one after it). */
  section: string;
  /** The list item, when the span is one. */
  item?: string;
  /** The section's or item's owner; absent for the root registry. */
  owner?: string;
  /** The layer it was registered in; absent for a global registration. */
  layer?: string;
  /** `estimateTokens` of `text`. */
  tokens: number;
  /** Set when a previous step was given and the part is not the same there. */
  change?: "changed" | "added";
}

/** A part the previous step rendered and this one does not. */
export interface RemovedPart {
  section: string;
  item?: string;
  owner?: string;
}

/** A layer field, which assemblies carry from the first release with layers. */
function layerOf(part: object | undefined): string | undefined {
  const layer = (part as { layer?: unknown } | undefined)?.layer;
  return typeof layer === "string" ? layer : undefined;
}

/**
 * The spans of an explained prompt, in text order; they tile the text.
 * `sections` are the assembly's, for the fields an explanation does not
 * carry (the layer).
 */
export function pageSpans(
  explained: PromptExplanation,
  sections: readonly AssembledSection[],
): PageSpan[] {
  const byName = new Map(sections.map((section) => [section.name, section]));
  const spans: PageSpan[] = [];
  const push = (
    kind: PageSpan["kind"],
    start: number,
    end: number,
    of: { section: string; item?: string; owner?: string; layer?: string },
  ) => {
    if (end <= start) return;
    const text = explained.text.slice(start, end);
    const span: PageSpan = {
      kind,
      start,
      end,
      text,
      section: of.section,
      tokens: estimateTokens(text),
    };
    if (of.item !== undefined) span.item = of.item;
    if (of.owner !== undefined) span.owner = of.owner;
    if (of.layer !== undefined) span.layer = of.layer;
    spans.push(span);
  };
  for (const section of explained.sections) {
    const assembled = byName.get(section.name);
    const own: { section: string; owner?: string; layer?: string } = {
      section: section.name,
    };
    if (section.owner !== undefined) own.owner = section.owner;
    const layer = layerOf(assembled);
    if (layer !== undefined) own.layer = layer;
    push("separator", section.separatorStart, section.start, {
      section: section.name,
    });
    // A list: its heading and the separators between items are the
    // section's; each item is its owner's.
    let cursor = section.start;
    for (const item of section.items ?? []) {
      push("part", cursor, item.start, own);
      const of: {
        section: string;
        item: string;
        owner?: string;
        layer?: string;
      } = {
        section: section.name,
        item: item.name,
      };
      if (item.owner !== undefined) of.owner = item.owner;
      const itemLayer = layerOf(
        assembled?.items?.find((candidate) => candidate.name === item.name),
      );
      if (itemLayer !== undefined) of.layer = itemLayer;
      push("part", item.start, item.end, of);
      cursor = item.end;
    }
    push("part", cursor, section.end, own);
  }
  return spans;
}

/** What a part is called across steps: its section and item. */
function partKey(span: { section: string; item?: string }): string {
  return JSON.stringify([span.section, span.item ?? null]);
}

/**
 * Each part with its key and occurrence: a list's heading is its section's
 * piece 0, the separator before its second item piece 1, and so on; an
 * item has one piece.
 */
function keyedParts(spans: readonly PageSpan[]): [string, PageSpan][] {
  const counts = new Map<string, number>();
  const keyed: [string, PageSpan][] = [];
  for (const span of spans) {
    if (span.kind !== "part") continue;
    const key = partKey(span);
    const n = counts.get(key) ?? 0;
    counts.set(key, n + 1);
    keyed.push([`${key}#${n}`, span]);
  }
  return keyed;
}

/**
 * Marks each part of `spans` that `previous` does not render the same
 * (`change`), and returns the parts only `previous` renders.
 */
export function markChanges(
  spans: PageSpan[],
  previous: readonly PageSpan[],
): RemovedPart[] {
  const before = new Map(
    keyedParts(previous).map(([key, span]) => [key, span.text]),
  );
  for (const [key, span] of keyedParts(spans)) {
    const was = before.get(key);
    if (was === undefined) span.change = "added";
    else if (was !== span.text) span.change = "changed";
  }
  const current = new Set(spans.map(partKey));
  const removed: RemovedPart[] = [];
  const seen = new Set<string>();
  for (const span of previous) {
    const key = partKey(span);
    if (span.kind !== "part" || current.has(key) || seen.has(key)) continue;
    seen.add(key);
    const part: RemovedPart = { section: span.section };
    if (span.item !== undefined) part.item = span.item;
    if (span.owner !== undefined) part.owner = span.owner;
    removed.push(part);
  }
  return removed;
}
