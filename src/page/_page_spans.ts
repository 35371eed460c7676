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

/** Who a span belongs to: its section, item and the lists above it, owner, layer. */
export interface Holder {
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
  shadows?: ItemExplanation["shadows"];
}

/** One span of the rendered text, `[start, end)`. */
export interface PageSpan extends Holder {
  /** `"part"`: a section's or an item's text; `"separator"`: between two sections. */
  kind: "part" | "separator";
  start: number;
  end: number;
  text: string;
  /** `estimateTokens` of `text`. */
  tokens: number;
  /** Set when a previous step was given and the part is not the same there. */
  change?: "changed" | "added";
}

/** A part the previous step rendered and this one does not. */
export type RemovedPart = Pick<Holder, "section" | "item" | "lists" | "owner">;

/** One rendered sequence: the system prompt's or the runtime context's. */
export type ExplainedText = Pick<
  PromptExplanation["context"],
  "text" | "sections"
>;

function holderOf(
  part: ItemExplanation,
  { section, lists }: { section: string; lists?: readonly string[] },
): Holder {
  const { owner, layer, shadows } = part;
  return {
    section,
    ...(lists && { item: part.name }),
    ...(lists?.length && { lists: [...lists] }),
    ...(owner !== undefined && { owner }),
    ...(layer !== undefined && { layer }),
    ...(shadows && { shadows: shadowed(shadows) }),
  };
}

/** A copy of `shadows` without its `undefined` fields. */
function shadowed({ owner, layer }: NonNullable<Holder["shadows"]>) {
  return {
    ...(owner !== undefined && { owner }),
    ...(layer !== undefined && { layer }),
  };
}

/** The spans of an explained sequence, in text order; they tile the text. */
export function pageSpans(explained: ExplainedText): PageSpan[] {
  const { text } = explained;
  const spans: PageSpan[] = [];
  const push = (
    [start, end]: [number, number],
    { kind, ...of }: Holder & Pick<PageSpan, "kind">,
  ) => {
    if (end <= start) return;
    const slice = text.slice(start, end);
    const tokens = estimateTokens(slice);
    spans.push({ kind, start, end, text: slice, ...of, tokens });
  };
  // A list's heading, footer and the separators between its items are its
  // own; each item is its owner's, a nested list's items likewise.
  const walk = (part: ItemExplanation, own: Holder, path: string[]) => {
    let cursor = part.start;
    for (const item of part.items ?? []) {
      push([cursor, item.start], { kind: "part", ...own });
      const lists = { section: own.section, lists: path };
      walk(item, holderOf(item, lists), [...path, item.name]);
      cursor = item.end;
    }
    push([cursor, part.end], { kind: "part", ...own });
  };
  for (const section of explained.sections) {
    const { name, separatorStart, start } = section;
    push([separatorStart, start], { kind: "separator", section: name });
    walk(section, holderOf(section, { section: name }), []);
  }
  return spans;
}

/** What a part is called across steps: its section, the lists above it and its item. */
function partKey({ section, lists = [], item }: Holder): string {
  return JSON.stringify([section, ...lists, item ?? null]);
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
  const removed = new Map<string, RemovedPart>();
  for (const span of previous) {
    const key = partKey(span);
    if (span.kind !== "part" || current.has(key) || removed.has(key)) continue;
    const { section, item, lists, owner } = span;
    removed.set(key, {
      section,
      ...(item !== undefined && { item }),
      ...(lists && { lists: [...lists] }),
      ...(owner !== undefined && { owner }),
    });
  }
  return [...removed.values()];
}
