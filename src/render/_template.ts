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
   * a render trims at run time only where a reference sits at an edge.
   */
  readonly trimmed: readonly string[];
  /** A reference sits at the start: a trimmed render trims its start. */
  readonly trimStart: boolean;
  /** A reference sits at the end: a trimmed render trims its end. */
  readonly trimEnd: boolean;
  /** The last render worth remembering; replaced whole, never edited. */
  memo: Memo | undefined;
  /** Renders in a row that the memo did not answer: see `renderTemplate`. */
  misses: number;
}

/** A render of a template: the values it read and what it produced. */
export interface Memo {
  readonly values: readonly string[];
  readonly trim: boolean;
  readonly result: string;
}

/** Inlined by V8 where `Object.hasOwn` is a call: the same check, cheaper. */
const HAS_OWN = Object.prototype.hasOwnProperty;
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d; // }
const BACKSLASH = 0x5c; // \
/** `\{{`, global: V8 rewrites many matches faster with a regex than replaceAll. */
const ESCAPED_BRACES = /\\\{\{/g;

/** A cache of parsed texts, keyed by the text; a memo counts by its result. */
export function templateCache(
  options?: BoundedCacheOptions,
): BoundedCache<Template> {
  return new BoundedCache(options, (t) => t.memo?.result.length ?? 0);
}

/** The parsed texts of every render. */
export const TEMPLATES: BoundedCache<Template> = templateCache();

/** The parsed form of `text`, from `cache` when it was parsed before. */
export function templateOf(
  text: string,
  cache: BoundedCache<Template> = TEMPLATES,
): Template {
  let template = cache.get(text);
  if (template === undefined) {
    template = parseTemplate(text);
    cache.set(text, template);
  }
  return template;
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
  const length = text.length;
  let pending = ""; // static text gathered before `start`
  let start = 0; // first character of the static text being gathered
  let from = 0; // where to look for the next `{{`
  let nextOpen = -1; // the next `{` at or after some candidate's content
  let nextClose = -1; // the next `}` likewise
  let malformed: [number, number] | undefined;
  for (;;) {
    const open = text.indexOf("{{", from);
    if (open === -1) break;
    if (open > 0 && text.charCodeAt(open - 1) === BACKSLASH) {
      from = open + 2; // `\{{` is a literal `{{`, unescaped in staticText
      continue;
    }
    const content = open + 2;
    if (nextClose < content) {
      nextClose = text.indexOf("}", content);
      // No `}` after this `{{`: no complete group at or after it.
      if (nextClose === -1) break;
    }
    if (nextOpen < content) nextOpen = text.indexOf("{", content);
    if (nextOpen !== -1 && nextOpen < nextClose) {
      // The content meets a `{` first: no group here. In a run of `{`, only
      // the last two characters can open one.
      let next = nextOpen;
      if (next === content) {
        while (next + 1 < length && text.charCodeAt(next + 1) === OPEN_BRACE) {
          next++;
        }
        next--;
      }
      from = next;
    } else if (text.charCodeAt(nextClose + 1) === CLOSE_BRACE) {
      const name = trimSpacesAndTabs(text, content, nextClose);
      if (isReferenceName(name)) {
        parts.push(pending + staticText(text, start, open), name);
        offsets.push(open);
        pending = "";
        start = nextClose + 2;
      } else if (nextClose === content + 1 && name === "\\") {
        pending += staticText(text, start, open) + "\\";
        start = nextClose + 2;
      } else {
        malformed ??= [open, nextClose + 2];
      }
      from = nextClose + 2;
    } else {
      from = nextClose + 1; // a lone `}`
    }
  }
  parts.push(pending + staticText(text, start, length));
  return {
    parts,
    offsets,
    malformed,
    memo: undefined,
    misses: 0,
    ...trimmedParts(parts),
  };
}

function trimmedParts(
  parts: readonly string[],
): Pick<Template, "trimmed" | "trimStart" | "trimEnd"> {
  if (parts.length === 1) {
    return { trimmed: [parts[0]!.trim()], trimStart: false, trimEnd: false };
  }
  const trimmed = parts.slice();
  const first = parts[0]!.trimStart();
  const last = parts[parts.length - 1]!.trimEnd();
  trimmed[0] = first;
  trimmed[trimmed.length - 1] = last;
  return { trimmed, trimStart: first === "", trimEnd: last === "" };
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
    : slice.replace(ESCAPED_BRACES, "{{");
}

function trimSpacesAndTabs(text: string, start: number, end: number): string {
  while (start < end && isBlank(text.charCodeAt(start))) start++;
  while (end > start && isBlank(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** What a render reads values through: the renderer's walk. */
export interface Reader {
  readonly variables: Record<string, unknown>;
  /** `variables` is an ordinary null-prototype object: what it holds is its own. */
  readonly own: boolean;
  /** Where the template is kept, charged for what its memo holds. */
  readonly cache: BoundedCache<Template>;
  /** Whether the render is trimmed. */
  readonly trims: boolean;
  /** The error for reference `k`, whose value was read as `value`. */
  badReference(k: number, value: unknown): Error;
}

/**
 * Reads each value once and checks it. While the values equal the memo's
 * (a snapshot: a getter that renders again may replace it meanwhile) they
 * are only compared, and if all do, the memo's result is returned. A
 * render is remembered only once every value was read, so a throw leaves
 * the memo as it was. A text's first render is not remembered, and in a
 * run of misses ever fewer renders compare and remember (a remembered
 * render outlives young objects, which costs more than building it), so
 * a text rendered once, or whose values change at every render, costs
 * what a render without memo costs.
 */
export function renderTemplate(template: Template, reader: Reader): string {
  const { trims, variables, own } = reader;
  const parts = trims ? template.trimmed : template.parts;
  const n = (parts.length - 1) >> 1;
  const m = template.misses;
  // Compare (and remember) at misses 0–3, then around each power of two
  // up to 1,024, then twice in every 1,024.
  const probe = m < 4 || (m & (m - 1)) === 0 ||
    ((m - 1) & (m - 2)) === 0 || (m & 1023) < 2;
  const memo = probe && template.memo?.trim === trims
    ? template.memo
    : undefined;
  const last = memo?.values;
  const record = probe && m > 0;
  let same = last !== undefined;
  let values = record && !same ? new Array<string>(n) : undefined;
  let out = parts[0]!;
  for (let k = 0; k < n; k++) {
    const name = parts[2 * k + 1]!;
    const value = variables[name];
    if (
      typeof value !== "string" || (!own && !HAS_OWN.call(variables, name))
    ) throw reader.badReference(k, value);
    if (same) {
      if (value === last![k]) continue;
      // The first value that differs: what came before it is the memo's.
      same = false;
      if (record) values = last!.slice(0, n);
      for (let j = 0; j < k; j++) out += last![j] + parts[2 * j + 2]!;
    }
    if (values !== undefined) values[k] = value;
    out += value + parts[2 * k + 2]!;
  }
  if (same) {
    if (m !== 1) template.misses = 1;
    return memo!.result;
  }
  template.misses = m + 1;
  if (trims) {
    if (template.trimStart) out = out.trimStart();
    if (template.trimEnd) out = out.trimEnd();
  }
  if (values !== undefined) {
    template.memo = { values, trim: trims, result: out };
    reader.cache.charge(out.length);
  }
  return out;
}
