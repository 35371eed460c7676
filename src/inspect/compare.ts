/**
 * `comparePrompts`: what changed between two steps, in the order a
 * provider caches a request (tools, then the system prompt), and the
 * runtime context on its own, which no prefix cache covers.
 *
 * @module
 */

import { describeWhere } from "../core/errors.ts";
import {
  explainPrompt,
  type ItemExplanation,
  type PromptExplanation,
} from "./explain.ts";
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
  /** Its name. */
  name: string;
  /** Its owner; absent for the root registry. */
  owner?: string;
  /** Its layer; absent for a global part. */
  layer?: string;
  /**
   * For an item: the names of the lists above it, from the section (or
   * context entry) down to the item's own list.
   */
  list?: string[];
  /**
   * Its index among the rendered parts of its sequence (tools, sections,
   * context entries or one list's items) in the later step, or in the
   * earlier one when it was removed.
   */
  index: number;
  /**
   * `"changed"`: both steps have it, differently (its text, the separator
   * before it, its place, or a tool's description or parameters);
   * `"added"`: only the later step has it; `"removed"`: only the earlier
   * one does (unregistered, or rendered empty).
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
 * How the runtime contexts of two steps differ. A context is sent as a
 * message after the conversation, so its change never breaks the cached
 * prefix.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { comparePrompts, type ContextComparison } from "@dsh/system-prompt/inspect";
 *
 * const at = (time: string) => ({
 *   sections: [{ name: "rules", order: 0, text: "Be brief." }],
 *   contexts: [{ name: "clock", order: 0, text: `It is ${time}.`, owner: "clock" }],
 *   tools: [],
 *   variables: {},
 * });
 * const context: ContextComparison = comparePrompts(at("9:00"), at("9:05")).context;
 * assert.deepEqual(context.firstChangedEntry, { name: "clock", owner: "clock", index: 0, change: "changed" });
 * ```
 */
export interface ContextComparison {
  /** Whether the rendered context texts differ. */
  changed: boolean;
  /** Index of the first character where they differ (never inside a surrogate pair). */
  offset?: number;
  /** The first context entry that differs, matched by name. */
  firstChangedEntry?: ChangedPart;
  /** When that change is inside a list: the deepest first item that differs. */
  firstChangedItem?: ChangedPart;
}

/**
 * How the tools of two steps differ. Providers cache tools before the
 * system prompt: any change here misses the cache for the whole request.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { comparePrompts, type ToolComparison } from "@dsh/system-prompt/inspect";
 *
 * const step = (description: string) => ({
 *   sections: [],
 *   tools: [{ name: "bash", description, parameters: {} }],
 *   variables: {},
 * });
 * const tools: ToolComparison = comparePrompts(step("Runs."), step("Runs a command.")).tools;
 * assert.deepEqual(tools.firstChanged, { name: "bash", index: 0, change: "changed" });
 * ```
 */
export interface ToolComparison {
  /** Whether the names, their order, or a description or parameters changed. */
  changed: boolean;
  /** The earlier step's tool names, in order. */
  previous: string[];
  /** The later step's tool names, in order. */
  next: string[];
  /** The first tool that differs, matched by name. */
  firstChanged?: ChangedPart;
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
  /** Whether tools, system prompt and runtime context are all the same. */
  identical: boolean;
  /** Whether the rendered system prompts are equal. */
  sameText: boolean;
  /**
   * Index of the first character where the system prompts differ; never
   * between the two halves of a surrogate pair.
   */
  offset?: number;
  /** The first section that differs, matched by name; a removed one is named as removed. */
  firstChangedSection?: ChangedPart;
  /**
   * When the first changed section is a list whose own text (heading,
   * footer) is unchanged: its first item that differs, descending into
   * nested lists down to the deepest one.
   */
  firstChangedItem?: ChangedPart;
  /** Variables whose values differ, or that exist in one step only. */
  changedVariables: string[];
  /** Set when the first changed section was the only change in the system prompt. */
  prefixBreak?: PrefixBreak;
  /** The tools, compared first: they come first in the cached prefix. */
  tools: ToolComparison;
  /** The runtime context, compared on its own: never a prefix break. */
  context: ContextComparison;
  /** What changed and what it costs the prompt cache, in one sentence. */
  summary: string;
}

