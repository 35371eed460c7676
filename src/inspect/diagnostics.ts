/**
 * What `checkPrompt()` reports: the diagnostic codes and their shape.
 *
 * @module
 */

import type { PromptErrorCode } from "../core/errors.ts";

/**
 * What a diagnostic is about: a {@linkcode PromptErrorCode} for what
 * rendering the assembly would throw (`unknown-variable`, `missing-value`,
 * `malformed-reference`, `invalid-value`, `invalid-section`, …), and these:
 *
 * | code | severity | finding |
 * | --- | --- | --- |
 * | `assemble-failed` | error | `assemble()` rejected (its code in `errorCode`); nothing else was checked for that context |
 * | `check-failed` | error | the check itself could not read a value (a getter that throws); nothing else was checked |
 * | `orphan-item` | error | `assemble()` rejected for an item (or item provider) whose list is no live list: the first one, with its owner, item and the closest list; nothing else was checked for that context |
 * | `unused-variable` | warning | a registered variable no section, context entry or item references in any checked context |
 * | `duplicate-sentence` | warning | one sentence in two parts, or in a part and a tool description: two owners for one fact |
 * | `tool-guidance-band` | warning | tool guidance (a `tool:` section, or a section of a scope that provides tools) outside orders 100–199 |
 * | `volatile-section` | warning | a section or item with stability `"step"` in the system prompt: it belongs in a context entry |
 * | `unknown-tool-order` | warning | a `toolOrder` name that no tool provider returns in any checked context |
 * | `unpinned-tool` | warning | with `toolPins` configured for the checked chain, a tool of an assembly without a pin: its owner can change it unnoticed |
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
  | PromptErrorCode
  | `${"assemble" | "check"}-failed`
  | "unused-variable"
  | "duplicate-sentence"
  | "tool-guidance-band"
  | "volatile-section"
  | "unknown-tool-order"
  | "unpinned-tool";

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
 *   message: 'No section, context entry or item of the checked context references variable "branch" of "git"',
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
  /** The layer of the part at fault, when it has one. */
  layer?: string;
  /** The section at fault (for an item, its top-level list). */
  section?: string;
  /** The context entry at fault (for an item, its top-level list). */
  context?: string;
  /** The item at fault. */
  item?: string;
  /** The variable at fault. */
  variable?: string;
  /** The tool at fault. */
  tool?: string;
  /** The assemble handler at fault. */
  handler?: string;
  /** A close name ("did you mean"). */
  suggestion?: string;
  /** For `assemble-failed`: the code `assemble()` rejected with. */
  errorCode?: PromptErrorCode;
  /**
   * When several contexts were checked and the finding comes from their
   * assemblies: the indexes (in checked order) of those it holds for.
   */
  contexts?: number[];
}
