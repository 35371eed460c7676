/**
 * `comparePrompts`: what changed between two steps' prompts, and whether the
 * change needlessly broke the model provider's prefix cache.
 *
 * @module
 */

import { describeOwner } from "../core/errors.ts";
import {
  explainPrompt,
  type PromptExplanation,
  type SectionExplanation,
} from "./explain.ts";
import {
  type FirstChange,
  firstChange,
  firstDifference,
  type Part,
} from "./_first_change.ts";
import type { PromptAssembly } from "../core/types.ts";

/**
 * A section or item that differs between two steps, found by matching
 * names in prompt order.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type ChangedPart, comparePrompts } from "@dsh/system-prompt/inspect";
 *
 * const step = (...names: string[]) => ({
 *   sections: names.map((name, order) => ({ name, order, text: name })),
 *   tools: [],
 *   variables: {},
 * });
 * const removed: ChangedPart | undefined = comparePrompts(step("a", "b", "c"), step("a", "c"))
 *   .firstChangedSection;
 * assert.deepEqual(removed, { name: "b", index: 1, change: "removed" });
 * ```
 */
export interface ChangedPart {
  /** The section's or item's name. */
  name: string;
  /** Its owner; absent for the root registry. */
  owner?: string;
  /**
   * Its index among the rendered sections (or the list's rendered items)
   * of `next`, or of `previous` when it was removed.
   */
  index: number;
  /**
   * `"changed"`: both steps render it, differently (its text, the
   * separator before it, or its place); `"added"`: only `next` renders it;
   * `"removed"`: only `previous` does (it was unregistered, or rendered
   * empty).
   */
  change: "changed" | "added" | "removed";
}

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
  /**
   * Index of the first character where the rendered texts differ; never
   * between the two halves of a surrogate pair.
   */
  offset?: number;
  /** The first section that differs, matched by name; a removed one is named as removed. */
  firstChangedSection?: ChangedPart;
  /** When the first change is inside a list (its heading unchanged): the first item that differs. */
  firstChangedItem?: ChangedPart;
  /** Variables whose values differ, or that exist in one assembly only. */
  changedVariables: string[];
  /** Set when the first changed section was the only change in the text. */
  prefixBreak?: PrefixBreak;
  /** The tool names of both, and whether the names or their order changed. */
  tools: { changed: boolean; previous: string[]; next: string[] };
}

/**
 * Compares two assemblies, typically of consecutive steps: whether they
 * render identically; if not, the first differing section (matched by
 * name; a removed one is reported as removed) and, inside a list, the
 * first differing item, the character offset where the texts start to
 * differ, the variables whose values
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
  const first = firstChange(sectionParts(before), sectionParts(after));
  // Texts that differ always differ in some part; this guards the walk.
  if (first === undefined) return comparison;
  comparison.firstChangedSection = changedPart(first);
  const item = firstChangedItem(before, after, first);
  if (item !== undefined) comparison.firstChangedItem = item;
  const prefixBreak = findPrefixBreak(before, after, first);
  if (prefixBreak !== undefined) comparison.prefixBreak = prefixBreak;
  return comparison;
}

/** Each rendered section with the separator before it. */
function sectionParts(explained: PromptExplanation): Part[] {
  return explained.sections.map((section) =>
    part(section, explained.text.slice(section.separatorStart, section.end))
  );
}

function part(of: { name: string; owner?: string }, text: string): Part {
  return of.owner === undefined
    ? { name: of.name, text }
    : { name: of.name, owner: of.owner, text };
}

function changedPart(first: FirstChange): ChangedPart {
  const { name, owner } = first.part;
  const index = first.change === "removed" ? first.before : first.after;
  return owner === undefined
    ? { name, index, change: first.change }
    : { name, owner, index, change: first.change };
}

/** The first differing item of a list that both steps render with the same heading. */
function firstChangedItem(
  before: PromptExplanation,
  after: PromptExplanation,
  first: FirstChange,
): ChangedPart | undefined {
  if (first.change !== "changed") return undefined;
  const was = before.sections[first.before]!;
  const is = after.sections[first.after]!;
  if (
    was.name !== is.name || was.items === undefined || is.items === undefined ||
    heading(before.text, was) !== heading(after.text, is)
  ) return undefined;
  const items = (explained: PromptExplanation, section: SectionExplanation) =>
    section.items!.map((item) =>
      part(item, explained.text.slice(item.separatorStart, item.end))
    );
  const change = firstChange(items(before, was), items(after, is));
  return change === undefined ? undefined : changedPart(change);
}

/** A list's rendered text before its first item (all of it when it has none). */
function heading(text: string, section: SectionExplanation): string {
  const end = section.items?.[0]?.separatorStart ?? section.end;
  return text.slice(section.start, end);
}

/** The changed section, if it kept its name and everything after it is unchanged. */
function findPrefixBreak(
  before: PromptExplanation,
  after: PromptExplanation,
  first: FirstChange,
): PrefixBreak | undefined {
  if (first.change !== "changed") return undefined;
  const section = after.sections[first.after]!;
  if (before.sections[first.before]!.name !== section.name) return undefined;
  const rest = (explained: PromptExplanation, from: number) =>
    sectionParts(explained).slice(from + 1);
  const was = rest(before, first.before);
  const is = rest(after, first.after);
  if (
    was.length !== is.length ||
    was.some((p, i) => p.name !== is[i]!.name || p.text !== is[i]!.text)
  ) return undefined;
  const unchangedAfter = is.length;
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
