/**
 * The snapshot one layer chain assembles from: the effective parts (a
 * nearer layer's shadowing a farther one's), each list's items and item
 * providers attached to it, and every user function of the step in one
 * flat list of calls, so a step starts them all in one loop. Built once
 * per change of the registry; rejections it can foresee (an orphan item,
 * two complete sections) are found here, before any provider runs.
 *
 * Covered by tests/snapshot_test.ts and tests/layers_test.ts.
 *
 * @module
 */

import type { PromptError } from "../core/errors.ts";
import { failure, type Where } from "../core/_messages.ts";
import { closestName, didYouMean } from "../core/_names.ts";
import { defined } from "../core/_defined.ts";
import type { AssembledList } from "../core/types.ts";
import { mergePins, type Pins } from "./_tool_pins.ts";
import {
  byNumericOrder,
  type FunctionEntry,
  type PartEntry,
  partWhere,
  placed,
  type Table,
  type UserFunction,
} from "./_store.ts";

/** What a kind of call is, for its errors. */
export interface CallKind {
  /** Its name in messages: `its tool provider`. */
  readonly what: string;
  /** The action its errors name: `list tools`. */
  readonly action: string;
  /** What it must return: `an array`. */
  readonly expected: string;
}

/** Each kind of call the step makes, for its errors. */
export const CALLS = {
  text: call("its text function", "assemble", "a string"),
  order: call("its order function", "assemble", "a finite number"),
  footer: call("its list.footer function", "assemble", "a string"),
  empty: call("its list.empty function", "assemble", "a string"),
  variable: call(
    "its provider",
    "resolve",
    "a string, or undefined for no value",
  ),
  tools: call("its tool provider", "list tools", "an array"),
  items: call("its item provider", "list items of", "an array"),
} as const satisfies Record<string, CallKind>;

function call(what: string, action: string, expected: string): CallKind {
  return { what, action, expected };
}

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
export interface Provider {
  readonly entry: FunctionEntry;
  readonly call: number;
  readonly where: Where;
}

/**
 * Everything one layer chain's steps need, shared by every step of every
 * agent on that chain until a registration comes or goes (then
 * `Registry.invalidate()` drops it and the next step builds a new one).
 *
 * It is the registry's model of a step: what is registered is decided here
 * once (which part a nearer layer shadows, each list's members sorted by
 * numeric order, the chain's pins), and what a step must ask user code is
 * a flat list of `calls` in assembly order. A step is then one loop over
 * `calls` into an array of values (`resolveStep`) and one walk over
 * `sections` and `contexts` reading those values by index; nothing is
 * merged or looked up by name per step. The snapshot's identity is also
 * the key of every per-step memory: an agent's last step, and the tool
 * records of a chain, count only while their snapshot is the current one.
 */
export interface Snapshot {
  /** The top-level sections in prompt order (numeric order, then name). */
  readonly sections: readonly Node[];
  /** The top-level context entries, in the same order. */
  readonly contexts: readonly Node[];
  /** The variable providers, the nearest layer's for each name. */
  readonly variables: readonly Provider[];
  /** The tool providers, global first, then each layer's, farthest first. */
  readonly tools: readonly Provider[];
  /** The chain's tool pins by name, the nearest layer's winning. */
  readonly pins: Pins | undefined;
  /** Every list's item providers, in call order. */
  readonly itemProviders: readonly Provider[];
  /** The `system-prompt/assemble` handlers, in the order they run. */
  readonly handlers: readonly FunctionEntry[];
  /** Every user function of a step, in the order a step calls them. */
  readonly calls: readonly Call[];
  /**
   * The top-level part each call belongs to (sections first, then context
   * entries, numbered in that order), or -1 for a tool or variable
   * provider: a part's calls are contiguous, so a changed value names the
   * one part to build again.
   */
  readonly tops: Int32Array;
  /** The complete section, which is the whole prompt, if any. */
  readonly complete: Node | undefined;
  /** The complete section's index in `sections`, or -1. */
  readonly completeAt: number;
  /** Why every step of this chain rejects, found before any provider runs. */
  readonly problem: PromptError | undefined;
}

/** Builds the snapshot of a chain (global table first, the layer last). */
export function snapshot(chain: readonly Table[]): Snapshot {
  const merged = (key: "tools" | "itemProviders" | "handlers") =>
    chain.flatMap((table) => [...table[key]]);
  const walk = new PartWalk(effectiveParts(chain), merged("itemProviders"));
  const sections = walk.topNodes("section");
  const contexts = walk.topNodes("context");
  walk.calls.current = -1;
  const problem = walk.problem ?? walk.orphan();
  const [complete, another] = sections.filter((node) => node.entry.complete);
  const tools = merged("tools").map((entry) =>
    walk.calls.provider(entry, { kind: "tools", what: {} })
  );
  const variables = [
    ...new Map(chain.flatMap((table) => [...table.variables])).values(),
  ].map((entry) =>
    walk.calls.provider(entry, {
      kind: "variable",
      what: { variable: entry.name },
    })
  );
  return {
    sections,
    contexts,
    variables,
    tools,
    pins: mergePins(chain.map((table) => table.pins)),
    itemProviders: walk.listProviders,
    handlers: merged("handlers"),
    calls: walk.calls.calls,
    tops: Int32Array.from(walk.calls.tops),
    complete,
    completeAt: sections.indexOf(complete!),
    problem: problem ?? secondComplete(complete, another),
  };
}

