/**
 * The inspector page's rendered texts as HTML: every span coloured by its
 * owner and titled with who holds it, cut where a marker (a cache
 * breakpoint, the first difference) sits inside one.
 *
 * @module
 */

import { escapeHtml } from "./_escape_html.ts";
import type { Holder, PageSpan } from "./_page_spans.ts";

/** How the page labels the root registry as an owner. */
export const ROOT_LABEL = "(none: the root registry)";

/** Owners in order of first appearance, each with a colour index and its tokens. */
export class Owners {
  readonly #index = new Map<string | undefined, number>();
  readonly prompt: number[] = [];
  readonly context: number[] = [];
  readonly tools: number[] = [];

  /** The owner's colour index, given on first sight. */
  index(owner: string | undefined): number {
    let index = this.#index.get(owner);
    if (index === undefined) {
      index = this.#index.size;
      this.#index.set(owner, index);
      this.prompt.push(0);
      this.context.push(0);
      this.tools.push(0);
    }
    return index;
  }

  /** Every owner with its index, in order of first sight. */
  entries(): [string | undefined, number][] {
    return [...this.#index];
  }
}

/** A marker at an offset of the text: a breakpoint or the first difference. */
export interface Marker {
  offset: number;
  html: string;
}

/** A marker at `offset`: an empty span whose title says what it marks. */
export function marker(
  offset: number,
  { kind, n, title }: { kind: string; n?: number; title: string },
): Marker {
  const style = kind === "breakpoint" ? "bp" : "diff";
  const numbered = n === undefined ? "" : ` data-n="${n}"`;
  const html = `<span class="mk ${style}" data-marker="${kind}"${numbered} ` +
    `title="${escapeHtml(title)}"></span>`;
  return { offset, html };
}

/** How a text's spans are written: its markers, the owners' colours, the section that broke the prefix. */
export interface TextHow {
  readonly markers: readonly Marker[];
  readonly owners: Owners;
  readonly breakSection?: string | undefined;
}

/** The spans as HTML, cut where a marker sits inside one. */
export function textHtml(spans: readonly PageSpan[], how: TextHow): string {
  const sorted = [...how.markers].sort((a, b) => a.offset - b.offset);
  let html = "";
  let m = 0;
  spans.forEach((span, part) => {
    const broke = span.kind === "part" && span.section === how.breakSection;
    const piece = (from: number, to?: number) =>
      spanHtml(span, {
        text: span.text.slice(
          from - span.start,
          to === undefined ? to : to - span.start,
        ),
        part,
        owners: how.owners,
        extra: broke ? " brk" : "",
      });
    let position = span.start;
    while (m < sorted.length && sorted[m]!.offset <= position) {
      html += sorted[m++]!.html;
    }
    while (m < sorted.length && sorted[m]!.offset < span.end) {
      const { offset } = sorted[m]!;
      html += piece(position, offset) + sorted[m++]!.html;
      position = offset;
    }
    html += piece(position);
  });
  while (m < sorted.length) html += sorted[m++]!.html;
  // The parser drops one newline right after <pre>: give it one to drop.
  return `\n${html}`;
}

/** The registration a part shadows: `base (layer "writer")`, `the root registry (global)`. */
function describeShadowed({ owner, layer }: NonNullable<Holder["shadows"]>) {
  const where = layer === undefined ? "global" : `layer ${layer}`;
  return `${owner ?? "the root registry"} (${where})`;
}

/** One span (or the piece of it between two markers) as HTML. */
function spanHtml(
  span: PageSpan,
  how: { text: string; part: number; owners: Owners; extra: string },
): string {
  const { text, part, owners, extra } = how;
  if (span.kind === "separator") {
    return `<span class="sep">${escapeHtml(text)}</span>`;
  }
  const { owner, section, item, lists, layer, tokens, change } = span;
  const index = owners.index(owner);
  const label = owner ?? ROOT_LABEL;
  const shadows = span.shadows && describeShadowed(span.shadows);
  const title = [
    `section ${section}`,
    ...(item === undefined
      ? []
      : [`item ${[...lists ?? [], item].join(" › ")}`]),
    ...(layer === undefined ? [] : [`layer ${layer}`]),
    `owner ${label}`,
    ...(shadows === undefined ? [] : [`shadows ${shadows}`]),
    `~${tokens} tokens`,
    ...(change === undefined ? [] : [change]),
  ].join(" · ");
  const attributes: [string, string | undefined][] = [
    ["data-part", String(part)],
    ["data-owner-index", String(index)],
    ["data-owner", owner],
    ["data-owner-label", label],
    ["data-section", section],
    ["data-lists", lists?.join(" › ")],
    ["data-item", item],
    ["data-layer", layer],
    ["data-shadows", shadows],
    ["data-tokens", String(tokens)],
    ["data-change", change],
    ["title", title],
  ];
  const classes = `p o${index}${change ? ` ch-${change}` : ""}${extra}`;
  const set = attributes.filter(([, value]) => value !== undefined);
  return `<span class="${classes}"${
    set.map(([name, value]) => ` ${name}="${escapeHtml(value!)}"`).join("")
  }>${escapeHtml(text)}</span>`;
}
