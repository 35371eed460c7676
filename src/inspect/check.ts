/**
 * `checkPrompt`: what would go wrong, or read worse, before the first step.
 *
 * @module
 */

import { describeValue } from "../core/errors.ts";
import { describeOwner, messageOf } from "../core/errors.ts";
import { PromptError } from "../core/errors.ts";
import type { AssembleArgs } from "../core/types.ts";
import type { SystemPrompt } from "../registry/system_prompt.ts";
import { toolOwner } from "../core/tool_owner.ts";
import type { AssembledItem } from "../core/types.ts";
import type { AssembledSection, PromptAssembly } from "../core/types.ts";
import { describeItem } from "../core/_item_errors.ts";
import { referenceProblem } from "../render/_reference_problem.ts";
import { type ListParts, listParts } from "../render/_render_list.ts";
import { asItemError } from "../render/_render_errors.ts";
import { compileTemplate, malformedReference } from "../render/_template.ts";
import {
  needsOwnCheck,
  promptSeparator,
  renderSection,
  sectionSeparator,
} from "../render/render.ts";
import { DuplicateSentences } from "./_duplicate_sentences.ts";
import { reportLayoutProblem } from "./_layout_problem.ts";
import { orphanItems } from "./_orphan_items.ts";
import type { DiagnosticCode, PromptDiagnostic } from "./diagnostics.ts";

const TOOL_BAND = { min: 100, max: 199 };

/** Assembly errors a diagnostic reports under their own code. */
const REPORTED = [
  "invalid-value",
  "invalid-section",
  "invalid-item",
  "orphan-item",
] as const;

/**
 * Diagnoses a registry before the first step: assembles it for `context`
 * and reports references that would fail (in sections and list items;
 * literal text has none), variables no section or item uses, the same
 * sentence under two owners, tool guidance outside its band, and items
 * whose list does not exist (`orphan-item`).
 *
 * @typeParam C The registry's context type.
 * @param prompt The registry.
 * @param args The context (`{}` when left out), then assemble options.
 * @returns The diagnostics, errors and warnings in prompt order; empty when
 * there is nothing to report. It never rejects: a failing assembly is the
 * one diagnostic `assemble-failed`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 * import { checkPrompt } from "@dsh/system-prompt/inspect";
 *
 * const prompt = new SystemPrompt();
 * prompt.scope("agent-loop").variable("model", () => "m-1");
 * prompt.scope("agent-loop").section({ name: "agent:persona", order: 0, text: "I am {{modle}}." });
 * prompt.scope("bash").section({ name: "tool:bash", order: 5, text: "Check exit codes." });
 * const codes = (await checkPrompt(prompt)).map((d) => `${d.code} ${d.owner}`);
 * assert.deepEqual(codes, [
 *   "unknown-variable agent-loop",
 *   "tool-guidance-band bash",
 *   "unused-variable agent-loop",
 * ]);
 * ```
 */
export async function checkPrompt<C>(
  prompt: SystemPrompt<C>,
  ...args: AssembleArgs<C>
): Promise<PromptDiagnostic[]> {
  // Taken first: the registrations this assembly resolves.
  const registrations = prompt.registrations();
  const { variables } = registrations;
  let assembly: PromptAssembly;
  try {
    assembly = await prompt.assemble(...args);
  } catch (error) {
    // A rule the assembly broke keeps its own code; anything else is
    // that the first step would fail.
    const code = error instanceof PromptError &&
        (REPORTED as readonly string[]).includes(error.code)
      ? error.code as DiagnosticCode
      : "assemble-failed";
    const diagnostic: PromptDiagnostic = {
      code,
      severity: "error",
      message: messageOf(error),
    };
    if (error instanceof PromptError) {
      for (
        const key of ["owner", "section", "item", "variable", "tool"] as const
      ) {
        if (error[key] !== undefined) diagnostic[key] = error[key];
      }
    }
    return [diagnostic];
  }
  const owners = new Map(variables.map((v) => [v.name, v.owner]));
  return [...diagnose(assembly, owners), ...orphanItems(registrations)];
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
  const duplicates = new DuplicateSentences(diagnostics);
  const referenced = new Set<string>();
  const toolOwners = new Set(assembly.tools.map(toolOwner));
  const checkOwn = needsOwnCheck(assembly.variables);
  const layoutProblem = (run: () => unknown, section?: AssembledSection) =>
    reportLayoutProblem(run, diagnostics, section);
  layoutProblem(() => promptSeparator(assembly));
  for (let i = 0; i < assembly.sections.length; i++) {
    const section = assembly.sections[i]!;
    if (layoutProblem(() => sectionSeparator(section, ""), section)) continue;
    let resolvable = checkReferences(
      assembly,
      section,
      undefined,
      referenced,
      diagnostics,
    );
    const items = section.list !== undefined && Array.isArray(section.items)
      ? section.items
      : [];
    for (const item of items) {
      resolvable = checkReferences(
        assembly,
        section,
        item,
        referenced,
        diagnostics,
      ) && resolvable;
    }
    checkToolBand(section, toolOwners, diagnostics);
    if (!resolvable) continue;
    const place = { owner: section.owner, section: section.name };
    const label = `section "${section.name}"`;
    if (section.list === undefined) {
      let text = "";
      // A flag of the wrong type, left by a handler.
      if (
        layoutProblem(
          () => text = renderSection(assembly, i, checkOwn),
          section,
        )
      ) continue;
      duplicates.add(text, { ...place, label });
      continue;
    }
    let parts: ListParts | undefined;
    // A list field of the wrong type, left by a handler.
    if (
      layoutProblem(() => parts = listParts(assembly, i, checkOwn), section)
    ) continue;
    parts = parts!;
    duplicates.add(parts.heading, { ...place, label });
    for (const { index, text } of parts.items) {
      const item = items[index]!;
      duplicates.add(text, {
        label: describeItem(item.name, section.name),
        owner: item.owner,
        section: section.name,
        item: item.name,
      });
    }
  }
  for (const tool of assembly.tools) {
    duplicates.add(tool.description, {
      label: `the description of tool "${tool.name}"`,
      owner: toolOwner(tool),
      tool: tool.name,
    });
  }
  for (const [variable, owner] of variableOwners) {
    if (referenced.has(variable)) continue;
    diagnostics.push(withOwner({
      code: "unused-variable",
      severity: "warning",
      message: `Variable "${variable}" of ${
        describeOwner(owner)
      } is referenced by no section`,
      variable,
    }, owner));
  }
  return diagnostics;
}

