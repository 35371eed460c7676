/**
 * Parses a section text once into static parts and reference names.
 *
 * @module
 */

import { PromptError } from "../core/errors.ts";
import { isReferenceName } from "../core/names.ts";
import { BoundedCache } from "./_bounded_cache.ts";

/** A section text split at its references. */
export interface Template {
  /**
   * Static text and reference names, alternating and starting and ending
   * with static text: `[text, name, text, …, name, text]`. Escapes are
   * already applied to the static parts.
   */
  readonly parts: readonly string[];
  /** Index of each reference's `{{` in the source text. */
  readonly offsets: readonly number[];
  /**
   * The first complete group that is not a reference, `[start, end)` in the
   * source text, or `undefined`. Recorded rather than thrown, so that a
   * renderer reports whichever problem comes first in the text; the group
   * itself is left in the static text around it.
   */
  readonly malformed?: readonly [start: number, end: number] | undefined;
  /**
   * `parts` as a trimmed render uses them: the first part without its
   * leading whitespace, the last without its trailing whitespace (one part:
   * trimmed at both ends). Done once here, so that a render trims at run
   * time only where a reference sits at an edge.
   */
  readonly trimmed: readonly string[];
  /** A reference sits at the start: a trimmed render trims its start. */
  readonly trimStart: boolean;
  /** A reference sits at the end: a trimmed render trims its end. */
  readonly trimEnd: boolean;
  /**
   * The values of the last render and what it produced, so that a render
   * with the same values returns the same string without building it.
   * Written by the renderer; one slot, so it is bounded by the cache.
   */
  memo: RenderMemo | undefined;
}

/** The last render of a template: its values, and its results by trimming. */
export interface RenderMemo {
  /** The value of each reference, in order. */
  readonly values: string[];
  /** The trimmed result for `values`, if one was rendered. */
  trimmed: string | undefined;
  /** The untrimmed result for `values`, if one was rendered. */
  raw: string | undefined;
}

const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d; // }
const BACKSLASH = 0x5c; // \
/** `\{{`, global: V8 rewrites many matches faster with a regex than replaceAll. */
const ESCAPED_BRACES = /\\\{\{/g;
const SPACE = 0x20;
const TAB = 0x09;

/** Parsed texts, keyed by the text itself, shared by every render. */
let templateCache: BoundedCache<Template> = new BoundedCache();

/**
 * Replaces the shared parse cache and returns the previous one: the seam
 * through which tests and benches observe or reset it.
 */
export function useTemplateCache(
  cache: BoundedCache<Template>,
): BoundedCache<Template> {
  const previous = templateCache;
  templateCache = cache;
  return previous;
}

/**
 * The parsed form of `text`, from the cache when it was parsed before.
 *
 * Never throws: a malformed group is recorded in `malformed`, and the
 * renderer builds its error (`malformedReference`) with the section's name,
 * which the cache, keyed by text alone, cannot know.
 *
 * @param cache Where parsed texts are kept; tests pass their own.
 */
export function compileTemplate(
  text: string,
  cache: BoundedCache<Template> = templateCache,
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
        parts.push(staticText(text, start, open), name);
        offsets.push(open);
        start = nextClose + 2;
      } else {
        malformed ??= [open, nextClose + 2];
      }
      from = nextClose + 2;
    } else {
      from = nextClose + 1; // a lone `}`
    }
  }
  parts.push(staticText(text, start, length));
  return { parts, offsets, malformed, memo: undefined, ...trimmedParts(parts) };
}

/** The trimmed form of `parts`: see {@linkcode Template.trimmed}. */
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
 * cannot overlap another. Parsing runs once per distinct text, so the extra
 * native scan costs nothing per step.
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
  return code === SPACE || code === TAB;
}

/**
 * The error for `template`'s malformed group (see
 * {@linkcode Template.malformed}) in `text`, a text of section `section`.
 */
export function malformedReference(
  text: string,
  section: string,
  [open, end]: readonly [number, number],
): PromptError {
  const reference = text.slice(open, end);
  const { line, column } = locate(text, open);
  return new PromptError(
    "malformed-reference",
    `Cannot render section "${section}": ${JSON.stringify(reference)} at ` +
      `${line}:${column} is not a variable reference; write \`\\{{\` for a literal \`{{\``,
    { section, reference, line, column, offset: open },
  );
}

/**
 * The 1-based line and column (in UTF-16 code units) of `offset` in `text`.
 */
export function locate(
  text: string,
  offset: number,
): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (
    let i = text.indexOf("\n");
    i !== -1 && i < offset;
    i = text.indexOf("\n", i + 1)
  ) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
