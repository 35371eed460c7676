/**
 * A layout a handler left broken, as `checkPrompt` reports it.
 *
 * @module
 */

import { PromptError } from "../core/errors.ts";
import type { AssembledSection } from "../core/types.ts";
import type { PromptDiagnostic } from "./diagnostics.ts";

/**
 * Runs a render step that throws a `PromptError` for a layout field of the
 * wrong type (a separator, a flag, a list), and reports what it threw as
 * an error diagnostic: `invalid-section` naming `section`, or
 * `invalid-value` for the prompt-wide separator. Any other throw is a bug
 * and passes through.
 *
 * @returns Whether it threw.
 */
export function reportLayoutProblem(
  run: () => unknown,
  diagnostics: PromptDiagnostic[],
  section?: AssembledSection,
): boolean {
  try {
    run();
    return false;
  } catch (error) {
    if (!(error instanceof PromptError)) throw error;
    const diagnostic: PromptDiagnostic = {
      code: section === undefined ? "invalid-value" : "invalid-section",
      severity: "error",
      message: error.message,
    };
    if (section !== undefined) {
      diagnostic.section = section.name;
      if (section.owner !== undefined) diagnostic.owner = section.owner;
    }
    diagnostics.push(diagnostic);
    return true;
  }
}
