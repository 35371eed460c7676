/**
 * The rendered prompt (or runtime context) cut into the spans the
 * inspector page colours: each section's own text, each list item (nested
 * ones included), and the separators between sections; and which spans
 * changed since a previous step.
 *
 * @module
 */

import {
  estimateTokens,
  type ItemExplanation,
  type PromptExplanation,
} from "../../inspect.ts";

/** The registration a part shadows: its owner and layer. */
export interface ShadowedPart {
  owner?: string;
  layer?: string;
}

/** One span of the rendered text, `[start, end)`. */
export interface PageSpan {
  /** `"part"`: a section's or an item's text; `"separator"`: between two sections. */
  kind: "part" | "separator";
  start: number;
  end: number;
  text: string;
  /** The section (or context entry) it belongs to (for a separator: the one after it). */
  section: string;
  /** The list item, when the span is one (the innermost, for a nested list's item). */
  item?: string;
  /** For an item of a nested list: the items above it, from the outermost down. */
  lists?: string[];
  /** The section's or item's owner; absent for the root registry. */
  owner?: string;
  /** The layer it was registered in; absent for a global registration. */
  layer?: string;
  /** The farther registration it shadows in its layer chain. */
  shadows?: ShadowedPart;
  /** `estimateTokens` of `text`. */
  tokens: number;
  /** Set when a previous step was given and the part is not the same there. */
  change?: "changed" | "added";
}

/** A part the previous step rendered and this one does not. */
export interface RemovedPart {
  section: string;
  item?: string;
  lists?: string[];
  owner?: string;
}

/** One rendered sequence: the system prompt's or the runtime context's. */
export type ExplainedText = Pick<
  PromptExplanation["context"],
  "text" | "sections"
>;

/** Who a span belongs to. */
interface Holder {
  section: string;
  item?: string;
  lists?: string[];
  owner?: string;
  layer?: string;
  shadows?: ShadowedPart;
}

function holderOf(
  part: ItemExplanation,
  section: string,
  path: readonly string[] | undefined,
): Holder {
  const holder: Holder = { section };
  if (path !== undefined) {
    holder.item = part.name;
    if (path.length > 0) holder.lists = [...path];
  }
  if (part.owner !== undefined) holder.owner = part.owner;
  if (part.layer !== undefined) holder.layer = part.layer;
  if (part.shadows !== undefined) {
    const shadows: ShadowedPart = {};
    if (part.shadows.owner !== undefined) shadows.owner = part.shadows.owner;
    if (part.shadows.layer !== undefined) shadows.layer = part.shadows.layer;
    holder.shadows = shadows;
  }
  return holder;
}

/** The spans of an explained sequence, in text order; they tile the text. */
export function pageSpans(explained: ExplainedText): PageSpan[] {
  const { text } = explained;
  const spans: PageSpan[] = [];
  const push = (
    kind: PageSpan["kind"],
    start: number,
    end: number,
    of: Holder,
  ) => {
    if (end <= start) return;
    const slice = text.slice(start, end);
    spans.push({
      kind,
      start,
      end,
      text: slice,
      ...of,
      tokens: estimateTokens(slice),
    });
  };
  // A list's heading, footer and the separators between its items are its
  // own; each item is its owner's, a nested list's items likewise.
  const walk = (
    part: ItemExplanation,
    own: Holder,
    path: readonly string[],
  ) => {
    let cursor = part.start;
    for (const item of part.items ?? []) {
      push("part", cursor, item.start, own);
      walk(item, holderOf(item, own.section, path), [...path, item.name]);
      cursor = item.end;
    }
    push("part", cursor, part.end, own);
  };
  for (const section of explained.sections) {
    push("separator", section.separatorStart, section.start, {
      section: section.name,
    });
    walk(section, holderOf(section, section.name, undefined), []);
  }
  return spans;
}

/** What a part is called across steps: its section, the lists above it and its item. */
function partKey(
  span: { section: string; item?: string; lists?: string[] },
): string {
  return JSON.stringify([
    span.section,
    ...(span.lists ?? []),
    span.item ?? null,
  ]);
}

/**
 * Each part with its key and occurrence: a list's heading is its section's
 * piece 0, the separator before its second item piece 1, and so on; an
 * item has one piece unless it is a nested list.
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
    if (span.lists !== undefined) part.lists = [...span.lists];
    if (span.owner !== undefined) part.owner = span.owner;
    removed.push(part);
  }
  return removed;
}
