/**
 * What `checkPrompt()` reports: the diagnostic codes and their shape.
 *
 * @module
 */

/**
 * What a diagnostic is about.
 *
 * | code | severity | finding |
 * | --- | --- | --- |
 * | `assemble-failed` | error | `assemble()` rejected; nothing else was checked |
 * | `malformed-reference` | error | a complete `{{…}}` group that is not a reference |
 * | `unknown-variable` | error | a reference to a variable no one registered |
 * | `missing-value` | error | a reference to a variable with no value in this context |
 * | `invalid-value` | error | a reference to a variable whose value a handler made a non-string, or a prompt-wide `separator` a handler made a non-string |
 * | `invalid-section` | error | a section whose text a handler made a non-string, or whose layout (`separator`, a flag, `list`, `items`) it left of the wrong type |
 * | `invalid-item` | error | a list item whose text a handler made a non-string |
 * | `unused-variable` | warning | a registered variable that no section references |
 * | `duplicate-sentence` | warning | one sentence in two sections, or in a section and a tool description: two owners for one fact |
 * | `tool-guidance-band` | warning | tool guidance (a `tool:` section, or a section of a scope that provides tools) outside orders 100–199 |
 * | `orphan-item` | warning | an item (or item provider) whose list is not a live section declaring `list`: it is never rendered |
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { DiagnosticCode } from "@dsh/system-prompt/inspect";
 *
 * const code: DiagnosticCode = "unused-variable";
 * assert.equal(code, "unused-variable");
 * ```
 */
export type DiagnosticCode =
  | "assemble-failed"
  | "malformed-reference"
  | "unknown-variable"
  | "missing-value"
  | "invalid-value"
  | "invalid-section"
  | "invalid-item"
  | "unused-variable"
  | "duplicate-sentence"
  | "tool-guidance-band"
  | "orphan-item";

/**
 * One finding of `checkPrompt()`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 * import { checkPrompt, type PromptDiagnostic } from "@dsh/system-prompt/inspect";
 *
 * const prompt = new SystemPrompt();
 * prompt.scope("git").variable("branch", () => "main");
 * const [diagnostic]: PromptDiagnostic[] = await checkPrompt(prompt);
 * assert.deepEqual(diagnostic, {
 *   code: "unused-variable",
 *   severity: "warning",
 *   owner: "git",
 *   variable: "branch",
 *   message: 'Variable "branch" of "git" is referenced by no section',
 * });
 * ```
 */
export interface PromptDiagnostic {
  /** What it is about. */
  code: DiagnosticCode;
  /** `error`: the first step would fail; `warning`: it would work, worse. */
  severity: "error" | "warning";
  /** The finding, for people. */
  message: string;
  /** The owner of the part at fault, when it has one. */
  owner?: string;
  /** The section at fault (for an item, its list). */
  section?: string;
  /** The item at fault. */
  item?: string;
  /** The variable at fault. */
  variable?: string;
  /** The tool at fault. */
  tool?: string;
}
