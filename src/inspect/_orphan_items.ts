/**
 * Items whose list is not a live section declaring `list`: registered, and
 * never rendered.
 *
 * @module
 */

import { describeOwner } from "../core/errors.ts";
import type { PromptRegistrations } from "../core/types.ts";
import type { PromptDiagnostic } from "./diagnostics.ts";

/** An `orphan-item` warning for each item and item provider without a list. */
export function orphanItems(
  registrations: PromptRegistrations,
): PromptDiagnostic[] {
  const lists = new Set(
    registrations.sections.filter((s) => s.list === true).map((s) => s.name),
  );
  const why = (list: string) =>
    `list "${list}", which is not a live section declaring \`list\`: it is never rendered`;
  const diagnostics: PromptDiagnostic[] = [];
  for (const { list, name, owner } of registrations.items) {
    if (lists.has(list)) continue;
    const diagnostic: PromptDiagnostic = {
      code: "orphan-item",
      severity: "warning",
      message: `Item "${name}" of ${describeOwner(owner)} is in ${why(list)}`,
      item: name,
    };
    if (owner !== undefined) diagnostic.owner = owner;
    diagnostics.push(diagnostic);
  }
  for (const { list, owner } of registrations.itemProviders) {
    if (lists.has(list)) continue;
    const diagnostic: PromptDiagnostic = {
      code: "orphan-item",
      severity: "warning",
      message: `An item provider of ${describeOwner(owner)} contributes to ${
        why(list)
      }`,
    };
    if (owner !== undefined) diagnostic.owner = owner;
    diagnostics.push(diagnostic);
  }
  return diagnostics;
}
