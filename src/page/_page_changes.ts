/**
 * The inspector page's "Since the previous step" section: what
 * `comparePrompts` found (the tools, where the system prompts first
 * differ, the prefix break, the runtime context) and the parts only the
 * previous step rendered, named as the library's messages name them.
 *
 * @module
 */

import { describeWhere, type Where } from "../core/_messages.ts";
import type { ChangedPart, PromptComparison } from "../../inspect.ts";
import { escapeHtml } from "./_escape_html.ts";
import type { PageSpan, RemovedPart } from "./_page_spans.ts";

/** A part only the previous step rendered, in the prompt or the context. */
export type Removed = RemovedPart & { kind: "section" | "context" };

/** What the section shows besides the comparison. */
export interface ChangesHow {
  /** The parts only the previous step rendered. */
  readonly removed: readonly Removed[];
  /** Every span of this step, prompt and context, marked by `markChanges`. */
  readonly spans: readonly PageSpan[];
  /** Whether either step has a runtime context. */
  readonly withContext: boolean;
}

/** `where` with the owner and layer that are set. */
function named(where: Where, { owner, layer }: Where): string {
  return describeWhere({
    ...where,
    ...(owner !== undefined && { owner }),
    ...(layer !== undefined && { layer }),
  });
}

/** A changed part: `item "x" of list "tools" of "bash" (added)`. */
function changed(kind: "section" | "context" | "tool", part: ChangedPart) {
  const { name, list, change } = part;
  const where = list === undefined
    ? { [kind]: name }
    : { [kind]: list[0], item: name, list };
  return named(where, part) + (change === "changed" ? "" : ` (${change})`);
}

/** `, first in section "x"` and, inside a list, the item. */
function firstIn(
  kind: "section" | "context",
  [first, item]: [ChangedPart | undefined, ChangedPart | undefined],
): string {
  if (first === undefined) return ".";
  const inside = item === undefined ? "" : `, ${changed(kind, item)}`;
  return `, first in ${changed(kind, first)}${inside}.`;
}

/** The section, as HTML. */
export function changesHtml(
  comparison: PromptComparison,
  { removed, spans, withContext }: ChangesHow,
): string {
  const lines: string[] = [];
  const { tools, context } = comparison;
  if (comparison.identical) {
    lines.push(
      "Identical to the previous step: the provider's prompt cache hits in full.",
    );
  }
  if (tools.changed) {
    const names = (list: string[]) => list.join(", ") || "none";
    const first = tools.firstChanged;
    lines.push(
      `Tools changed: ${names(tools.previous)} → ${names(tools.next)}` +
        (first === undefined ? "" : `; first ${changed("tool", first)}`) +
        ". The tools come first in the cached prefix: the cache misses in full.",
    );
  }
  if (!comparison.identical && comparison.sameText) {
    lines.push(
      tools.changed
        ? "Same system prompt as the previous step."
        : "Same tools and system prompt as the previous step: the provider's prompt cache hits in full.",
    );
  } else if (!comparison.sameText) {
    const { firstChangedSection, firstChangedItem } = comparison;
    lines.push(
      `The text differs from the previous step at character ${comparison.offset}` +
        firstIn("section", [firstChangedSection, firstChangedItem]),
    );
  }
  if (comparison.changedVariables.length > 0) {
    lines.push(`Changed variables: ${comparison.changedVariables.join(", ")}.`);
  }
  if (comparison.prefixBreak !== undefined) {
    lines.push(`Prefix break: ${comparison.prefixBreak.message}.`);
  }
  const count = (change: string) =>
    spans.filter((span) => span.change === change).length;
  const [changes, additions] = [count("changed"), count("added")];
  if (changes + additions > 0) {
    lines.push(
      `${changes} span(s) changed (wavy red underline), ${additions} added (green underline).`,
    );
  }
  if (context.changed) {
    const { firstChangedEntry, firstChangedItem } = context;
    lines.push("The runtime context changed: send it again this step.");
    lines.push(
      `It differs from the previous step's at character ${context.offset}` +
        firstIn("context", [firstChangedEntry, firstChangedItem]),
    );
  } else if (withContext) {
    lines.push("The runtime context is unchanged: no need to send it again.");
  }
  const gone = removed.map((part) => {
    const { kind, section, item, lists = [] } = part;
    const where = item === undefined
      ? { [kind]: section }
      : { [kind]: section, item, list: [section, ...lists] };
    return `<li>${escapeHtml(named(where, { owner: part.owner }))}</li>`;
  });
  return `<section class="changes" id="changes"><h2>Since the previous step</h2>${
    lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")
  }${
    gone.length === 0
      ? ""
      : `<p>Removed:</p><ul class="plain">${gone.join("")}</ul>`
  }</section>`;
}