/** A chain's parts, a nearer layer's replacing a farther one's. */
interface EffectiveParts {
  /** Every effective part, in the order the chain registered them. */
  readonly all: readonly PartEntry[];
  /** What each part shadows, as the assembly shows it. */
  readonly shadowed: ReadonlyMap<PartEntry, Node["shadows"]>;
}

function effectiveParts(chain: readonly Table[]): EffectiveParts {
  const parts = new Map<string, PartEntry>();
  const shadowed = new Map<PartEntry, Node["shadows"]>();
  for (const [key, entry] of chain.flatMap((table) => [...table.parts])) {
    const farther = parts.get(key);
    const { owner, layer } = farther ?? {};
    shadowed.set(entry, farther && defined({ owner, layer }));
    parts.set(key, entry);
  }
  return { all: [...parts.values()], shadowed };
}

/** The flat list of a snapshot's calls, each with its top-level part. */
class CallList {
  readonly calls: Call[] = [];
  readonly tops: number[] = [];
  /** The top-level part being walked, numbered as in `tops`, or -1. */
  current = -1;

  /** The index of `fn`'s call, or -1 when it is a value, not a function. */
  add(fn: unknown, at: { kind: Call["kind"]; where: Where }): number {
    if (typeof fn !== "function") return -1;
    this.tops.push(this.current);
    const { kind, where } = at;
    return this.calls.push({ fn: fn as UserFunction, kind, where }) - 1;
  }

  provider(
    entry: FunctionEntry,
    at: { kind: Call["kind"]; what: Where },
  ): Provider {
    const where = placed(entry, at.what);
    return { entry, where, call: this.add(entry.fn, { kind: at.kind, where }) };
  }
}

/**
 * The walk that turns effective parts into nodes, in assembly order: each
 * part's calls, a list's members and item providers attached to it, and
 * the lists it reached (what an orphan item is checked against).
 */
class PartWalk {
  readonly calls: CallList = new CallList();
  /** Every list's item providers, in call order. */
  readonly listProviders: Provider[] = [];
  /** The first rejection the walk foresaw. */
  problem: PromptError | undefined;
  readonly #parts: EffectiveParts;
  readonly #members: Map<string, PartEntry[]>;
  readonly #providersOf: Map<string, FunctionEntry[]>;
  /** Each live list's key, and its path as messages show it. */
  readonly #reached = new Map<string, string>();

  constructor(parts: EffectiveParts, itemProviders: readonly FunctionEntry[]) {
    this.#parts = parts;
    this.#members = byList(parts.all.filter((entry) => entry.kind === "item"));
    this.#providersOf = byList(itemProviders);
  }

  /** The top-level parts of a sequence, sorted, numbered on from the last. */
  topNodes(kind: "section" | "context"): Node[] {
    return this.#parts.all.filter((entry) => entry.kind === kind)
      .sort(byNumericOrder)
      .map((entry) => (this.calls.current++, this.#node(entry, kind)));
  }

  /** The `orphan-item` of the first item (or item provider) no live list holds. */
  orphan(): PromptError | undefined {
    const reached = this.#reached;
    const orphan = [...this.#members, ...this.#providersOf].find(([key]) =>
      !reached.has(key)
    )?.[1][0];
    if (orphan === undefined) return undefined;
    const item = "top" in orphan;
    const list = orphan.path.join("/");
    const suggestion = closestName(list, reached.values());
    const what = item
      ? " (a section, context entry or item declaring `list`)"
      : ", so its item provider was not called";
    return failure({
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

  #node(entry: PartEntry, top: "section" | "context"): Node {
    const where = partWhere(entry, top);
    const shadows = this.#parts.shadowed.get(entry);
    const list = entry.list;
    const text = this.calls.add(entry.text, { kind: "text", where });
    const order = this.calls.add(entry.order, { kind: "order", where });
    if (list === undefined) return { entry, shadows, text, order, list };
    const footer = this.calls.add(list.footer, { kind: "footer", where });
    const empty = this.calls.add(list.empty, { kind: "empty", where });
    const path = [...entry.path, entry.name]; // a top-level part's is []
    const key = JSON.stringify(path);
    // A section list and a context list of one name (from two layers):
    // `item(name)` would be ambiguous.
    if (this.#reached.has(key)) {
      const state =
        "a section list and a context list of this name meet in this layer chain";
      const where = partWhere(entry);
      const code = "duplicate-context";
      this.problem ??= failure({
        code,
        action: "assemble",
        where,
        problem: state,
      });
    }
    this.#reached.set(key, path.join("/"));
    const items = (this.#members.get(key) ?? []).sort(byNumericOrder);
    const children = items.map((child) => this.#node(child, top));
    const at = { [top]: path[0], ...(path.length > 1 ? { list: path } : {}) };
    const providers = (this.#providersOf.get(key) ?? []).map((entry) =>
      this.calls.provider(entry, { kind: "items", what: at })
    );
    this.listProviders.push(...providers);
    const sortEachStep = providers.length > 0 ||
      items.some((child) => typeof child.order !== "number");
    // The registry's own copy, its fields in the assembly's order.
    const layout = list as AssembledList;
    const own = { layout, footer, empty, children, providers, sortEachStep };
    return { entry, shadows, text, order, list: own };
  }
}

/** The `multiple-complete` of a second complete section, if any. */
function secondComplete(
  complete: Node | undefined,
  another: Node | undefined,
): PromptError | undefined {
  if (another === undefined) return undefined;
  const state = `section "${
    complete!.entry.name
  }" is complete too; one complete section is the whole prompt`;
  const where = partWhere(another.entry);
  const code = "multiple-complete";
  return failure({ code, action: "assemble", where, problem: state });
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
