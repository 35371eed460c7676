/**
 * `comparePrompts`: what changed between two steps, in the order a
 * provider caches a request (tools, then the system prompt), and the
 * runtime context on its own, which no prefix cache covers.
 *
 * @module
 */

import { describeWhere } from "../core/errors.ts";
import type { PromptAssembly } from "../core/types.ts";
import {
  explainPrompt,
  type ItemExplanation,
  type PromptExplanation,
} from "./explain.ts";
import { defined, ownText } from "./_parts.ts";

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
  const [before, after] = [explainPrompt(previous), explainPrompt(next)];
  const toolsOf = ({ tools }: PromptExplanation, objects: unknown[]) =>
    tools.map((t, i): Part => ({ ...t, key: objects[i] }));
  const tool = walk(
    toolsOf(before, previous.tools),
    toolsOf(after, next.tools),
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

/**
 * A rendered part (or a tool) as the walk compares it: by name, then by key
 * (its separator and text, or the tool); a list has its own text (heading,
 * footer) and its items as children.
 */
type Part = Named & { key: unknown; own?: string; children?: Part[] };
/** What names a part: for an item, `list` holds the lists above it. */
type Named = Pick<ChangedPart, "name" | "owner" | "layer" | "list">;

/** The first difference of two sequences; `was` when a part changed in place. */
type Change = { change: Kind; part: Part; index: number; was?: Part };
type Kind = ChangedPart["change"];

type Rendered = PromptExplanation["context"];

/** The first change between two rendered sequences (the prompt's or the context's). */
function compareText(before: Rendered, after: Rendered) {
  if (before.text === after.text) return undefined;
  const was = partsOf(before);
  const is = partsOf(after);
  // Texts that differ differ in some part: the parts and separators tile them.
  const first = walk(was, is)!;
  const [earlier, later] = [was, is].map((all) => all.slice(first.index + 1));
  const unchanged = first.was !== undefined && later!.length > 0 &&
    later!.length === earlier!.length &&
    later!.every((p, i) =>
      p.name === earlier![i]!.name && p.key === earlier![i]!.key
    );
  return {
    offset: firstDifference(before.text, after.text),
    first: changedPart(first),
    item: firstChangedItem(first),
    prefixBreak: unchanged ? prefixBreak(first.part, later!) : undefined,
  };
}

/** The finding when `part` changed and the `after` parts behind it did not. */
function prefixBreak({ name, owner, layer }: Part, after: Part[]) {
  const chars = after.reduce((sum, p) => sum + (p.key as string).length, 0);
  const n = after.length;
  // The owner is named even when absent: "of the root registry".
  const what = describeWhere({ section: name, owner, ...(layer && { layer }) });
  return defined<PrefixBreak>({
    section: name,
    owner,
    layer,
    unchangedAfter: n,
    charsAfter: chars,
    message: `The change to ${what} invalidates the provider's prefix ` +
      `cache for the ${n} section${n === 1 ? "" : "s"} (${chars} characters) ` +
      "after it, which did not change; give it a higher order so that it " +
      "renders after them, or make it a context entry",
  });
}

/** Each rendered part with the separator before it as its key; a list's items as children. */
function partsOf({ text, sections }: Rendered): Part[] {
  const of = (parts: ItemExplanation[], list: string[]): Part[] =>
    parts.map((part) => ({
      ...part,
      list,
      key: text.slice(part.separatorStart, part.end),
      ...(part.items && {
        own: ownText(text, part),
        children: of(part.items, [...list, part.name]),
      }),
    }));
  return of(sections, []);
}

/**
 * Walks both sequences in order, matching parts by name: the first pair
 * that differs, a part only `before` has (removed), or one only `after`
 * has (added). A part both have at different places is `changed` where
 * `after` has it.
 */
function walk(before: Part[], after: Part[]): Change | undefined {
  const had = new Set(before.map((part) => part.name));
  const has = new Set(after.map((part) => part.name));
  for (let index = 0; index < Math.max(before.length, after.length); index++) {
    const [was, is] = [before[index], after[index]];
    if (is === undefined) return { change: "removed", part: was!, index };
    if (was === undefined) return { change: "added", part: is, index };
    if (was.name !== is.name) {
      if (!has.has(was.name)) return { change: "removed", part: was, index };
      return {
        change: had.has(is.name) ? "changed" : "added",
        part: is,
        index,
      };
    }
    if (!same(was.key, is.key)) {
      return { change: "changed", part: is, index, was };
    }
  }
  return undefined;
}

/** Inside a list changed in place, its own text unchanged: the deepest first changed item. */
function firstChangedItem({ was, part }: Change): ChangedPart | undefined {
  if (!was?.children || !part.children || was.own !== part.own) {
    return undefined;
  }
  const item = walk(was.children, part.children);
  return item && (firstChangedItem(item) ?? changedPart(item));
}

function changedPart({ part, index, change }: Change): ChangedPart {
  const { name, owner, layer, list } = part;
  const lists = list?.length ? list : undefined;
  return defined<ChangedPart>({
    name,
    owner,
    layer,
    list: lists,
    index,
    change,
  });
}

/** Where `a` and `b` first differ, moved off the middle of a surrogate pair. */
function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const low = (code: number) => code >= 0xdc00 && code <= 0xdfff;
  const high = a.charCodeAt(i - 1) >= 0xd800 && a.charCodeAt(i - 1) <= 0xdbff;
  return high && (low(a.charCodeAt(i)) || low(b.charCodeAt(i))) ? i - 1 : i;
}

/** Structural equality of JSON-like values; cycles and BigInts are fine. */
function same(a: unknown, b: unknown): boolean {
  const seen = new Map<object, unknown>();
  const equal = (a: unknown, b: unknown): boolean => {
    if (Object.is(a, b)) return true;
    if (
      typeof a !== "object" || typeof b !== "object" || a === null ||
      b === null || Array.isArray(a) !== Array.isArray(b)
    ) return false;
    if (seen.get(a) === b) return true;
    seen.set(a, b);
    const [x, y] = [a, b] as Record<string, unknown>[];
    const keys = Object.keys(x!);
    return keys.length === Object.keys(y!).length &&
      keys.every((key) => Object.hasOwn(y!, key) && equal(x![key], y![key]));
  };
  return equal(a, b);
}

/** The own keys whose values differ between two objects (a non-object has none). */
function changedKeys(previous: unknown, next: unknown): string[] {
  const own = (values: unknown): Record<string, unknown> =>
    typeof values === "object" && values !== null ? { ...values } : {};
  const [a, b] = [own(previous), own(next)];
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) =>
    Object.hasOwn(a, key) !== Object.hasOwn(b, key) || a[key] !== b[key]
  );
}
