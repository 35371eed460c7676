/**
 * Parses a section text once into static parts and reference names.
 *
 * @module
 */

import { BoundedCache } from "./bounded_cache.ts";
import { PromptError } from "./errors.ts";
import { isReferenceName } from "./reference_name.ts";

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
}

const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d; // }
const BACKSLASH = 0x5c; // \
const SPACE = 0x20;
const TAB = 0x09;

/** Parsed texts, keyed by the text itself. Exported for tests of the bound. */
export const TEMPLATE_CACHE: BoundedCache<Template> = new BoundedCache();

/**
 * The parsed form of `text`, from the cache when it was parsed before.
 *
 * @param section Names the section in errors.
 * @throws {PromptError} `malformed-reference` for a complete group that
 * holds no reference name.
 */
export function compileTemplate(text: string, section: string): Template {
  let template = TEMPLATE_CACHE.get(text);
  if (template === undefined) {
    template = parseTemplate(text, section);
    TEMPLATE_CACHE.set(text, template);
  }
  return template;
}

/**
 * Splits `text` at its complete `{{…}}` groups in one left-to-right pass.
 *
 * Linear in the text: the only backward step is to `p + 1` after a failed
 * group at `p`, and a failed group's content holds no brace, so no `{{`
 * starts inside it; each character is read a bounded number of times.
 */
export function parseTemplate(text: string, section: string): Template {
  const parts: string[] = [];
  const offsets: number[] = [];
  let pending = ""; // static text already cut out, waiting for `text[start..]`
  let start = 0; // first character not yet copied into the parts
  let from = 0; // where to look for the next `{{`
  const length = text.length;
  for (;;) {
    const open = text.indexOf("{{", from);
    if (open === -1) break;
    if (open > 0 && text.charCodeAt(open - 1) === BACKSLASH) {
      // `\{{` is a literal `{{` and never opens a group.
      pending += text.slice(start, open - 1) + "{{";
      start = from = open + 2;
      continue;
    }
    let close = open + 2;
    while (close < length) {
      const code = text.charCodeAt(close);
      if (code === OPEN_BRACE || code === CLOSE_BRACE) break;
      close++;
    }
    if (
      close + 1 < length && text.charCodeAt(close) === CLOSE_BRACE &&
      text.charCodeAt(close + 1) === CLOSE_BRACE
    ) {
      const name = trimSpacesAndTabs(text, open + 2, close);
      if (!isReferenceName(name)) {
        throw malformed(text, section, open, close + 2);
      }
      parts.push(pending + text.slice(start, open), name);
      offsets.push(open);
      pending = "";
      start = from = close + 2;
    } else {
      from = open + 1;
    }
  }
  parts.push(pending + text.slice(start));
  return { parts, offsets };
}

function trimSpacesAndTabs(text: string, start: number, end: number): string {
  while (start < end && isBlank(text.charCodeAt(start))) start++;
  while (end > start && isBlank(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

function isBlank(code: number): boolean {
  return code === SPACE || code === TAB;
}

function malformed(
  text: string,
  section: string,
  open: number,
  end: number,
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
