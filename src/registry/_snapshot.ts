/**
 * The snapshot one layer chain assembles from: the effective parts (a
 * nearer layer's shadowing a farther one's), each list's items and item
 * providers attached to it, and every user function of the step in one
 * flat list of calls, so a step starts them all in one loop. Built once
 * per change of the registry; rejections it can foresee (an orphan item,
 * two complete sections) are found here, before any provider runs.
 *
 * @module
 */

import type { PromptError } from "../core/errors.ts";
import { failure, type Where } from "../core/_messages.ts";
import { closestName, didYouMean } from "../core/_names.ts";
import type { AssembledList } from "../core/types.ts";
import { mergePins } from "./_tool_pins.ts";
import {
  byNumericOrder,
  defined,
  type FunctionEntry,
  type PartEntry,
  partWhere,
  placed,
  type Table,
  type UserFunction,
} from "./_store.ts";

/**
 * Each kind of call the step makes, for its errors: its name in messages,
 * the action its errors name, and what it must return.
 */
export const CALLS = {
  text: ["its text function", "assemble", "a string"],
  order: ["its order function", "assemble", "a finite number"],
  footer: ["its list.footer function", "assemble", "a string"],
  empty: ["its list.empty function", "assemble", "a string"],
  variable: ["its provider", "resolve", "a string, or undefined for no value"],
  tools: ["its tool provider", "list tools", "an array"],
  items: ["its item provider", "list items of", "an array"],
} as const;

/** One user function the step calls, with where its errors point. */
export interface Call {
  readonly fn: UserFunction;
  /** What the call is, for its errors. */
  readonly kind: keyof typeof CALLS;
  readonly where: Where;
}

/**
 * A part of the step: its entry, the registration it shadows, its calls (an
 * index in `calls`, or -1), and a list's.
 */
export interface Node {
  readonly entry: PartEntry;
  /** The farther registration it shadows, as the assembly shows it. */
  readonly shadows: { owner?: string; layer?: string } | undefined;
  readonly text: number;
  readonly order: number;
  readonly list: ListNode | undefined;
}

/** A list part's layout, calls and members. */
export interface ListNode {
  /** The layout's fields in the assembly's order, a function's included. */
  readonly layout: Readonly<AssembledList>;
  readonly footer: number;
  readonly empty: number;
  readonly children: readonly Node[];
  readonly providers: readonly Provider[];
  /** The children need sorting each step (an order function, or providers). */
  readonly sortEachStep: boolean;
}

/** A variable, tool or item provider of the step (its call's index). */
export type Provider = { entry: FunctionEntry; call: number; where: Where };

/** Everything one chain's step needs, shared by every step until a change. */
export type Snapshot = ReturnType<typeof snapshot>;

