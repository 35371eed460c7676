/**
 * `escapeTemplate`: text that nobody on the team wrote, made safe to embed
 * in a template section.
 *
 * @module
 */

import { describeValue } from "../core/errors.ts";

/**
 * Escapes `text` so that a section renders it exactly: for every string
 * `x`, a section with `trim: false` whose text is `escapeTemplate(x)`
 * renders `x`. Each `{{`, scanning left to right, becomes `\{{`, the one
 * escape of the grammar; nothing else changes, so braces, backslashes and
 * `}}` elsewhere are kept as they are.
 *
 * Use it to put untrusted text (an `AGENTS.md`, a skill description) inside
 * a template that also has references. Text that needs no reference around
 * it is simpler as a `literal` section or item. Join the escaped text to
 * template text at a boundary that is not a `{`: a `{` written just before
 * it could pair with a `{` it starts with.
 *
 * @param text Any string.
 * @returns The template text that renders as `text`.
 * @throws {TypeError} If `text` is not a string.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeTemplate, renderPrompt } from "@dsh/system-prompt";
 *
 * const file = "Deploy with ${{ secrets.DEPLOY_TOKEN }} from {{cwd}}.";
 * const text = renderPrompt({
 *   sections: [{ name: "agents-md", order: 0, text: "From {{cwd}}/AGENTS.md:\n" + escapeTemplate(file) }],
 *   tools: [],
 *   variables: { cwd: "/repo" },
 * });
 * assert.equal(text, "From /repo/AGENTS.md:\n" + file);
 * ```
 */
export function escapeTemplate(text: string): string {
  if (typeof text !== "string") {
    throw new TypeError(
      `Cannot escape template text: expected a string, got ${
        describeValue(text)
      }`,
    );
  }
  // Fast path: without `{{` nothing can open a group or an escape.
  return text.indexOf("{{") === -1 ? text : text.replaceAll("{{", "\\{{");
}