/**
 * Reports the malformed group, unresolvable references or non-string text
 * of a section (or of one of its items), and records the names it
 * references (all of them, those after a malformed group too; none for
 * literal text). Whether it renders.
 */
function checkReferences(
  assembly: PromptAssembly,
  section: AssembledSection,
  item: AssembledItem | undefined,
  referenced: Set<string>,
  diagnostics: PromptDiagnostic[],
): boolean {
  const name = section.name;
  if (item !== undefined && (typeof item !== "object" || item === null)) {
    // A handler left it; renderPrompt would throw invalid-section.
    diagnostics.push(withOwner({
      code: "invalid-section",
      severity: "error",
      message: `Section "${name}" has ${
        describeValue(item)
      } among its items, not an item`,
      section: name,
    }, section.owner));
    return false;
  }
  const part = item ?? section;
  const text: unknown = part.text;
  const at = (diagnostic: PromptDiagnostic) => {
    if (item !== undefined) diagnostic.item = item.name;
    diagnostics.push(withOwner(diagnostic, part.owner));
  };
  const where = item === undefined
    ? `Section "${name}"`
    : `Item "${item.name}" of list "${name}"`;
  if (typeof text !== "string") {
    // A handler left it; renderPrompt would throw invalid-section (or -item).
    at({
      code: item === undefined ? "invalid-section" : "invalid-item",
      severity: "error",
      message: `${where} has ${describeValue(text)} as its text, not a string`,
      section: name,
    });
    return false;
  }
  if (part.literal === true || text.indexOf("{{") === -1) return true;
  const { parts, malformed } = compileTemplate(text);
  let resolvable = malformed === undefined;
  if (malformed !== undefined) {
    const error = malformedReference(text, name, malformed);
    at({
      code: "malformed-reference",
      severity: "error",
      message: (item === undefined ? error : asItemError(error, item, name))
        .message,
      section: name,
    });
  }
  const seen = new Set<string>();
  for (let k = 1; k < parts.length; k += 2) {
    const variable = parts[k]!;
    if (seen.has(variable)) continue;
    seen.add(variable);
    referenced.add(variable);
    const problem = referenceProblem(
      assembly.variables,
      variable,
      assembly.variables[variable],
    );
    if (problem === undefined) continue;
    resolvable = false;
    at({
      code: problem.code,
      severity: "error",
      message: `${where} ${problem.phrase}`,
      section: name,
      variable,
    });
  }
  return resolvable;
}

/** Tool guidance (a `tool:` section, or one of a scope that provides tools) belongs in 100–199. */
function checkToolBand(
  section: AssembledSection,
  toolOwners: ReadonlySet<string | undefined>,
  diagnostics: PromptDiagnostic[],
): void {
  const { name, order, owner } = section;
  const isToolGuidance = name.startsWith("tool:") ||
    (owner !== undefined && toolOwners.has(owner));
  if (!isToolGuidance || (order >= TOOL_BAND.min && order <= TOOL_BAND.max)) {
    return;
  }
  diagnostics.push(withOwner({
    code: "tool-guidance-band",
    severity: "warning",
    message:
      `Section "${name}" of ${
        describeOwner(owner)
      } is tool guidance at order ${order}, ` +
      `outside the tool band ${TOOL_BAND.min}–${TOOL_BAND.max}`,
    section: name,
  }, owner));
}

function withOwner(
  diagnostic: PromptDiagnostic,
  owner: string | undefined,
): PromptDiagnostic {
  if (owner !== undefined) diagnostic.owner = owner;
  return diagnostic;
}
