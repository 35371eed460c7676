/**
 * A text parsed once into static parts and reference names, kept in a
 * cache keyed by the text.
 *
 * @module
 */

import { isReferenceName } from "../core/names.ts";
import type { AssembledItem } from "../core/types.ts";
import { BoundedCache, type BoundedCacheOptions } from "./_bounded_cache.ts";

/** A text split at its references. */
export interface Template {
  /**
   * The text, as the last render that read it held it: an equal copy takes
   * the place of the string parsed, so that the next comparison with the
   * same copy is one of identity, not of every character.
   */
  source: string;
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
  /**
   * The template of the text a walk rendered right after this one, the
   * last time: the next text is found without hashing when it is the same.
   */
  next: Template | undefined;
}

/** Runs of `\{{`: a run is rewritten in one piece, however long. */
const ESCAPE_RUNS = /(?:\\\{\{)+/g;
/**
 * Longer texts are cached under their length (two of one length take
 * turns): hashing a long text that is new costs more than parsing it, and
 * so does slicing one that is a concatenation. A walk finds them through
 * the template before them (`Template.next`) anyway.
 */
const LONG = 4096;

/** A cache of parsed texts; a long text counts by its length. */
export function templateCache(
  options?: BoundedCacheOptions,
): BoundedCache<Template> {
  return new BoundedCache<Template>(
    options,
    (t) => t.source.length > LONG ? t.source.length : 0,
  );
}

/** The parsed texts of every render. */
export const TEMPLATES: BoundedCache<Template> = templateCache();

/** The parsed form of `text`, from `cache` when it was parsed before. */
export function templateOf(text: string, cache = TEMPLATES): Template {
  const key = text.length > LONG ? String(text.length) : text;
  let template = cache.get(key);
  // A long text's key is not the text: its template is checked against it.
  if (template === undefined || template.source !== text) {
    template = parseTemplate(text);
    cache.set(key, template);
  }
  return template;
}

/**
 * The one reference scanner: adds the names a part's own texts (its text,
 * a list's footer) reference, in use order, to `into`, as the renderer
 * reads them; none when it is literal. With `items`, its items' too, at
 * any depth. A text that is no string references nothing: an inspection
 * scans what a handler left before anything checked it.
 */
export function referencesOf(
  part: Partial<Pick<AssembledItem, "literal" | "text" | "list" | "items">>,
  into: Set<string>,
  options?: { readonly items?: boolean },
): Set<string> {
  if (part.literal !== true) {
    for (const text of [part.text, part.list?.footer]) {
      if (typeof text !== "string") continue;
      const names = templateOf(text).parts;
      for (let k = 1; k < names.length; k += 2) into.add(names[k]!);
    }
  }
  const items = part.items;
  if (options?.items === true && Array.isArray(items)) {
    for (const item of items) {
      if (typeof item === "object" && item !== null) {
        referencesOf(item, into, options);
      }
    }
  }
  return into;
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
