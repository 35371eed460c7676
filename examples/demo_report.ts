/**
 * How the demo prints what the library reports: plain-text tables.
 *
 * @module
 */

import type {
  PromptComparison,
  PromptDiagnostic,
  PromptExplanation,
} from "@dsh/system-prompt/inspect";

/** Left-aligned columns, except those listed as numeric (right-aligned). */
export function formatTable(
  rows: string[][],
  numeric: readonly number[] = [],
): string {
  const widths = rows[0]!.map((_, column) =>
    Math.max(...rows.map((row) => row[column]!.length))
  );
  return rows.map((row) =>
    row.map((cell, column) =>
      numeric.includes(column)
        ? cell.padStart(widths[column]!)
        : cell.padEnd(widths[column]!)
    ).join("  ").trimEnd()
  ).join("\n");
}

/** Name, order, owner and characters of each rendered section. */
export function formatSections(explained: PromptExplanation): string {
  return formatTable([
    ["section", "order", "owner", "chars"],
    ...explained.sections.map((
      s,
    ) => [s.name, String(s.order), s.owner ?? "-", String(s.chars)]),
  ], [1, 3]);
}

/** The `--explain` report: who owns which span, what it costs. */
export function formatExplanation(explained: PromptExplanation): string {
  const sections = formatTable([
    ["section", "owner", "order", "span", "chars", "~tokens", "variables"],
    // A list's items follow it, indented: each line with its own owner.
    ...explained.sections.flatMap((s) => [
      explanationRow(s.name, s),
      ...(s.items ?? []).map((item) => explanationRow(`  ${item.name}`, item)),
    ]),
  ], [2, 4, 5]);
  const tools = formatTable([
    ["tool", "owner", "description chars", "parameters chars", "~tokens"],
    ...explained.tools.map((t) => [
      t.name,
      t.owner ?? "-",
      String(t.descriptionChars),
      String(t.parametersChars),
      String(t.tokens),
    ]),
  ], [2, 3, 4]);
  const { totals } = explained;
  return [
    sections,
    explained.dropped.length === 0
      ? ""
      : `dropped (empty): ${explained.dropped.join(", ")}`,
    "",
    tools,
    "",
    `total: ${totals.chars} characters, ~${totals.tokens} tokens in ${totals.sections} sections; ` +
    `${totals.tools} tools, ~${totals.toolTokens} tokens (estimated)`,
  ].filter((line, i, lines) => line !== "" || lines[i - 1] !== "").join("\n");
}

/** One row of the `--explain` table, for a section or an item. */
function explanationRow(
  label: string,
  part: {
    owner?: string;
    order: number;
    start: number;
    end: number;
    chars: number;
    tokens: number;
    variables: string[];
  },
): string[] {
  return [
    label,
    part.owner ?? "-",
    String(part.order),
    `[${part.start}, ${part.end})`,
    String(part.chars),
    String(part.tokens),
    part.variables.join(", ") || "-",
  ];
}

/** The `--check` report: one line a finding. */
export function formatDiagnostics(
  diagnostics: readonly PromptDiagnostic[],
): string {
  if (diagnostics.length === 0) return "check: no findings";
  return diagnostics.map((d) =>
    `${d.severity} ${d.code}${d.owner ? ` [${d.owner}]` : ""}: ${d.message}`
  )
    .join("\n");
}

/** The `--two-step` report: what changed between the steps, and what it cost the cache. */
export function formatComparison(comparison: PromptComparison): string {
  if (comparison.identical) {
    return "step 2 prompt: identical to step 1 (the provider's prompt cache hits in full)";
  }
  const lines: string[] = [];
  if (comparison.sameText) lines.push("step 2 prompt: same text as step 1");
  else {
    const first = comparison.firstChangedSection!;
    const item = comparison.firstChangedItem;
    lines.push(
      `step 2 prompt: differs from step 1 at character ${comparison.offset}, ` +
        `first in section "${first.name}"${
          first.owner ? ` of "${first.owner}"` : ""
        }${first.change === "changed" ? "" : ` (${first.change})`}${
          item
            ? `, item "${item.name}"${item.owner ? ` of "${item.owner}"` : ""}`
            : ""
        }`,
    );
  }
  if (comparison.changedVariables.length > 0) {
    lines.push(`changed variables: ${comparison.changedVariables.join(", ")}`);
  }
  if (comparison.tools.changed) {
    lines.push(
      `tools changed: ${comparison.tools.previous.join(", ")} → ${
        comparison.tools.next.join(", ")
      }`,
    );
  }
  if (comparison.prefixBreak !== undefined) {
    lines.push(`cache: ${comparison.prefixBreak.message}`);
  }
  return lines.join("\n");
}
