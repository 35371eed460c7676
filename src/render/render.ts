/**
 * `renderPrompt`: strict interpolation of an assembly into the prompt text.
 *
 * @module
 */

import { describeValue } from "../core/errors.ts";
import { PromptError } from "../core/errors.ts";
import { invalidLayout } from "../core/_item_errors.ts";
import type { AssembledSection, PromptAssembly } from "../core/types.ts";
import { joinPieces } from "./_recent_prompts.ts";
import { renderList } from "./_render_list.ts";
import { isLiteral, trims } from "./_render_errors.ts";
import { renderText } from "./_render_text.ts";

const SECTION_SEPARATOR = "\n\n";

/**
 * Renders an assembly into the full system prompt: each section in the order
 * the assembly lists them is interpolated, trimmed, and dropped when empty;
 * the rest are joined with one blank line. The layout options of SPEC §7
 * change that: `assembly.separator` and a section's `separator` replace the
 * blank line, `trim: false` keeps whitespace, `literal: true` text is not
 * interpolated, and a `list` section renders its heading and items.
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
  const separator = promptSeparator(assembly);
  const sections = assembly.sections;
  // A new array each render: filling a young array costs no write barrier,
  // and a changed prompt keeps it as its pieces without a copy.
  const pieces = new Array<string>(2 * sections.length);
  let count = 0;
  for (let i = 0; i < sections.length; i++) {
    const rendered = renderSection(assembly, i, checkOwn);
    if (rendered === "") continue;
    // Checked even when unused (first section), so a bad one never hides.
    const before = sectionSeparator(sections[i]!, separator);
    if (count > 0) pieces[count++] = before;
    pieces[count++] = rendered;
  }
  pieces.length = count;
  return joinPieces(pieces);
}

/**
 * Whether lookups in `variables` must check for own properties: a
 * registry-built null-prototype object has nothing else.
 */
export function needsOwnCheck(variables: object): boolean {
  return Object.getPrototypeOf(variables) !== null;
}

/** The assembly's separator between sections: `"\n\n"` when absent. */
export function promptSeparator(assembly: PromptAssembly): string {
  const separator = assembly.separator;
  if (separator === undefined) return SECTION_SEPARATOR;
  if (typeof separator !== "string") {
    throw invalidLayout(
      undefined,
      undefined,
      "separator",
      "a string",
      separator,
    );
  }
  return separator;
}

/**
 * What goes before `section` when an earlier one rendered.
 *
 * @throws {PromptError} `invalid-section` for a separator that is not a string.
 */
export function sectionSeparator(
  section: AssembledSection,
  separator: string,
): string {
  const own = section.separator;
  if (own === undefined) return separator;
  if (typeof own !== "string") {
    throw invalidLayout(
      section.name,
      section.owner,
      "separator",
      "a string",
      own,
    );
  }
  return own;
}

/**
 * Section `index` of `assembly`, rendered: interpolated (unless literal)
 * and trimmed (unless `trim: false`), or a list with its items. The step
 * shared by `renderPrompt` and `explainPrompt`.
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
  if (
    section.list === undefined && section.trim === undefined &&
    section.literal === undefined
  ) {
    // Fast path: the default layout.
    return renderText(assembly, text, false, true, checkOwn, index, -1);
  }
  if (section.list !== undefined) return renderList(assembly, index, checkOwn);
  return renderText(
    assembly,
    text,
    isLiteral(section, section),
    trims(section, section),
    checkOwn,
    index,
    -1,
  );
}

function ownerOf(section: { owner?: string }): { owner?: string } {
  return section.owner === undefined ? {} : { owner: section.owner };
}

/**
 * Renders the runtime context of an assembly (its `contexts`) by the rules
 * of {@linkcode renderPrompt}; `""` when none renders. Never part of the
 * system prompt: the host sends it as a message.
 *
 * @param assembly The assembly.
 * @returns The context text.
 * @throws {PromptError} As `renderPrompt()` does.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderContext } from "@dsh/system-prompt";
 *
 * const contexts = [{ name: "date", order: 0, text: "Today is {{date}}." }];
 * assert.equal(renderContext({ sections: [], contexts, tools: [], variables: { date: "Monday" } }), "Today is Monday.");
 * ```
 */
export function renderContext(assembly: PromptAssembly): string {
  return renderPrompt({ ...assembly, sections: assembly.contexts ?? [] });
}
