/**
 * `comparePrompts`: what changed between two steps, in the order a
 * provider caches a request (tools, then the system prompt), and the
 * runtime context on its own, which no prefix cache covers; and how it
 * compares plain values (structural equality, the keys whose values
 * differ, where two texts first differ).
 *
 * @module
 */

import { describeWhere, unreadable } from "../core/_messages.ts";
import type { PromptAssembly } from "../core/types.ts";
import { explainPrompt } from "./explain.ts";
import { type Explained, type Part, partsOf } from "./_sequence.ts";
import type { PromptExplanation } from "./explanation.ts";
import { defined } from "../core/_defined.ts";

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
 * @throws {PromptError} If either assembly does not render, or does not
 * explain (`tools` that are not an array); `invalid-value` for one that
 * throws when read.
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
  try {
    return compare(previous, next);
  } catch (error) {
    throw unreadable(error, {
      action: "compare the prompts",
      what: "an assembly",
    });
  }
}

function compare(
  previous: PromptAssembly,
  next: PromptAssembly,
): PromptComparison {
  const [before, after] = [explainPrompt(previous), explainPrompt(next)];
  const tools = ({ tools }: PromptExplanation, objects: unknown[]) =>
    tools.map((t, i): Keyed => ({ ...t, key: objects[i], list: [], own: "" }));
  const tool = walk(tools(before, previous.tools), tools(after, next.tools));
  const prompt = compareText(before, after);
  const context = compareText(before.context, after.context);
  return defined({
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
      firstChanged: tool && changedPart(tool),
    }),
    context: defined({
      changed: context !== undefined,
      offset: context?.offset,
      firstChangedEntry: context?.first,
      firstChangedItem: context?.item,
    }),
  });
}

/** A part (or a tool, its key the tool) as the walk compares it: by name, then by key. */
type Keyed = Pick<Part, "name" | "owner" | "layer" | "list" | "own"> & Kin;
type Kin = { key: unknown; children?: Keyed[] };
/** The first difference of two sequences; `was` when a part changed in place. */
type Change = { change: Kind; part: Keyed; index: number; was?: Keyed };
type Kind = ChangedPart["change"];

/** The first change between two rendered sequences (the prompt's or the context's). */
function compareText(before: Explained, after: Explained) {
  if (before.text === after.text) return undefined;
  const [was, is] = [partsOf(before), partsOf(after)];
  // Texts that differ differ in some part: the parts and separators tile them.
  const first = walk(was, is)!;
  const [rest, later] = [was.slice(first.index + 1), is.slice(first.index + 1)];
  // A break: it changed in place, and every part after it is the same.
  const broke = first.was && later.length > 0 && !walk(rest, later);
  return {
    offset: firstDifference(before.text, after.text),
    first: changedPart(first),
    item: firstChangedItem(first),
    prefixBreak: broke ? prefixBreak(first.part, later) : undefined,
  };
}

/** The finding when `part` changed and the `after` parts behind it did not. */
function prefixBreak({ name, owner, layer }: Keyed, after: Keyed[]) {
  const chars = after.reduce((sum, p) => sum + (p.key as string).length, 0);
  const n = after.length;
  // The owner is named even when absent: "of the root registry".
  const what = describeWhere({ section: name, owner, ...(layer && { layer }) });
  return defined({
    section: name,
    owner,
    layer,
    unchangedAfter: n,
    charsAfter: chars,
    message: `The change to ${what} invalidates the provider's prefix cache ` +
      `for the ${n} section${n === 1 ? "" : "s"} (${chars} characters) after ` +
      "it, which did not change; give it a higher order so that it renders " +
      "after them, or make it a context entry",
  });
}

/**
 * Walks both sequences in order, matching parts by name: the first pair
 * that differs, a part only `before` has (removed), or one only `after`
 * has (added). A part both have at different places is `changed` where
 * `after` has it.
 */
function walk(before: Keyed[], after: Keyed[]): Change | undefined {
  const among = (parts: Keyed[], { name }: Keyed) =>
    parts.some((part) => part.name === name);
  for (let index = 0; index < Math.max(before.length, after.length); index++) {
    const [a, b] = [before[index], after[index]]; // `before`'s, `after`'s
    if (b === undefined) return { change: "removed", part: a!, index };
    if (a === undefined) return { change: "added", part: b, index };
    if (a.name === b.name && same(a.key, b.key)) continue;
    if (a.name === b.name) return { change: "changed", part: b, index, was: a };
    if (!among(after, a)) return { change: "removed", part: a, index };
    return { change: among(before, b) ? "changed" : "added", part: b, index };
  }
  return undefined;
}

/** Inside a list changed in place, its own text unchanged: the deepest first changed item. */
function firstChangedItem({ was, part }: Change): ChangedPart | undefined {
  const [a, b] = [was?.children, part.children];
  if (!a || !b || was!.own !== part.own) return undefined;
  const item = walk(a, b);
  return item && (firstChangedItem(item) ?? changedPart(item));
}

function changedPart({ part, index, change }: Change): ChangedPart {
  const { name, owner, layer } = part;
  const list = part.list.length === 0 ? undefined : part.list;
  return defined({ name, owner, layer, list, index, change });
}

/** Where `a` and `b` first differ, moved off the middle of a surrogate pair. */
function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  // The texts agree before `i`: a pair ending at `i` in either is cut.
  const cut = (text: string) => (text.codePointAt(i - 1) ?? 0) > 0xffff;
  return cut(a) || cut(b) ? i - 1 : i;
}

/** Structural equality of JSON-like values; cycles and BigInts are fine. */
function same(x: unknown, y: unknown, seen = new Map()): boolean {
  if (Object.is(x, y)) return true;
  if (!x || !y || typeof x !== "object" || typeof y !== "object") return false;
  if (Array.isArray(x) !== Array.isArray(y)) return false;
  if (seen.get(x) === y) return true;
  seen.set(x, y);
  const [p, q] = [x as Record<string, unknown>, y as Record<string, unknown>];
  const keys = Object.keys(p);
  return keys.length === Object.keys(q).length &&
    keys.every((key) => Object.hasOwn(q, key) && same(p[key], q[key], seen));
}

/** The own keys whose values differ between two objects (a non-object has none). */
function changedKeys(previous: unknown, next: unknown): string[] {
  const own = (values: unknown): Record<string, unknown> => ({
    ...(typeof values === "object" ? values : {}),
  });
  const [a, b] = [own(previous), own(next)];
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) =>
    Object.hasOwn(a, key) !== Object.hasOwn(b, key) || a[key] !== b[key]
  );
}
