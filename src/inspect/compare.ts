/**
 * `comparePrompts`: what changed between two steps, in the order a
 * provider caches a request (tools, then the system prompt), and the
 * runtime context on its own, which no prefix cache covers.
 *
 * @module
 */

import { describeWhere } from "../core/errors.ts";
import { explainPrompt, type ItemExplanation } from "./explain.ts";
import {
  type Change,
  changedKeys,
  defined,
  firstDifference,
  type Part,
  partsOf,
  walk,
} from "./_parts.ts";
import type { PromptAssembly } from "../core/types.ts";

/**
 * A tool, section, context entry or item that differs between two steps,
 * found by matching names in order.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type ChangedPart, comparePrompts } from "@dsh/system-prompt/inspect";
 *
 * const step = (...names: string[]) => ({
 *   sections: names.map((name, order) => ({ name, order, text: name })), tools: [], variables: {},
 * });
 * const removed: ChangedPart | undefined = comparePrompts(step("a", "b"), step("a")).firstChangedSection;
 * assert.deepEqual(removed, { name: "b", index: 1, change: "removed" });
 * ```
 */
export interface ChangedPart {
  /** Its name. */
  name: string;
  /** Its owner; absent for the root registry. */
  owner?: string;
  /** Its layer; absent for a global part. */
  layer?: string;
  /** For an item: the lists above it, from the section (or context entry) down. */
  list?: string[];
  /** Its index in its sequence in the later step (the earlier one when removed). */
  index: number;
  /**
   * `"changed"`: its text, the separator before it, its place, or a tool's
   * description or parameters; `"removed"` includes a part rendered empty.
   */
  change: "changed" | "added" | "removed";
}

/**
 * A section that changed while every section after it stayed the same: its
 * change invalidates the provider's prefix cache for text that did not
 * change. Rendering it last, or making it a context entry, keeps that text
 * cached.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { comparePrompts, type PrefixBreak } from "@dsh/system-prompt/inspect";
 *
 * const at = (time: string) => ({ tools: [], variables: {}, sections: [
 *   { name: "clock", order: 0, text: `It is ${time}.` }, { name: "rules", order: 1, text: "Be brief." },
 * ] });
 * const broken: PrefixBreak | undefined = comparePrompts(at("9:00"), at("9:05")).prefixBreak;
 * assert.deepEqual([broken?.section, broken?.unchangedAfter], ["clock", 1]);
 * ```
 */
