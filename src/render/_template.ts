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
  /** Renders in a row that the memo did not answer (see `_walk.ts`). */
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

/**
 * Longer texts are cached under their length (two of one length take
 * turns): hashing a long text that is new costs more than parsing it, and
 * so does slicing one that is a concatenation. A walk finds them through
 * the template before them (`Template.next`) anyway.
 */
const LONG = 4096;

/** A cache of parsed texts; a template counts by its long text and its memo. */
export function templateCache(options?: BoundedCacheOptions) {
  return new BoundedCache<Template>(
    options,
    (t) =>
      (t.source.length > LONG ? t.source.length : 0) +
      (t.memo?.result.length ?? 0),
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
 * A run of `\{{` (each a literal `{{`, the run rewritten in one piece), or
 * a complete group: `{{`, a content without braces, `}}`. Leftmost first,
 * so a `{{` escaped never opens a group, and in a run of `{` only the last
 * two can open one.
 */
const TOKENS = /(?:\\\{\{)+|\{\{([^{}]*)\}\}/g;
/** The runs alone. */
const ESCAPES = /(?:\\\{\{)+/g;
/** Whitespace that is not a space or a tab: no reference holds any. */
const OTHER_SPACE = /[^\S \t]/;

/**
 * Splits `text` at its complete `{{…}}` groups in one left-to-right pass.
 * A group whose content is a name (spaces and tabs around it allowed) is a
 * reference; `{{\}}` is one backslash (so that a backslash can stand right
 * before a reference); any other group is malformed. Linear in the text for
 * every input: a candidate's content stops at the first brace.
 */
export function parseTemplate(text: string): Template {
  // Without `}}` no group, without `\\{{` no escape either: a text free of
  // both (a flood of braces, say) is read at native speed.
  const tokens = text.includes("}}")
    ? TOKENS
    : text.includes("\\{{")
    ? ESCAPES
    : undefined;
  const parts: string[] = [];
  const offsets: number[] = [];
  let malformed: [number, number] | undefined;
  let pending = ""; // static text gathered before `start`
  let start = 0;
  if (tokens !== undefined) tokens.lastIndex = 0;
  for (let match; tokens !== undefined && (match = tokens.exec(text));) {
    const [token, content] = match;
    const open = match.index;
    pending += text.slice(start, open);
    start = open + token.length;
    const name = content?.trim();
    if (content === undefined) pending += "{{".repeat(token.length / 3);
    else if (
      isReferenceName(name!) && (name === content || !OTHER_SPACE.test(content))
    ) {
      parts.push(pending, name!);
      offsets.push(open);
      pending = "";
    } else if (content === "\\") pending += "\\";
    else {
      malformed ??= [open, start];
      pending += token;
    }
  }
  parts.push(pending + text.slice(start));
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
