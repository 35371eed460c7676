/**
 * Interpolates one text of an assembly (a section's, a list heading, an
 * item's), reusing what did not change since the last render.
 *
 * @module
 */

import type { PromptAssembly } from "../core/types.ts";
import { badReference, firstProblem } from "./_render_errors.ts";
import { isOwnString } from "./_reference_problem.ts";
import { compileTemplate, type Template } from "./_template.ts";

/** Whether renders reuse a template's last result for the same values. */
let memoEnabled = true;

/**
 * The template of the text last rendered at each section position, and that
 * text: a step renders the same sections in the same order, so comparing
 * the text with the one at its position (the same string, usually) finds
 * its template without hashing it. Bounded by the largest prompt rendered.
 */
const slotTexts: string[] = [];
const slotTemplates: Template[] = [];

/**
 * Turns the reuse of a template's last render on or off and returns the
 * previous setting: the seam through which the bench times a full render
 * and tests compare the two paths.
 */
export function useRenderMemo(enabled: boolean): boolean {
  const previous = memoEnabled;
  memoEnabled = enabled;
  return previous;
}

/** Whether renders reuse earlier results: see {@linkcode useRenderMemo}. */
export function renderMemoEnabled(): boolean {
  return memoEnabled;
}

/**
 * `text` (section `sectionIndex`'s text or heading when `itemIndex` is -1,
 * else that item's), interpolated unless `literal`, trimmed if `trim`.
 */
export function renderText(
  assembly: PromptAssembly,
  text: string,
  literal: boolean,
  trim: boolean,
  checkOwn: boolean,
  sectionIndex: number,
  itemIndex: number,
): string {
  if (literal) return trim ? text.trim() : text;
  // Every text goes through the cache, plain ones too: a step then neither
  // scans a text for `{{` nor trims it again.
  let template: Template;
  if (itemIndex === -1 && slotTexts[sectionIndex] === text) {
    template = slotTemplates[sectionIndex]!;
  } else {
    template = compileTemplate(text);
    if (itemIndex === -1 && sectionIndex <= slotTexts.length) {
      slotTexts[sectionIndex] = text;
      slotTemplates[sectionIndex] = template;
    }
  }
  if (template.malformed !== undefined) {
    throw firstProblem(assembly, text, sectionIndex, itemIndex, checkOwn);
  }
  const parts = trim ? template.trimmed : template.parts;
  // Fast path: no reference, the text (trimmed once, when parsed) is it.
  if (parts.length === 1) return parts[0]!;
  depth++;
  try {
    return interpolate(
      template,
      parts,
      trim,
      assembly,
      text,
      sectionIndex,
      itemIndex,
      checkOwn,
      depth > 1,
    );
  } finally {
    depth--;
  }
}

/**
 * How many interpolations are in progress: a value's getter may render
 * again (re-entrantly), and that render must not touch the memo that the
 * interrupted one is comparing with or building from.
 */
let depth = 0;

/**
 * Interpolates `parts` with the assembly's values, reading each value once.
 * While the values equal the template's last render they are only compared;
 * if all do, that render's result is returned. From the first that differs
 * on, the text is built (the equal values before it come from the memo) and
 * remembered as the template's last render. A `nested` interpolation (one
 * started from a value's getter) neither reads nor writes the memo.
 */
function interpolate(
  template: Template,
  parts: readonly string[],
  trim: boolean,
  assembly: PromptAssembly,
  text: string,
  sectionIndex: number,
  itemIndex: number,
  checkOwn: boolean,
  nested: boolean,
): string {
  const variables = assembly.variables;
  let memo = nested ? undefined : template.memo;
  let k = 1;
  let value: unknown;
  if (
    memoEnabled && memo !== undefined &&
    (trim ? memo.trimmed : memo.raw) !== undefined
  ) {
    const last = memo.values;
    for (; k < parts.length; k += 2) {
      const name = parts[k]!;
      value = variables[name];
      if (!isOwnString(variables, name, value, checkOwn)) {
        throw badReference(
          assembly,
          text,
          sectionIndex,
          itemIndex,
          (k - 1) / 2,
          value,
        );
      }
      if (value !== last[(k - 1) / 2]) break;
    }
    // Fast path: the values of the last render, so its result.
    if (k >= parts.length) return (trim ? memo.trimmed : memo.raw)!;
  } else {
    value = undefined;
  }
  const references = (parts.length - 1) / 2;
  if (memo === undefined || memo.values.length !== references) {
    memo = {
      values: new Array<string>(references),
      trimmed: undefined,
      raw: undefined,
    };
    if (!nested) template.memo = memo;
  }
  const values = memo.values;
  let rendered = parts[0]!;
  for (let j = 1; j < k; j += 2) {
    rendered += values[(j - 1) / 2]! + parts[j + 1]!;
  }
  for (; k < parts.length; k += 2) {
    const name = parts[k]!;
    // The value that ended the comparison was read and checked already.
    if (value === undefined) {
      value = variables[name];
      if (!isOwnString(variables, name, value, checkOwn)) {
        memo.trimmed = memo.raw = undefined;
        throw badReference(
          assembly,
          text,
          sectionIndex,
          itemIndex,
          (k - 1) / 2,
          value,
        );
      }
    }
    // Compared first: a store into the long-lived memo costs a write barrier.
    if (values[(k - 1) / 2] !== value) values[(k - 1) / 2] = value as string;
    rendered += (value as string) + parts[k + 1]!;
    value = undefined;
  }
  if (trim) {
    if (template.trimStart) rendered = rendered.trimStart();
    if (template.trimEnd) rendered = rendered.trimEnd();
    memo.trimmed = rendered;
    if (memo.raw !== undefined) memo.raw = undefined;
  } else {
    memo.raw = rendered;
    if (memo.trimmed !== undefined) memo.trimmed = undefined;
  }
  return rendered;
}
