/**
 * Diagnostics on an assembly: what `SystemPrompt.check()` reports before
 * the first step.
 *
 * @module
 */

import { closestName } from "./closest_name.ts";
import { describeOwner, PromptError } from "./errors.ts";
import { referencedVariables } from "./explain.ts";
import { needsOwnCheck, renderSection } from "./render.ts";
import { sentences } from "./sentences.ts";
import { toolOwner } from "./tool_owner.ts";
import type { PromptAssembly } from "./types.ts";

/**
 * What a diagnostic is about.
 *
 * | code | severity | finding |
 * | --- | --- | --- |
 * | `assemble-failed` | error | `assemble()` rejected; nothing else was checked |
 * | `malformed-reference` | error | a complete `{{…}}` group that is not a reference |
 * | `unknown-variable` | error | a reference to a variable no one registered |
 * | `missing-value` | error | a reference to a variable with no value in this context |
 * | `unused-variable` | warning | a registered variable that no section references |
 * | `duplicate-sentence` | warning | one sentence in two sections, or in a section and a tool description: two owners for one fact |
 * | `tool-guidance-band` | warning | tool guidance (a `tool:` section, or a section of a scope that provides tools) outside orders 100–199 |
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { DiagnosticCode } from "@dsh/system-prompt";
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
  | "unused-variable"
  | "duplicate-sentence"
  | "tool-guidance-band";

/**
 * One finding of `SystemPrompt.check()`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type PromptDiagnostic, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * prompt.scope("git").variable("branch", () => "main");
 * const [diagnostic]: PromptDiagnostic[] = await prompt.check();
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
  /** The section at fault. */
  section?: string;
  /** The variable at fault. */
  variable?: string;
  /** The tool at fault. */
  tool?: string;
}

const TOOL_BAND = { min: 100, max: 199 };

/** Where a sentence was seen, to name both places of a duplicate. */
interface Place {
  label: string;
  owner: string | undefined;
  key: string;
}

/**
 * Checks an assembly: every reference resolves, every registered variable
 * is used, no sentence has two owners, tool guidance sits in its band.
 *
 * @param variableOwners The registered variables and their owners.
 */
export function diagnose(
  assembly: PromptAssembly,
  variableOwners: ReadonlyMap<string, string | undefined>,
): PromptDiagnostic[] {
  const diagnostics: PromptDiagnostic[] = [];
  const add = (diagnostic: PromptDiagnostic, owner: string | undefined) => {
    if (owner !== undefined) diagnostic.owner = owner;
    diagnostics.push(diagnostic);
  };
  const { variables } = assembly;
  const hasOwn = Object.prototype.hasOwnProperty;
  const referenced = new Set<string>();
  const seen = new Map<string, Place>();
  const flagged = new Set<string>();
  const compareSentences = (text: string, place: Place) => {
    for (const sentence of sentences(text)) {
      const first = seen.get(sentence);
      if (first === undefined) seen.set(sentence, place);
      else if (
        first.key !== place.key &&
        !flagged.has(`${first.key}|${place.key}|${sentence}`)
      ) {
        flagged.add(`${first.key}|${place.key}|${sentence}`);
        add({
          code: "duplicate-sentence",
          severity: "warning",
          message:
            `The sentence ${
              JSON.stringify(sentence)
            } appears in ${first.label} of ` +
            `${describeOwner(first.owner)} and in ${place.label} of ${
              describeOwner(place.owner)
            }: ` +
            `one fact, two owners`,
          ...(place.key.startsWith("section:")
            ? { section: place.key.slice(8) }
            : {}),
          ...(place.key.startsWith("tool:")
            ? { tool: place.key.slice(5) }
            : {}),
        }, place.owner);
      }
    }
  };

  const toolOwners = new Set(
    assembly.tools.map(toolOwner).filter((owner) => owner !== undefined),
  );
  const checkOwn = needsOwnCheck(variables);
  for (let i = 0; i < assembly.sections.length; i++) {
    const { name, order, text, owner } = assembly.sections[i]!;
    let names: string[];
    try {
      names = referencedVariables(text, name);
    } catch (error) {
      if (!(error instanceof PromptError)) throw error;
      add({
        code: "malformed-reference",
        severity: "error",
        message: error.message,
        section: name,
      }, owner);
      continue;
    }
    let resolvable = true;
    for (const variable of names) {
      referenced.add(variable);
      if (!hasOwn.call(variables, variable)) {
        resolvable = false;
        const suggestion = closestName(variable, Object.keys(variables));
        add({
          code: "unknown-variable",
          severity: "error",
          message:
            `Section "${name}" references variable "${variable}", which no one registered` +
            (suggestion === undefined ? "" : `; did you mean "${suggestion}"?`),
          section: name,
          variable,
        }, owner);
      } else if (variables[variable] === undefined) {
        resolvable = false;
        add({
          code: "missing-value",
          severity: "error",
          message:
            `Section "${name}" references variable "${variable}", which has no value ` +
            `in this context`,
          section: name,
          variable,
        }, owner);
      }
    }
    const isToolGuidance = name.startsWith("tool:") ||
      (owner !== undefined && toolOwners.has(owner));
    if (isToolGuidance && (order < TOOL_BAND.min || order > TOOL_BAND.max)) {
      add({
        code: "tool-guidance-band",
        severity: "warning",
        message:
          `Section "${name}" of ${
            describeOwner(owner)
          } is tool guidance at order ${order}, ` +
          `outside the tool band ${TOOL_BAND.min}–${TOOL_BAND.max}`,
        section: name,
      }, owner);
    }
    if (resolvable) {
      const rendered = renderSection(assembly, i, checkOwn);
      compareSentences(rendered, {
        label: `section "${name}"`,
        owner,
        key: `section:${name}`,
      });
    }
  }
  for (const tool of assembly.tools) {
    compareSentences(tool.description, {
      label: `the description of tool "${tool.name}"`,
      owner: toolOwner(tool),
      key: `tool:${tool.name}`,
    });
  }
  for (const [variable, owner] of variableOwners) {
    if (referenced.has(variable)) continue;
    add({
      code: "unused-variable",
      severity: "warning",
      message: `Variable "${variable}" of ${
        describeOwner(owner)
      } is referenced by no section`,
      variable,
    }, owner);
  }
  return diagnostics;
}
