/**
 * `escapeTemplate`: text that nobody on the team wrote, made safe to embed
 * in a template.
 *
 * @module
 */

import { describeValue } from "../core/_describe.ts";
import { typeFailure } from "../core/_messages.ts";

/**
 * Escapes `text` so that a template renders it exactly. Each `{{`, scanning
 * left to right, becomes `\{{`; each backslash at the very end (or before
 * a final `{`) becomes `{{\}}` (a backslash), so that a reference right
 * after it still opens:
 * `escapeTemplate("C:\\") + "{{file}}"` renders `C:\` and the value.
 * Nothing else changes.
 *
 * For every string `x`, a section with `trim: false` whose text is
 * `escapeTemplate(x)` renders `x`; and `before + escapeTemplate(x) + after`
 * renders as `before`, then `x`, then `after` render, for template texts
 * `before` and `after` that do not reach across the joins: `before` must
 * not end with `{` or `\` nor leave a `{{` open, and `after` must not start
 * with a single `{`. Text that needs no reference around it is simpler as a
 * `literal` section or item.
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
 * const render = (text: string) =>
 *   renderPrompt({ sections: [{ name: "s", order: 0, text }], tools: [], variables: { cwd: "/repo", v: "x" } });
 * assert.equal(render("From {{cwd}}/AGENTS.md:\n" + escapeTemplate(file)), "From /repo/AGENTS.md:\n" + file);
 * assert.equal(render(escapeTemplate("C:\\") + "{{v}}"), "C:\\x");
 * ```
 */
export function escapeTemplate(text: string): string {
  if (typeof text !== "string") {
    const problem = `expected a string, got ${describeValue(text)}`;
    throw typeFailure({ action: "escape template text", problem });
  }
  const escaped = text.replaceAll("{{", "\\{{");
  // A backslash at the end would pair with a `{{` after it, and so would
  // one before a final `{` (with that brace): each becomes `{{\}}`.
  let end = escaped.length;
  while (
    escaped[end - 1] === "\\" ||
    escaped[end - 1] === "{" && escaped[end - 2] === "\\"
  ) end--;
  return escaped.slice(0, end) + escaped.slice(end).replaceAll("\\", "{{\\}}");
}
