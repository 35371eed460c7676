/**
 * Interpolates one text of an assembly (a section's, a list heading, an
 * item's) and words the errors that name where it came from.
 *
 * @module
 */

import { describeItem, invalidLayout } from "../core/_item_errors.ts";
import { PromptError } from "../core/errors.ts";
import type { AssembledItem } from "../core/items.ts";
import type { AssembledSection, PromptAssembly } from "../core/types.ts";
import { referenceProblem } from "./_reference_problem.ts";
import { compileTemplate, locate, malformedReference } from "./_template.ts";

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
  // Fast path: without `{{` there is nothing to interpolate or unescape.
  if (literal || text.indexOf("{{") === -1) return trim ? text.trim() : text;
  const template = compileTemplate(
    text,
    assembly.sections[sectionIndex]!.name,
  );
  if (template.malformed !== undefined) {
    throw firstProblem(assembly, text, sectionIndex, itemIndex, checkOwn);
  }
  const parts = template.parts;
  const variables = assembly.variables;
  let rendered = parts[0]!;
  for (let k = 1; k < parts.length; k += 2) {
    const name = parts[k]!;
    const value = variables[name];
    if (
      typeof value !== "string" || (checkOwn && !Object.hasOwn(variables, name))
    ) {
      throw badReference(assembly, text, sectionIndex, itemIndex, (k - 1) / 2);
    }
    rendered += value + parts[k + 1]!;
  }
  return trim ? rendered.trim() : rendered;
}

/** Whether a section or item is literal; a flag of the wrong type throws. */
export function isLiteral(
  part: { literal?: unknown },
  section: AssembledSection,
  item?: string,
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
  item?: string,
): boolean {
  const trim = part.trim;
  if (trim === undefined || trim === true) return true;
  if (trim === false) return false;
  throw badFlag(section, item, "trim", trim);
}

function badFlag(
  section: AssembledSection,
  item: string | undefined,
  flag: string,
  value: unknown,
): PromptError {
  const field = item === undefined ? flag : `item "${item}"'s ${flag}`;
  return invalidLayout(section.name, section.owner, field, "a boolean", value);
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
    if (
      typeof variables[name] !== "string" ||
      (checkOwn && !Object.hasOwn(variables, name))
    ) {
      return badReference(assembly, text, sectionIndex, itemIndex, i);
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
  const problem = referenceProblem(assembly.variables, variable)!;
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
