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

import { failure, type PromptError, type Where } from "../core/errors.ts";
import { closestName, didYouMean } from "../core/names.ts";
import {
  byNumericOrder,
  defined,
  type FunctionEntry,
  type PartEntry,
  partWhere,
  type Table,
  type UserFunction,
} from "./_store.ts";

/** What one call of the step is, for its errors. */
export type CallKind =
  | "text"
  | "order"
  | "footer"
  | "empty"
  | "variable"
  | "tools"
  | "items";

/** One user function the step calls, with where its errors point. */
export interface Call {
  readonly fn: UserFunction;
  readonly kind: CallKind;
  readonly where: Where;
}

/** A part of the step: its entry, its calls, and a list's members. */
export interface Node {
  readonly entry: PartEntry;
  readonly where: Where;
  readonly shadows: { owner?: string; layer?: string } | undefined;
  readonly text: number;
  readonly order: number;
  readonly footer: number;
  readonly empty: number;
  readonly children: readonly Node[];
  readonly providers: readonly Provider[];
  /** The children need sorting each step (an order function, or providers). */
  readonly sortEachStep: boolean;
}

/** A variable, tool or item provider of the step. */
export interface Provider {
  readonly entry: FunctionEntry;
  readonly call: number;
  readonly where: Where;
}

/** Everything one chain's step needs, shared by every step until a change. */
export interface Snapshot {
  readonly layer: string | undefined;
  readonly sections: readonly Node[];
  readonly contexts: readonly Node[];
  readonly variables: readonly Provider[];
  readonly tools: readonly Provider[];
  /** Every list's item providers, in call order. */
  readonly itemProviders: readonly Provider[];
  readonly handlers: readonly FunctionEntry[];
  readonly calls: readonly Call[];
  /**
   * The top-level part each call belongs to (sections first, then context
   * entries, numbered in that order), or -1: a part's calls are contiguous.
   */
  readonly tops: Int32Array;
  readonly complete: Node | undefined;
  /** Why every step of this chain rejects, found before any provider runs. */
  readonly problem: PromptError | undefined;
}

const NO_NODES: readonly Node[] = [];
const NO_PROVIDERS: readonly Provider[] = [];

