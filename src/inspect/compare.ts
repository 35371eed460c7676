/**
 * `comparePrompts`: what changed between two steps' prompts, and whether the
 * change needlessly broke the model provider's prefix cache.
 *
 * @module
 */

import { describeOwner } from "../core/_errors.ts";
import { explainPrompt, type PromptExplanation } from "./explain.ts";
import type { PromptAssembly } from "../core/types.ts";

/**
 * A section that changed while every section after it stayed the same: its
 * change invalidates the provider's prefix cache for text that did not
 * change. Giving it a higher order (rendering it last) would keep that text
 * cached.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { comparePrompts, type PrefixBreak } from "@dsh/system-prompt/inspect";
 *
 * const at = (time: string) => ({
 *   sections: [
 *     { name: "clock", order: 0, text: `It is ${time}.` },
 *     { name: "rules", order: 1, text: "Be brief." },
 *   ],
 *   tools: [],
 *   variables: {},
 * });
 * const broken: PrefixBreak | undefined = comparePrompts(at("9:00"), at("9:05")).prefixBreak;
 * assert.deepEqual([broken?.section, broken?.unchangedAfter], ["clock", 1]);
 * ```
 */
export interface PrefixBreak {
  /** The section that changed. */
  section: string;
  /** Its owner; absent for the root registry. */
  owner?: string;
  /** How many sections after it did not change. */
  unchangedAfter: number;
  /** How many characters after it did not change but lose the cache. */
  charsAfter: number;
  /** The finding, for people. */
  message: string;
}

/**
 * What {@linkcode comparePrompts} returns.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { comparePrompts, type PromptComparison } from "@dsh/system-prompt/inspect";
 *
 * const same = { sections: [], tools: [], variables: {} };
 * const comparison: PromptComparison = comparePrompts(same, same);
 * assert.equal(comparison.identical, true);
 * ```
 */
export interface PromptComparison {
  /** Whether the two render to the same text and list the same tools in the same order. */
  identical: boolean;
  /** Whether the rendered texts are equal. */
  sameText: boolean;
  /** Index of the first character where the rendered texts differ. */
  offset?: number;
  /** The first section (in `next`, or in `previous` if it is gone) that differs. */
  firstChangedSection?: { name: string; owner?: string; index: number };
  /** Variables whose values differ, or that exist in one assembly only. */
  changedVariables: string[];
  /** Set when the first changed section was the only change in the text. */
  prefixBreak?: PrefixBreak;
  /** The tool names of both, and whether the names or their order changed. */
  tools: { changed: boolean; previous: string[]; next: string[] };
}

/**
 * Compares two assemblies, typically of consecutive steps: whether they
 * render identically; if not, the first differing section, the character
 * offset where the texts start to differ, the variables whose values
 * changed, and a {@linkcode PrefixBreak} when a section changed while every
 * section after it stayed the same. Tool name or order changes are reported
 * too: providers cache tools before the system prompt.
 *
 * @param previous The earlier assembly.
 * @param next The later one.
 * @returns The comparison.
 * @throws {PromptError} If either assembly does not render.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 * import { comparePrompts } from "@dsh/system-prompt/inspect";
 *
 * const prompt = new SystemPrompt<{ date: string }>();
 * prompt.scope("clock").variable("date", (context) => context.date);
 * prompt.section({ name: "persona", order: 0, text: "Today is {{date}}." });
 * prompt.section({ name: "tool:bash", order: 105, text: "Check exit codes." });
 * const comparison = comparePrompts(
 *   await prompt.assemble({ date: "2026-11-30" }),
 *   await prompt.assemble({ date: "2026-12-01" }),
 * );
 * assert.equal(comparison.offset, 15); // "Today is 2026-1" is the same
 * assert.deepEqual(comparison.changedVariables, ["date"]);
 * assert.equal(comparison.prefixBreak?.section, "persona");
 * ```
 */
export function comparePrompts(
  previous: PromptAssembly,
  next: PromptAssembly,
): PromptComparison {
  const before = explainPrompt(previous);
  const after = explainPrompt(next);
  const previousTools = previous.tools.map((tool) => tool.name);
  const nextTools = next.tools.map((tool) => tool.name);
  const toolsChanged = previousTools.length !== nextTools.length ||
    previousTools.some((name, i) => name !== nextTools[i]);
  const sameText = before.text === after.text;
  const comparison: PromptComparison = {
    identical: sameText && !toolsChanged,
    sameText,
    changedVariables: changedVariables(previous.variables, next.variables),
    tools: { changed: toolsChanged, previous: previousTools, next: nextTools },
  };
  if (sameText) return comparison;
  comparison.offset = firstDifference(before.text, after.text);
  const index = firstChangedSection(before, after);
  const changed = after.sections[index] ?? before.sections[index]!;
  comparison.firstChangedSection = changed.owner === undefined
    ? { name: changed.name, index }
    : { name: changed.name, owner: changed.owner, index };
  const prefixBreak = findPrefixBreak(before, after, index);
  if (prefixBreak !== undefined) comparison.prefixBreak = prefixBreak;
  return comparison;
}

function firstDifference(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function sectionText(explained: PromptExplanation, index: number): string {
  const section = explained.sections[index]!;
  return explained.text.slice(section.start, section.end);
}

function sameSection(
  a: PromptExplanation,
  b: PromptExplanation,
  index: number,
): boolean {
  return a.sections[index]?.name === b.sections[index]?.name &&
    sectionText(a, index) === sectionText(b, index);
}

function firstChangedSection(
  a: PromptExplanation,
  b: PromptExplanation,
): number {
  let index = 0;
  while (
    index < a.sections.length && index < b.sections.length &&
    sameSection(a, b, index)
  ) index++;
  return index;
}

/** The changed section at `index`, if everything after it is unchanged. */
function findPrefixBreak(
  before: PromptExplanation,
  after: PromptExplanation,
  index: number,
): PrefixBreak | undefined {
  const section = after.sections[index];
  if (
    section === undefined || before.sections.length !== after.sections.length ||
    before.sections[index]!.name !== section.name
  ) return undefined;
  for (let i = index + 1; i < after.sections.length; i++) {
    if (!sameSection(before, after, i)) return undefined;
  }
  const unchangedAfter = after.sections.length - index - 1;
  if (unchangedAfter === 0) return undefined;
  const charsAfter = after.text.length - section.end;
  const found: PrefixBreak = {
    section: section.name,
    unchangedAfter,
    charsAfter,
    message:
      `Section "${section.name}" of ${
        describeOwner(section.owner)
      } changed while the ${unchangedAfter} ` +
      `section${
        unchangedAfter === 1 ? "" : "s"
      } after it did not: the change invalidates ` +
      `the provider's prefix cache for ${charsAfter} characters that did not change; ` +
      `give it a higher order so that it renders after them`,
  };
  if (section.owner !== undefined) found.owner = section.owner;
  return found;
}

function changedVariables(
  previous: Record<string, string | undefined>,
  next: Record<string, string | undefined>,
): string[] {
  const hasOwn = Object.prototype.hasOwnProperty;
  const names = new Set([...Object.keys(previous), ...Object.keys(next)]);
  return [...names].filter((name) =>
    hasOwn.call(previous, name) !== hasOwn.call(next, name) ||
    previous[name] !== next[name]
  );
}