export interface PrefixBreak {
  /** The section that changed. */
  section: string;
  /** Its owner; absent for the root registry. */
  owner?: string;
  /** Its layer; absent for a global section. */
  layer?: string;
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
 * @example A change of the runtime context alone
 * ```ts
 * import assert from "node:assert/strict";
 * import { comparePrompts, type PromptComparison } from "@dsh/system-prompt/inspect";
 *
 * const at = (time: string) => ({
 *   sections: [{ name: "rules", order: 0, text: "Be brief." }],
 *   contexts: [{ name: "clock", order: 0, text: `It is ${time}.`, owner: "clock" }],
 *   tools: [],
 *   variables: {},
 * });
 * const comparison: PromptComparison = comparePrompts(at("9:00"), at("9:05"));
 * assert.equal(comparison.identical, false);
 * assert.equal(comparison.sameText, true);
 * assert.equal(comparison.prefixBreak, undefined);
 * assert.deepEqual(comparison.context.firstChangedEntry, {
 *   name: "clock", owner: "clock", index: 0, change: "changed",
 * });
 * ```
 */
export interface PromptComparison {
  /** Whether tools, system prompt and runtime context are all the same. */
  identical: boolean;
  /** Whether the rendered system prompts are equal. */
  sameText: boolean;
  /** Where the system prompts start to differ (never inside a surrogate pair). */
  offset?: number;
  /** The first section that differs, matched by name; a removed one is named as removed. */
  firstChangedSection?: ChangedPart;
  /** Inside a list whose heading and footer did not change: the deepest first changed item. */
  firstChangedItem?: ChangedPart;
  /** Variables whose values differ, or that exist in one step only. */
  changedVariables: string[];
  /** Set when the first changed section was the only change in the system prompt. */
  prefixBreak?: PrefixBreak;
  /** The tools: first in the cached prefix, so any change misses the whole cache. */
  tools: {
    changed: boolean;
    previous: string[];
    next: string[];
    firstChanged?: ChangedPart;
  };
  /** The runtime context, on its own: never a prefix break, `sameText` untouched. */
  context: {
    changed: boolean;
    offset?: number;
    firstChangedEntry?: ChangedPart;
    firstChangedItem?: ChangedPart;
  };
}

/**
 * Compares two assemblies, typically of consecutive steps, in the order a
 * provider caches a request: the tools (names, order, descriptions,
 * parameters), then the system prompt (the first differing section and,
 * inside a list, item, nested lists included; where the texts part; a
 * {@linkcode PrefixBreak}), then the runtime context on its own: a change
 * there is never a prefix break.
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
  const toolsOf = (tools: typeof before.tools, objects: unknown[]) =>
    tools.map((t, i): Part => ({ ...t, key: objects[i] }));
  const tool = walk(
    toolsOf(before.tools, previous.tools),
    toolsOf(after.tools, next.tools),
  );
  const prompt = compareText(before, after);
  const context = compareText(before.context, after.context);
  return defined<PromptComparison>({
    identical: !prompt && !context && !tool,
    sameText: !prompt,
    offset: prompt?.offset,
    firstChangedSection: prompt?.first,
    firstChangedItem: prompt?.item,
    changedVariables: changedKeys(previous.variables, next.variables),
    prefixBreak: prompt?.prefixBreak,
    tools: defined({
      changed: tool !== undefined,
      previous: before.tools.map((t) => t.name),
      next: after.tools.map((t) => t.name),
      firstChanged: tool && changedPart(tool, []),
    }),
    context: defined({
      changed: context !== undefined,
      offset: context?.offset,
      firstChangedEntry: context?.first,
      firstChangedItem: context?.item,
    }),
  });
}

/** The first change between two rendered sequences (the prompt's or the context's). */
function compareText(
  before: { text: string; sections: ItemExplanation[] },
  after: { text: string; sections: ItemExplanation[] },
) {
  if (before.text === after.text) return undefined;
  const offset = firstDifference(before.text, after.text);
  const was = partsOf(before.text, before.sections);
  const is = partsOf(after.text, after.sections);
  const first = walk(was, is);
  // Texts that differ always differ in some part; this guards the walk.
  if (first === undefined) return { offset };
  return {
    offset,
    first: changedPart(first, []),
    item: firstChangedItem(was[first.index], first, []),
    prefixBreak: prefixBreak(was, is, first),
  };
}

function prefixBreak(
  was: readonly Part[],
  is: readonly Part[],
  { change, index, part }: Change,
): PrefixBreak | undefined {
  const [before, after] = [was.slice(index + 1), is.slice(index + 1)];
  if (
    change !== "changed" || was[index]!.name !== part.name ||
    after.length === 0 || before.length !== after.length ||
    after.some((p, i) => p.name !== before[i]!.name || p.key !== before[i]!.key)
  ) return undefined;
  const chars = after.reduce((sum, p) => sum + (p.key as string).length, 0);
  const n = after.length;
  const { name, owner, layer } = part;
  // The owner is named even when absent: "of the root registry".
  const where = describeWhere({
    section: name,
    owner,
    ...(layer && { layer }),
  });
  return defined<PrefixBreak>({
    section: name,
    owner,
    layer,
    unchangedAfter: n,
    charsAfter: chars,
    message: `The change to ${where} invalidates the provider's prefix ` +
      `cache for the ${n} section${n === 1 ? "" : "s"} (${chars} characters) ` +
      "after it, which did not change; give it a higher order so that it " +
      "renders after them, or make it a context entry",
  });
}

/** Inside a list changed in place, its own text unchanged: the deepest first changed item. */
function firstChangedItem(
  was: Part | undefined,
  first: Change,
  path: readonly string[],
): ChangedPart | undefined {
  const is = first.part;
  if (
    first.change !== "changed" || was?.name !== is.name ||
    was.children === undefined || is.children === undefined ||
    was.own !== is.own
  ) return undefined;
  const list = [...path, is.name];
  const item = walk(was.children, is.children);
  return item && (firstChangedItem(was.children[item.index], item, list) ??
    changedPart(item, list));
}

function changedPart({ part, index, change }: Change, list: string[]) {
  const { name, owner, layer } = part;
  return defined<ChangedPart>({
    name,
    owner,
    layer,
    list: list.length === 0 ? undefined : list,
    index,
    change,
  });
}