/** A rendered part of one sequence, as the walk compares it. */
interface Part {
  readonly name: string;
  readonly owner: string | undefined;
  readonly layer: string | undefined;
  /** What must be equal: the text with the separator before it, or a tool. */
  readonly key: unknown;
  /** A list's own text (heading, footer); its items are `children`. */
  readonly own?: string;
  readonly children?: readonly Part[];
}

interface Change {
  readonly change: ChangedPart["change"];
  readonly part: Part;
  readonly index: number;
}

/**
 * Compares two assemblies, typically of consecutive steps, in the order a
 * provider caches a request: the tools (names, order, descriptions and
 * parameters), then the system prompt (the first differing section,
 * matched by name, and inside a list the first differing item, nested
 * lists included; the offset where the texts part; a
 * {@linkcode PrefixBreak} when a section changed while everything after it
 * stayed the same), then the runtime context on its own: a change there is
 * never a prefix break.
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
  const toolChange = firstChange(
    toolParts(before, previous),
    toolParts(after, next),
  );
  const tools: ToolComparison = {
    changed: toolChange !== undefined,
    previous: before.tools.map((tool) => tool.name),
    next: after.tools.map((tool) => tool.name),
  };
  if (toolChange !== undefined) tools.firstChanged = changedPart(toolChange);
  const sameText = before.text === after.text;
  const comparison: PromptComparison = {
    identical: false,
    sameText,
    changedVariables: changedVariables(previous.variables, next.variables),
    tools,
    context: compareContexts(before, after),
    summary: "",
  };
  comparison.identical = sameText && !tools.changed &&
    !comparison.context.changed;
  if (!sameText) {
    comparison.offset = firstDifference(before.text, after.text);
    const was = partsOf(before.text, before.sections);
    const is = partsOf(after.text, after.sections);
    const first = firstChange(was, is);
    // Texts that differ always differ in some part; this guards the walk.
    if (first !== undefined) {
      comparison.firstChangedSection = changedPart(first);
      const item = firstChangedItem(was[first.index], first, []);
      if (item !== undefined) comparison.firstChangedItem = item;
      const found = prefixBreak(was, is, first);
      if (found !== undefined) comparison.prefixBreak = found;
    }
  }
  comparison.summary = summary(comparison);
  return comparison;
}

function compareContexts(
  before: PromptExplanation,
  after: PromptExplanation,
): ContextComparison {
  const { text: was } = before.context;
  const { text: is } = after.context;
  if (was === is) return { changed: false };
  const context: ContextComparison = {
    changed: true,
    offset: firstDifference(was, is),
  };
  const from = partsOf(was, before.context.sections);
  const first = firstChange(from, partsOf(is, after.context.sections));
  if (first === undefined) return context;
  context.firstChangedEntry = changedPart(first);
  const item = firstChangedItem(from[first.index], first, []);
  if (item !== undefined) context.firstChangedItem = item;
  return context;
}

/** Each rendered part with the separator before it; a list's items as children. */
function partsOf(text: string, parts: readonly ItemExplanation[]): Part[] {
  return parts.map((part) => {
    const key = text.slice(part.separatorStart, part.end);
    const { name, owner, layer, items } = part;
    if (items === undefined) return { name, owner, layer, key };
    let own = "";
    let at = part.start;
    for (const item of items) {
      own += text.slice(at, item.separatorStart);
      at = item.end;
    }
    own += text.slice(at, part.end);
    return { name, owner, layer, key, own, children: partsOf(text, items) };
  });
}

/** The tools (explained, so validated) with the assembly's objects to compare. */
function toolParts(explained: PromptExplanation, assembly: PromptAssembly) {
  return explained.tools.map((tool, i): Part => ({
    name: tool.name,
    owner: tool.owner,
    layer: tool.layer,
    key: assembly.tools[i],
  }));
}

/**
 * Walks both sequences in order, matching parts by name: the first pair
 * that differs, a part only `before` has (removed), or one only `after`
 * has (added). A part both have at different places is `changed` where
 * `after` has it.
 */
function firstChange(
  before: readonly Part[],
  after: readonly Part[],
): Change | undefined {
  const beforeNames = new Set(before.map((part) => part.name));
  const afterNames = new Set(after.map((part) => part.name));
  for (let index = 0; index < Math.max(before.length, after.length); index++) {
    const was = before[index];
    const is = after[index];
    if (is === undefined) return { change: "removed", part: was!, index };
    if (was === undefined) return { change: "added", part: is, index };
    if (was.name === is.name) {
      if (!same(was.key, is.key, new Map())) {
        return { change: "changed", part: is, index };
      }
    } else if (!afterNames.has(was.name)) {
      return { change: "removed", part: was, index };
    } else if (!beforeNames.has(is.name)) {
      return { change: "added", part: is, index };
    } else return { change: "changed", part: is, index };
  }
  return undefined;
}

