/**
 * A text parsed once into static parts and reference names, kept in a
 * cache keyed by the text, with the last render it produced.
 *
 * @module
 */

import { isReferenceName } from "../core/names.ts";
import { BoundedCache, type BoundedCacheOptions } from "./_bounded_cache.ts";

/** A text split at its references. */
export interface Template {
  /** The text. */
  readonly source: string;
  /**
   * Static text and reference names, alternating and starting and ending
   * with static text: `[text, name, text, …, name, text]`. Escapes are
   * already applied to the static parts.
   */
  readonly parts: readonly string[];
  /** Index of each reference's `{{` in the text. */
  readonly offsets: readonly number[];
  /**
   * The first complete group that is not a reference, `[start, end)`, or
   * `undefined`. Recorded, not thrown: the renderer reports whichever
   * problem comes first in the text, with the name of the part.
   */
  readonly malformed: readonly [start: number, end: number] | undefined;
  /**
   * `parts` as a trimmed render uses them: the first part without its
   * leading whitespace, the last without its trailing whitespace, so that
   * a render trims at run time only the values that sit at an edge (those
   * next to an empty part, when there are references).
   */
  readonly trimmed: readonly string[];
  /** The last render worth remembering; replaced whole, never edited. */
  memo: Memo | undefined;
  /** Renders in a row that the memo did not answer (see `interpolate`). */
  misses: number;
  /**
   * The template of the text a walk rendered right after this one, the
   * last time: the next text is found without hashing when it is the same.
   */
  next: Template | undefined;
}

/** A render of a template: the values it read and what it produced. */
export interface Memo {
  readonly values: readonly string[];
  readonly trim: boolean;
  readonly result: string;
}