/** Builds the snapshot of a chain (global table first, the layer last). */
export function snapshot(chain: readonly Table[]): Snapshot {
  const parts = new Map<string, PartEntry>();
  const shadowed = new Map<PartEntry, PartEntry>();
  const variables = new Map<string, FunctionEntry>();
  const tools: FunctionEntry[] = [];
  const itemProviders: FunctionEntry[] = [];
  const handlers: FunctionEntry[] = [];
  for (const table of chain) {
    for (const [key, entry] of table.parts) {
      const farther = parts.get(key);
      if (farther !== undefined) shadowed.set(entry, farther);
      parts.set(key, entry);
    }
    for (const [name, entry] of table.variables) variables.set(name, entry);
    tools.push(...table.tools);
    itemProviders.push(...table.itemProviders);
    handlers.push(...table.handlers);
  }
  const calls: Call[] = [];
  const add = (fn: unknown, kind: CallKind, where: Where) =>
    typeof fn === "function"
      ? calls.push({ fn: fn as UserFunction, kind, where }) - 1
      : -1;
  const all = [...parts.values()];
  const sections = all.filter((entry) => entry.kind === "section");
  const contexts = all.filter((entry) => entry.kind === "context");
  const members = byList(all.filter((entry) => entry.kind === "item"));
  const providersOf = byList(itemProviders);
  const reached = new Set<string>();
  const listProviders: Provider[] = [];
  let clash: PartEntry | undefined;
  const node = (entry: PartEntry, top: "section" | "context"): Node => {
    const where = partWhere(entry, top);
    const farther = shadowed.get(entry);
    const text = add(entry.text, "text", where);
    const order = add(entry.order, "order", where);
    const list = entry.list;
    let footer = -1, empty = -1;
    let children = NO_NODES, providers = NO_PROVIDERS, sortEachStep = false;
    if (list !== undefined) {
      footer = add(list.footer, "footer", where);
      empty = add(list.empty, "empty", where);
      const path = entry.kind === "item"
        ? [...entry.path, entry.name]
        : [entry.name];
      const key = JSON.stringify(path);
      // A section list and a context list of one name (from two layers):
      // `item(name)` would be ambiguous.
      if (reached.has(key) && clash === undefined) clash = entry;
      reached.add(key);
      const own = (members.get(key) ?? []).sort(byNumericOrder);
      children = own.map((child) => node(child, top));
      providers = (providersOf.get(key) ?? []).map((provider) => {
        const at = placed(provider, {
          [top]: path[0],
          ...(path.length > 1 ? { list: path } : {}),
        });
        const slot = {
          entry: provider,
          where: at,
          call: add(provider.fn, "items", at),
        };
        listProviders.push(slot);
        return slot;
      });
      sortEachStep = providers.length > 0 ||
        own.some((child) => typeof child.order !== "number");
    }
    return {
      entry,
      where,
      shadows: farther === undefined
        ? undefined
        : defined({ owner: farther.owner, layer: farther.layer }),
      text,
      order,
      footer,
      empty,
      children,
      providers,
      sortEachStep,
    };
  };
  const tops: number[] = [];
  let count = 0;
  const top = (entry: PartEntry, kind: "section" | "context") => {
    const made = node(entry, kind);
    while (tops.length < calls.length) tops.push(count);
    count++;
    return made;
  };
  const sectionNodes = sections.sort(byNumericOrder).map((entry) =>
    top(entry, "section")
  );
  const contextNodes = contexts.sort(byNumericOrder).map((entry) =>
    top(entry, "context")
  );
  const toolProviders = tools.map((entry) => {
    const where = placed(entry, {});
    return { entry, where, call: add(entry.fn, "tools", where) };
  });
  const variableProviders = [...variables.values()].map((entry) => {
    const where = placed(entry, { variable: entry.name });
    return { entry, where, call: add(entry.fn, "variable", where) };
  });
  const completes = sectionNodes.filter((section) =>
    section.entry.complete === true
  );
  return {
    layer: chain[chain.length - 1]!.key,
    sections: sectionNodes,
    contexts: contextNodes,
    variables: variableProviders,
    tools: toolProviders,
    itemProviders: listProviders,
    handlers,
    calls,
    tops: Int32Array.from(calls, (_, i) => i < tops.length ? tops[i]! : -1),
    complete: completes[0],
    problem: (clash === undefined ? undefined : failure(
      "duplicate-context",
      "assemble",
      partWhere(clash),
      "a section list and a context list of this name meet in this layer chain",
    )) ?? orphan(members, providersOf, reached) ??
      multipleComplete(completes),
  };
}

/** Entries grouped by the path of their list. */
function byList<T extends { path: readonly string[] }>(
  entries: readonly T[],
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const entry of entries) {
    const key = JSON.stringify(entry.path);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [entry]);
    else group.push(entry);
  }
  return groups;
}

/** Where a provider's errors point: `what`, its owner and its layer. */
function placed(entry: FunctionEntry, what: Where): Where {
  return {
    ...what,
    owner: entry.owner,
    ...(entry.layer ? { layer: entry.layer } : {}),
  } as Where;
}

/** The first item (or item provider) whose list no live list part declares. */
function orphan(
  members: ReadonlyMap<string, PartEntry[]>,
  providers: ReadonlyMap<string, FunctionEntry[]>,
  reached: ReadonlySet<string>,
): PromptError | undefined {
  const lists = [...reached].map((key) =>
    (JSON.parse(key) as string[]).join("/")
  );
  const fail = (
    entry: { path: readonly string[] },
    where: Where,
    what: string,
  ) => {
    const list = entry.path.join("/");
    const suggestion = closestName(list, lists);
    return failure(
      "orphan-item",
      where.item === undefined ? "list items of" : "assemble",
      where,
      `list ${JSON.stringify(list)} is not a live list${what}${
        didYouMean(suggestion)
      }`,
      { suggestion },
    );
  };
  for (const [key, entries] of members) {
    if (reached.has(key)) continue;
    const item = entries[0]!;
    return fail(
      item,
      partWhere(item, item.top),
      " (a section, context entry or item declaring `list`)",
    );
  }
  for (const [key, entries] of providers) {
    if (reached.has(key)) continue;
    const provider = entries[0]!;
    const where = placed(provider, { section: provider.path[0] });
    return fail(provider, where, ", so its item provider was not called");
  }
  return undefined;
}

function multipleComplete(completes: readonly Node[]): PromptError | undefined {
  if (completes.length < 2) return undefined;
  const [first, second] = completes;
  return failure(
    "multiple-complete",
    "assemble",
    second!.where,
    `section "${
      first!.entry.name
    }" is complete too; one complete section is the whole prompt`,
  );
}