/** Inside a list changed in place with its own text unchanged: the deepest first changed item. */
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
  const item = firstChange(was.children, is.children);
  if (item === undefined) return undefined;
  return firstChangedItem(was.children[item.index], item, list) ??
    { ...changedPart(item), list };
}

function prefixBreak(
  was: readonly Part[],
  is: readonly Part[],
  first: Change,
): PrefixBreak | undefined {
  const { index, part } = first;
  if (first.change !== "changed" || was[index]!.name !== part.name) {
    return undefined;
  }
  const unchangedAfter = is.length - index - 1;
  if (
    unchangedAfter === 0 || was.length !== is.length ||
    is.some((p, i) =>
      i > index && (p.name !== was[i]!.name || p.key !== was[i]!.key)
    )
  ) return undefined;
  const charsAfter = is.slice(index + 1).reduce(
    (sum, p) => sum + (p.key as string).length,
    0,
  );
  const where = describeWhere({
    section: part.name,
    owner: part.owner,
    ...(part.layer === undefined ? {} : { layer: part.layer }),
  });
  return {
    section: part.name,
    ...(part.owner === undefined ? {} : { owner: part.owner }),
    ...(part.layer === undefined ? {} : { layer: part.layer }),
    unchangedAfter,
    charsAfter,
    message: `The change to ${where} invalidates the provider's prefix ` +
      `cache for the ${unchangedAfter} section${
        unchangedAfter === 1 ? "" : "s"
      } (${charsAfter} characters) after it, which did not change; give it ` +
      `a higher order so that it renders after them, or make it a context entry`,
  };
}

function changedPart({ part, index, change }: Change): ChangedPart {
  const changed: ChangedPart = { name: part.name, index, change };
  if (part.owner !== undefined) changed.owner = part.owner;
  if (part.layer !== undefined) changed.layer = part.layer;
  return changed;
}

function summary(comparison: PromptComparison): string {
  if (comparison.identical) {
    return "The steps are identical: same tools, system prompt and context";
  }
  const said: string[] = [];
  const { tools, firstChangedSection, context } = comparison;
  if (tools.firstChanged !== undefined) {
    said.push(
      `${describeWhere({ tool: tools.firstChanged.name })} was ` +
        `${tools.firstChanged.change}: the prompt cache misses from the start`,
    );
  }
  if (firstChangedSection !== undefined) {
    const { name, owner, change } = firstChangedSection;
    said.push(
      `${describeWhere({ section: name, owner })} was ${change}: the ` +
        `system prompt is cached only up to offset ${comparison.offset}`,
    );
  }
  if (context.changed) {
    said.push(
      said.length === 0
        ? "Only the runtime context changed: the cached prefix (tools and system prompt) still holds"
        : "the runtime context changed too",
    );
  }
  return said.join("; ");
}

/** Own keys of a variables object, leniently: rendering reads only referenced ones. */
function changedVariables(previous: unknown, next: unknown): string[] {
  const own = (values: unknown) =>
    typeof values === "object" && values !== null
      ? values as Record<string, unknown>
      : {};
  const a = own(previous);
  const b = own(next);
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].filter((name) =>
    Object.hasOwn(a, name) !== Object.hasOwn(b, name) || a[name] !== b[name]
  );
}

/** Structural equality of JSON-like values; cycles and BigInts are fine. */
function same(a: unknown, b: unknown, seen: Map<object, object>): boolean {
  if (Object.is(a, b)) return true;
  if (
    typeof a !== "object" || typeof b !== "object" || a === null ||
    b === null || Array.isArray(a) !== Array.isArray(b)
  ) return false;
  if (seen.get(a) === b) return true;
  seen.set(a, b);
  const keys = Object.keys(a);
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  return keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && same(x[key], y[key], seen));
}

/** Where `a` and `b` first differ, moved off the middle of a surrogate pair. */
function firstDifference(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  const high = (code: number) => code >= 0xd800 && code <= 0xdbff;
  const low = (code: number) => code >= 0xdc00 && code <= 0xdfff;
  if (
    i > 0 && high(a.charCodeAt(i - 1)) &&
    (low(a.charCodeAt(i)) || low(b.charCodeAt(i)))
  ) i--;
  return i;
}