/** Builds the snapshot of a chain (global table first, the layer last). */
export function snapshot(chain: readonly Table[]) {
  const parts = new Map<string, PartEntry>();
  // What each part shadows, as the assembly shows it.
  const shadowed = new Map<PartEntry, Node["shadows"]>();
  for (const [key, entry] of chain.flatMap((table) => [...table.parts])) {
    const farther = parts.get(key);
    const { owner, layer } = farther ?? {};
    shadowed.set(entry, farther && defined({ owner, layer }));
    parts.set(key, entry);
  }
  const merged = (key: "tools" | "itemProviders" | "handlers") =>
    chain.flatMap((table) => [...table[key]]);
  const calls: Call[] = [];
  const tops: number[] = [];
  let current = -1; // the top-level part being walked, numbered as in `tops`
  const add = (fn: unknown, kind: Call["kind"], where: Where) => {
    if (typeof fn !== "function") return -1;
    tops.push(current);
    return calls.push({ fn: fn as UserFunction, kind, where }) - 1;
  };
  const provider = (entry: FunctionEntry, kind: Call["kind"], what: Where) => {
    const where = placed(entry, what);
    return { entry, where, call: add(entry.fn, kind, where) };
  };
  const all = [...parts.values()];
  const members = byList(all.filter((entry) => entry.kind === "item"));
  const providersOf = byList(merged("itemProviders"));
  // Each live list's key, and its path as messages show it.
  const reached = new Map<string, string>();
  const listProviders: Provider[] = [];
  let problem: PromptError | undefined;
  const node = (entry: PartEntry, top: "section" | "context"): Node => {
    const where = partWhere(entry, top);
    const shadows = shadowed.get(entry);
    const list = entry.list;
    const text = add(entry.text, "text", where);
    const order = add(entry.order, "order", where);
    if (list === undefined) return { entry, shadows, text, order, list };
    const footer = add(list.footer, "footer", where);
    const empty = add(list.empty, "empty", where);
    const path = [...entry.path, entry.name]; // a top-level part's is []
    const key = JSON.stringify(path);
    // A section list and a context list of one name (from two layers):
    // `item(name)` would be ambiguous.
    if (reached.has(key)) {
      const state =
        "a section list and a context list of this name meet in this layer chain";
      const where = partWhere(entry);
      const code = "duplicate-context";
      problem ??= failure({ code, action: "assemble", where, problem: state });
    }
    reached.set(key, path.join("/"));
    const items = (members.get(key) ?? []).sort(byNumericOrder);
    const children = items.map((child) => node(child, top));
    const at = { [top]: path[0], ...(path.length > 1 ? { list: path } : {}) };
    const providers = (providersOf.get(key) ?? []).map((entry) =>
      provider(entry, "items", at)
    );
    listProviders.push(...providers);
    const sortEachStep = providers.length > 0 ||
      items.some((child) => typeof child.order !== "number");
    // The registry's own copy, its fields in the assembly's order.
    const layout = list as AssembledList;
    const own = { layout, footer, empty, children, providers, sortEachStep };
    return { entry, shadows, text, order, list: own };
  };
  const topNodes = (kind: "section" | "context") =>
    all.filter((entry) => entry.kind === kind).sort(byNumericOrder).map(
      (entry) => (current++, node(entry, kind)),
    );
  const sections = topNodes("section");
  const contexts = topNodes("context");
  current = -1;
  // The first item (or item provider) whose list no live list part declares.
  const orphan = [...members, ...providersOf].find(([key]) => !reached.has(key))
    ?.[1][0];
  if (orphan !== undefined) {
    const item = "top" in orphan;
    const list = orphan.path.join("/");
    const suggestion = closestName(list, reached.values());
    const what = item
      ? " (a section, context entry or item declaring `list`)"
      : ", so its item provider was not called";
    problem ??= failure({
      code: "orphan-item",
      action: item ? "assemble" : "list items of",
      where: item
        ? partWhere(orphan)
        : placed(orphan, { section: orphan.path[0] }),
      problem: `list ${JSON.stringify(list)} is not a live list${what}${
        didYouMean(suggestion)
      }`,
      fields: { suggestion },
    });
  }
  const [complete, another] = sections.filter((node) => node.entry.complete);
  if (another !== undefined) {
    const state = `section "${
      complete!.entry.name
    }" is complete too; one complete section is the whole prompt`;
    const where = partWhere(another.entry);
    const code = "multiple-complete";
    problem ??= failure({ code, action: "assemble", where, problem: state });
  }
  const tools = merged("tools").map((entry) => provider(entry, "tools", {}));
  const variables = [
    ...new Map(chain.flatMap((table) => [...table.variables])).values(),
  ].map((entry) => provider(entry, "variable", { variable: entry.name }));
  return {
    sections,
    contexts,
    variables,
    tools,
    /** The chain's tool pins by name, the nearest layer's winning. */
    pins: mergePins(chain.map((table) => table.pins)),
    /** Every list's item providers, in call order. */
    itemProviders: listProviders,
    handlers: merged("handlers"),
    calls,
    /**
     * The top-level part each call belongs to (sections first, then context
     * entries, numbered in that order), or -1: a part's calls are contiguous.
     */
    tops: Int32Array.from(tops),
    complete,
    /** The complete section's index in `sections`, or -1. */
    completeAt: sections.indexOf(complete!),
    /** Why every step of this chain rejects, found before any provider runs. */
    problem,
  };
}
/** Entries grouped by the path of their list. */
function byList<T extends { path: readonly string[] }>(
  entries: readonly T[],
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const entry of entries) {
    const key = JSON.stringify(entry.path);
    if (!groups.get(key)?.push(entry)) groups.set(key, [entry]);
  }
  return groups;
}