/** Runs of `\{{`: a run is rewritten in one piece, however long. */
const ESCAPE_RUNS = /(?:\\\{\{)+/g;
/**
 * Longer texts are cached under their length and edges: hashing a long text
 * that is new costs more than parsing it.
 */
const LONG = 4096;

/** A cache of parsed texts; a template counts by its long text and its memo. */
export function templateCache(
  options?: BoundedCacheOptions,
): BoundedCache<Template> {
  return new BoundedCache(
    options,
    (t) =>
      (t.source.length > LONG ? t.source.length : 0) +
      (t.memo?.result.length ?? 0),
  );
}

/** The parsed texts of every render. */
export const TEMPLATES: BoundedCache<Template> = templateCache();

/** The parsed form of `text`, from `cache` when it was parsed before. */
export function templateOf(
  text: string,
  cache: BoundedCache<Template> = TEMPLATES,
): Template {
  const key = text.length > LONG
    ? `${text.length}:${text.slice(0, 32)}${text.slice(-32)}`
    : text;
  let template = cache.get(key);
  // A long text's key is not the text: its template is checked against it.
  if (template === undefined || template.source !== text) {
    template = parseTemplate(text);
    cache.set(key, template);
  }
  return template;
}

/** What a template is interpolated through: the renderer's walk. */
export interface Reader {
  /** Whether the render is trimmed. */
  readonly trims: boolean;
  /** Where the template is kept, charged for what its memo holds. */
  readonly cache: BoundedCache<Template>;
  /** Where values are read before they are compared with a memo. */
  readonly values: string[];
  /** Reference `k`'s value, checked: an own property that is a string. */
  read(parts: readonly string[], k: number): string;
}

/**
 * `template` interpolated with the values `reader` reads, each once. A
 * text's first render is not remembered, and in a run of renders the memo
 * did not answer ever fewer compare and remember (a remembered render
 * outlives young objects, which costs more than building it): a text
 * rendered once, or whose values change at every render, is joined as
 * without memo. The others compare the values with the memo's (a
 * snapshot: a getter that renders again may replace it meanwhile), and
 * return its result when all are the same; a render is remembered once
 * every value was read, so a throw leaves the memo as it was. A trimmed
 * render trims the values at its edges, not its result (that would flatten
 * it), unless one of them trims to nothing.
 */
export function interpolate(template: Template, reader: Reader): string {
  const { trims } = reader;
  const parts = trims ? template.trimmed : template.parts;
  const n = (parts.length - 1) >> 1;
  const m = template.misses;
  let values: string[] | undefined;
  // Compare (and remember) at misses 0–3, then around each power of two up
  // to 1,024, then twice in every 1,024.
  if (
    m < 4 || (m & (m - 1)) === 0 || ((m - 1) & (m - 2)) === 0 ||
    (m & 1023) < 2
  ) {
    const memo = template.memo;
    let same = memo?.trim === trims;
    values = reader.values;
    for (let k = 0; k < n; k++) {
      values[k] = reader.read(parts, k);
      if (same && values[k] !== memo!.values[k]) same = false;
    }
    if (same) {
      if (m !== 1) template.misses = 1;
      return memo!.result;
    }
  }
  template.misses = m + 1;
  // A reference at an edge: the static text there was trimmed to nothing.
  const first = trims && parts[0] === "" ? 0 : -1;
  const end = trims && parts[2 * n] === "" ? n - 1 : -1;
  let head: string | undefined; // the edge values, trimmed
  let tail: string | undefined;
  let out = parts[0]!;
  for (let k = 0; k < n; k++) {
    let value = values === undefined ? reader.read(parts, k) : values[k]!;
    if (k === first) value = head = value.trimStart();
    if (k === end) value = tail = value.trimEnd();
    out += value + parts[2 * k + 2]!;
  }
  if (head === "" || tail === "") out = out.trim();
  if (values !== undefined && m > 0) {
    out.charCodeAt(0); // flat from now on: reused, it is copied as one piece
    template.memo = { values: values.slice(0, n), trim: trims, result: out };
    reader.cache.charge(out.length);
  }
  return out;
}

/**
 * Splits `text` at its complete `{{…}}` groups in one left-to-right pass.
 * A group whose content is a name is a reference; `{{\}}` is one
 * backslash (so that a backslash can stand right before a reference);
 * any other group is malformed.
 *
 * Linear in the text for every input: each search starts where the last one
 * stopped or further on. A group's content holds no brace, so a failed
 * candidate's content holds no `{{` either; and the next `{` and `}` are
 * found with native `indexOf` and remembered until the scan passes them, so
 * a text full of `{{` but without `}` (or the reverse) is read once.
 */
export function parseTemplate(text: string): Template {
  const parts: string[] = [];
  const offsets: number[] = [];
  let malformed: [number, number] | undefined;
  let pending = ""; // static text gathered before `start`
  let start = 0; // first character of the static text being gathered
  let from = 0; // where to look for the next `{{`
  let close = -1; // the next `}` at or after some candidate's content
  let brace = -1; // the next `{` likewise
  for (;;) {
    const open = text.indexOf("{{", from);
    if (open === -1) break;
    const content = open + 2;
    if (close < content) close = text.indexOf("}", content);
    if (close === -1) break; // no `}` after this `{{`: no group from here on
    from = content;
    // `\{{` is a literal `{{`, unescaped in staticText.
    if (text[open - 1] === "\\") continue;
    if (brace < content) brace = text.indexOf("{", content);
    if (brace !== -1 && brace < close) {
      // The content meets a `{` first: no group here. In a run of `{`, only
      // the last two characters can open one.
      from = brace;
      if (brace === content) {
        while (text[from + 1] === "{") from++;
        from--;
      }
    } else if (text[close + 1] !== "}") {
      from = close + 1; // a lone `}`
    } else {
      const name = trimSpacesAndTabs(text, content, close);
      from = close + 2;
      if (isReferenceName(name)) {
        parts.push(pending + staticText(text, start, open), name);
        offsets.push(open);
        pending = "";
        start = from;
      } else if (name === "\\" && close === content + 1) {
        pending += staticText(text, start, open) + "\\";
        start = from;
      } else {
        malformed ??= [open, from];
      }
    }
  }
  parts.push(pending + staticText(text, start, text.length));
  const trimmed = parts.slice();
  trimmed[0] = parts[0]!.trimStart();
  trimmed[parts.length - 1] = trimmed[parts.length - 1]!.trimEnd();
  return {
    source: text,
    parts,
    offsets,
    malformed,
    trimmed,
    memo: undefined,
    misses: 0,
    next: undefined,
  };
}

/**
 * `text[start..end)` with each `\{{` turned into `{{`. Every `\{{` in
 * static text is an escape: static text holds no complete group, and a `\{{`
 * cannot overlap another.
 */
function staticText(text: string, start: number, end: number): string {
  const slice = text.slice(start, end);
  return slice.indexOf("\\{{") === -1
    ? slice
    : slice.replace(ESCAPE_RUNS, (run) => "{{".repeat(run.length / 3));
}

function trimSpacesAndTabs(text: string, start: number, end: number): string {
  while (start < end && " \t".includes(text[start]!)) start++;
  while (end > start && " \t".includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}
