/**
 * `renderPrompt` and `renderContext`: strict interpolation of an assembly's
 * sections, or of its runtime-context entries, into one text.
 *
 * @module
 */

import type { PromptAssembly } from "../core/types.ts";
import { renderAssembly } from "./_walk.ts";

const SECTIONS = { kind: "section" } as const;
const CONTEXTS = { kind: "context" } as const;

/**
 * Renders an assembly into the system prompt. Each section, in the order
 * the assembly lists them, is interpolated, trimmed, and dropped when
 * empty; the rest are joined with `assembly.separator` (a blank line when
 * absent), or with a section's own `separator` before it. `trim: false`
 * keeps whitespace, `literal: true` text is not interpolated, and a
 * section with `list` renders its heading, its items (each a text or a
 * nested list) and its footer, or its `empty` text when no item remains.
 *
 * A reference is a complete group `{{name}}` (spaces and tabs around the
 * name allowed) whose name is `[A-Za-z_][A-Za-z0-9_]*` segments joined by
 * dots. Its value is the own property `assembly.variables[name]`, inserted
 * verbatim and never interpolated again. `\{{` renders a literal `{{`,
 * `{{\}}` a backslash; a lone `{{` or `}}` passes through as it is.
 *
 * Pure and linear in the text. Parsed texts are kept in a cache keyed by
 * the text and bounded in entries and characters.
 *
 * @param assembly The assembly, usually from `SystemPrompt.assemble()`.
 * @returns The prompt text.
 * @throws {PromptError} `unknown-variable` for a reference to a name that
 * is not a variable of the assembly (with a "did you mean" when one is
 * close), `missing-value` for a variable whose value is `undefined`,
 * `malformed-reference` for a complete group that is not a reference,
 * `invalid-value` for a value that is not a string: each naming the
 * section (or item and list), its owner, the reference and its
 * line:column. `invalid-section` or `invalid-item` for a part a handler
 * left with a field of the wrong kind (an `owner` or `layer` that is not
 * a string too), `invalid-value` for an assembly whose `sections`,
 * `variables` or `separator` are, and for one that throws when read (a
 * revoked proxy, a getter that throws: the error is the `cause`).
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
  return renderAssembly(assembly, SECTIONS);
}

/**
 * Renders an assembly's runtime-context entries (`assembly.contexts`) by
 * the rules of {@linkcode renderPrompt}: strict references, trimming,
 * literal text and lists. Entries are joined with a blank line, or with an
 * entry's own `separator`; `assembly.separator` is the system prompt's and
 * does not apply. The system prompt never includes them: a host sends this
 * text as a message, and only when it changed (see `ContextChannel`).
 *
 * @param assembly The assembly, usually from `SystemPrompt.assemble()`.
 * @returns The context text; `""` when there are no entries or none renders.
 * @throws {PromptError} As `renderPrompt` does, naming the `context` entry
 * where its errors name a `section`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderContext, renderPrompt } from "@dsh/system-prompt";
 *
 * const assembly = {
 *   sections: [{ name: "persona", order: 0, text: "Be brief." }],
 *   contexts: [{ name: "date", order: 0, text: "Today is {{date}}." }],
 *   tools: [],
 *   variables: { date: "2026-12-01" },
 * };
 * assert.equal(renderContext(assembly), "Today is 2026-12-01.");
 * assert.equal(renderPrompt(assembly), "Be brief.");
 * assert.equal(renderContext({ sections: [], tools: [], variables: {} }), "");
 * ```
 */
export function renderContext(assembly: PromptAssembly): string {
  return renderAssembly(assembly, CONTEXTS);
}
