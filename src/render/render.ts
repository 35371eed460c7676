/**
 * `renderPrompt`: strict interpolation of an assembly into the prompt text.
 *
 * @module
 */

import { describeValue } from "../core/_describe_value.ts";
import { PromptError } from "../core/errors.ts";
import type { PromptAssembly } from "../core/types.ts";
import { referenceProblem } from "./_reference_problem.ts";
import { compileTemplate, locate, malformedReference } from "./_template.ts";

const SECTION_SEPARATOR = "\n\n";

/**
 * Renders an assembly into the full system prompt: each section in the order
 * the assembly lists them is interpolated, trimmed, and dropped when empty;
 * the rest are joined with one blank line.
 *
 * A reference is a complete group `{{name}}` (spaces and tabs around the
 * name allowed) whose name is `[A-Za-z_][A-Za-z0-9_]*` segments joined by
 * dots. Its value is the own property `assembly.variables[name]`, inserted
 * verbatim and never interpolated again. `\{{` renders a literal `{{`; a
 * lone `{{` or `}}` passes through as it is.
 *
 * Pure and linear in the text; parsed section texts are cached (bounded), so
 * unchanged sections are not parsed again on the next step.
 *
 * @param assembly The assembly, usually from `SystemPrompt.assemble()`.
 * @returns The prompt text.
 * @throws {PromptError} `unknown-variable` for a reference to a name that
 * is not a variable of the assembly (with a "did you mean" when one is
 * close), `missing-value` for a variable whose value is `undefined`,
 * `malformed-reference` for a complete group that is not a reference,
 * `invalid-value` for a non-string value, `invalid-section` for a
 * non-string section text. Each names the section, the reference and its
 * line:column.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderPrompt } from "@dsh/system-prompt";
 *
 * const prompt = renderPrompt({
 *   sections: [
 *     { name: "persona", order: 0, text: "You are {{ model }}." },
 *     { name: "empty", order: 50, text: "  " },
 *     { name: "tool:bash", order: 105, text: "Quote \\{{name}} literally." },
 *   ],
 *   tools: [],
 *   variables: { model: "m-1" },
 * });
 * assert.equal(prompt, "You are m-1.\n\nQuote {{name}} literally.");
 * ```
 */
export function renderPrompt(assembly: PromptAssembly): string {
  const checkOwn = needsOwnCheck(assembly.variables);
  const sections = assembly.sections;
  let prompt = "";
  for (let i = 0; i < sections.length; i++) {
    const rendered = renderSection(assembly, i, checkOwn);
    if (rendered === "") continue;
    prompt = prompt === "" ? rendered : prompt + SECTION_SEPARATOR + rendered;
  }
  return prompt;
}

/**
 * Whether lookups in `variables` must check for own properties: a
 * registry-built null-prototype object has nothing else.
 */
export function needsOwnCheck(variables: object): boolean {
  return Object.getPrototypeOf(variables) !== null;
}

/**
 * Section `index` of `assembly`, interpolated and trimmed: the step shared
 * by `renderPrompt` and `explainPrompt`.
 *
 * @throws {PromptError} As `renderPrompt` does.
 */
export function renderSection(
  assembly: PromptAssembly,
  index: number,
  checkOwn: boolean,
): string {
  const section = assembly.sections[index]!;
  const text = section.text;
  if (typeof text !== "string") {
    throw new PromptError(
      "invalid-section",
      `Cannot render section "${section.name}": its text is ${
        describeValue(text)
      }, not a string`,
      { section: section.name, ...ownerOf(section) },
    );
  }
  // Fast path: without `{{` there is nothing to interpolate or unescape.
  if (text.indexOf("{{") === -1) return text.trim();
  const template = compileTemplate(text, section.name);
  if (template.malformed !== undefined) {
    throw firstProblem(assembly, index, checkOwn, template.malformed);
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
      throw badReference(assembly, index, (k - 1) / 2);
    }
    rendered += value + parts[k + 1]!;
  }
  return rendered.trim();
}

/**
 * The error for the first problem in the text of section `sectionIndex`,
 * which has a malformed group: an unresolvable reference before the group,
 * or else the group itself.
 */
function firstProblem(
  assembly: PromptAssembly,
  sectionIndex: number,
  checkOwn: boolean,
  malformed: readonly [number, number],
): PromptError {
  const section = assembly.sections[sectionIndex]!;
  const { parts, offsets } = compileTemplate(section.text, section.name);
  const variables = assembly.variables;
  for (let i = 0; i < offsets.length && offsets[i]! < malformed[0]; i++) {
    const name = parts[2 * i + 1]!;
    if (
      typeof variables[name] !== "string" ||
      (checkOwn && !Object.hasOwn(variables, name))
    ) {
      return badReference(assembly, sectionIndex, i);
    }
  }
  return malformedReference(section.text, section.name, malformed);
}

/** The error for reference `index` of section `sectionIndex`; the cold path. */
function badReference(
  assembly: PromptAssembly,
  sectionIndex: number,
  index: number,
): PromptError {
  const section = assembly.sections[sectionIndex]!;
  const text = section.text;
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
    ...ownerOf(section),
  };
  const problem = referenceProblem(assembly.variables, variable)!;
  return new PromptError(
    problem.code,
    `Cannot render section "${section.name}": ${reference} at ${line}:${column} ${problem.phrase}`,
    problem.suggestion === undefined
      ? fields
      : { ...fields, suggestion: problem.suggestion },
  );
}

function ownerOf(section: { owner?: string }): { owner?: string } {
  return section.owner === undefined ? {} : { owner: section.owner };
}
