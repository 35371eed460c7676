/**
 * Interpolates one text of an assembly (a section's, a list heading, an
 * item's) and words the errors that name where it came from.
 *
 * @module
 */

import {
  describeItem,
  invalidLayout,
  itemFlagInvalid,
} from "../core/_item_errors.ts";
import { PromptError } from "../core/errors.ts";
import type { AssembledItem } from "../core/items.ts";
import type { AssembledSection, PromptAssembly } from "../core/types.ts";
import { referenceProblem } from "./_reference_problem.ts";
import {
  compileTemplate,
  locate,
  malformedReference,
  type Template,
} from "./_template.ts";

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
    template = compileTemplate(text, "");
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
  return interpolate(
    template,
    parts,
    trim,
    assembly,
    text,
    sectionIndex,
    itemIndex,
    checkOwn,
  );
}

/**
 * Interpolates `parts` with the assembly's values, reading each value once.
 * While the values equal the template's last render they are only compared;
 * if all do, that render's result is returned. From the first that differs
 * on, the text is built (the equal values before it come from the memo) and
 * remembered as the template's last render.
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
): string {
  const variables = assembly.variables;
  let memo = template.memo;
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
      if (
        typeof value !== "string" ||
        (checkOwn && !Object.hasOwn(variables, name))
      ) {
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
    template.memo = memo;
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
      if (
        typeof value !== "string" ||
        (checkOwn && !Object.hasOwn(variables, name))
      ) {
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
    values[(k - 1) / 2] = value as string;
    rendered += (value as string) + parts[k + 1]!;
    value = undefined;
  }
  if (trim) {
    if (template.trimStart) rendered = rendered.trimStart();
    if (template.trimEnd) rendered = rendered.trimEnd();
    memo.trimmed = rendered;
    memo.raw = undefined;
  } else {
    memo.raw = rendered;
    memo.trimmed = undefined;
  }
  return rendered;
}

/** Whether a section or item is literal; a flag of the wrong type throws. */
export function isLiteral(
  part: { literal?: unknown },
  section: AssembledSection,
  item?: AssembledItem,
): boolean {
  const literal = part.literal;
  if (literal === undefined || literal === false) return false;
  if (literal === true) return true;
  throw badFlag(section, item, "literal", literal);
}

/** Whether a section or item is trimmed; a flag of the wrong type throws. */
export function trims(
  part: { trim?: unknown },
  section: AssembledSection,
  item?: AssembledItem,
): boolean {
  const trim = part.trim;
  if (trim === undefined || trim === true) return true;
  if (trim === false) return false;
  throw badFlag(section, item, "trim", trim);
}

/** A flag of the wrong type: the item's error when it is an item's. */
function badFlag(
  section: AssembledSection,
  item: AssembledItem | undefined,
  flag: string,
  value: unknown,
): PromptError {
  return item === undefined
    ? invalidLayout(section.name, section.owner, flag, "a boolean", value)
    : itemFlagInvalid(item.name, section.name, item.owner, flag, value);
}

/**
 * The error for the first problem in a text that has a malformed group: an
 * unresolvable reference before the group, or else the group itself (as
 * the item's, for an item).
 */
function firstProblem(
  assembly: PromptAssembly,
  text: string,
  sectionIndex: number,
  itemIndex: number,
  checkOwn: boolean,
): PromptError {
  const section = assembly.sections[sectionIndex]!;
  const { parts, offsets, malformed } = compileTemplate(text, section.name);
  const variables = assembly.variables;
  for (let i = 0; i < offsets.length && offsets[i]! < malformed![0]; i++) {
    const name = parts[2 * i + 1]!;
    const value = variables[name];
    if (
      typeof value !== "string" || (checkOwn && !Object.hasOwn(variables, name))
    ) {
      return badReference(assembly, text, sectionIndex, itemIndex, i, value);
    }
  }
  const error = malformedReference(text, section.name, malformed!);
  return itemIndex === -1
    ? error
    : asItemError(error, section.items![itemIndex]!, section.name);
}

/**
 * A parse error of an item's text (which the parser words as its list's),
 * reworded and refielded as the item's.
 */
export function asItemError(
  error: PromptError,
  item: AssembledItem,
  list: string,
): PromptError {
  const prefix = `Cannot render section "${list}": `;
  const message = error.message.startsWith(prefix)
    ? error.message.slice(prefix.length)
    : error.message;
  return new PromptError(
    error.code,
    `Cannot render ${describeItem(item.name, list)}: ${message}`,
    {
      section: list,
      item: item.name,
      reference: error.reference,
      line: error.line,
      column: error.column,
      offset: error.offset,
      ...ownerOf(item),
    },
  );
}

/** The error for reference `index` of a section's or item's text; the cold path. */
function badReference(
  assembly: PromptAssembly,
  text: string,
  sectionIndex: number,
  itemIndex: number,
  index: number,
  value: unknown,
): PromptError {
  const section = assembly.sections[sectionIndex]!;
  const item = itemIndex === -1 ? undefined : section.items![itemIndex]!;
  const { parts, offsets } = compileTemplate(text, section.name);
  const variable = parts[2 * index + 1]!;
  const offset = offsets[index]!;
  const reference = text.slice(offset, text.indexOf("}}", offset) + 2);
  const { line, column } = locate(text, offset);
  const fields = {
    section: section.name,
    variable,
    reference,
    line,
    column,
    offset,
    ...ownerOf(item ?? section),
    ...(item === undefined ? {} : { item: item.name }),
  };
  const problem = referenceProblem(assembly.variables, variable, value)!;
  const where = item === undefined
    ? `section "${section.name}"`
    : describeItem(item.name, section.name);
  return new PromptError(
    problem.code,
    `Cannot render ${where}: ${reference} at ${line}:${column} ${problem.phrase}`,
    problem.suggestion === undefined
      ? fields
      : { ...fields, suggestion: problem.suggestion },
  );
}

function ownerOf(section: { owner?: string }): { owner?: string } {
  return section.owner === undefined ? {} : { owner: section.owner };
}
