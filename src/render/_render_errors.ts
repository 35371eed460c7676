/**
 * The flags of a section or item, read strictly, and the errors of a text
 * that does not render, each naming where the text came from: the cold
 * path of `_render_text.ts`.
 *
 * @module
 */

import {
  describeItem,
  invalidLayout,
  itemFlagInvalid,
} from "../core/_item_errors.ts";
import { PromptError } from "../core/errors.ts";
import type { AssembledItem } from "../core/types.ts";
import type { AssembledSection, PromptAssembly } from "../core/types.ts";
import { isOwnString, referenceProblem } from "./_reference_problem.ts";
import { compileTemplate, locate, malformedReference } from "./_template.ts";

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
export function firstProblem(
  assembly: PromptAssembly,
  text: string,
  sectionIndex: number,
  itemIndex: number,
  checkOwn: boolean,
): PromptError {
  const section = assembly.sections[sectionIndex]!;
  const { parts, offsets, malformed } = compileTemplate(text);
  const variables = assembly.variables;
  for (let i = 0; i < offsets.length && offsets[i]! < malformed![0]; i++) {
    const name = parts[2 * i + 1]!;
    const value = variables[name];
    if (!isOwnString(variables, name, value, checkOwn)) {
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
export function badReference(
  assembly: PromptAssembly,
  text: string,
  sectionIndex: number,
  itemIndex: number,
  index: number,
  value: unknown,
): PromptError {
  const section = assembly.sections[sectionIndex]!;
  const item = itemIndex === -1 ? undefined : section.items![itemIndex]!;
  const { parts, offsets } = compileTemplate(text);
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
