/**
 * One part of a step built from its settled results (a section, context
 * entry or item, and a list's members, registered or provided), and the
 * errors a call's result gets: one place words them all, from the call
 * table of the snapshot (each kind's name, action and expected result).
 *
 * Covered by tests/layout_registry_test.ts,
 * tests/assemble_errors_test.ts and tests/item_providers_test.ts.
 *
 * @module
 */

import { checkPart, isValidPart, ITEM_LAYOUT } from "../core/_fields.ts";
import { describeValue } from "../core/_describe.ts";
import { failure, nameTaken } from "../core/_messages.ts";
import { byOrderThenName } from "../core/_names.ts";
import type { AssembledItem, AssembledSection } from "../core/types.ts";
import { isThenable } from "../core/_guards.ts";
import { callError } from "./_resolve.ts";
import { type Call, CALLS, type Node, type Snapshot } from "./_snapshot.ts";

/**
 * A call's settled result, checked: a wrong type throws (a rejection never
 * gets here: the step rejects before it builds anything). An order
 * function's is a number, a variable's a string or `undefined`, an item
 * provider's an array, every other part call's a string.
 */
export function result<T>(call: Call, value: unknown): T {
  const kind = call.kind;
  if (
    kind === "order"
      ? Number.isFinite(value)
      : kind === "items"
      ? Array.isArray(value)
      : typeof value === "string" || value === undefined && kind === "variable"
  ) return value as T;
  const shown = typeof value === "number" ? `${value}` : describeValue(value);
  const hint = kind === "order" && isThenable(value)
    ? " (order functions are synchronous)"
    : "";
  const { what, action, expected } = CALLS[kind];
  const state = `${what} returned ${shown}, not ${expected}${hint}`;
  throw failure({
    code: "invalid-value",
    action,
    where: call.where,
    problem: state,
  });
}

/** Builds a part and its list's members, registered and provided, checked. */
export function part(
  snapshot: Snapshot,
  values: readonly unknown[],
  node: Node,
): AssembledSection {
  const { entry, list } = node;
  const text: string = node.text < 0
    ? entry.text as string
    : result(snapshot.calls[node.text]!, values[node.text]);
  const order: number = node.order < 0
    ? entry.order as number
    : result(snapshot.calls[node.order]!, values[node.order]);
  // One store per field set, not a loop or a clone: each store site sees
  // few shapes (a measured difference).
  const assembled: AssembledSection = { name: entry.name, order, text };
  if (entry.owner !== undefined) assembled.owner = entry.owner;
  if (entry.layer !== undefined) assembled.layer = entry.layer;
  if (node.shadows !== undefined) assembled.shadows = { ...node.shadows };
  if (entry.stability !== undefined) assembled.stability = entry.stability;
  if (entry.separator !== undefined) assembled.separator = entry.separator;
  if (entry.trim !== undefined) assembled.trim = entry.trim;
  if (entry.literal !== undefined) assembled.literal = entry.literal;
  if (entry.complete !== undefined) assembled.complete = entry.complete;
  if (list === undefined) return assembled;
  // The list's fields in the assembly's order, a function's place first.
  const layout = assembled.list = { ...list.layout };
  if (list.footer >= 0) {
    layout.footer = result(snapshot.calls[list.footer]!, values[list.footer]);
  }
  if (list.empty >= 0) {
    layout.empty = result(snapshot.calls[list.empty]!, values[list.empty]);
  }
  const items = list.children.map((child) => part(snapshot, values, child));
  // Each name's holder, for a provided item's duplicate.
  if (list.providers.length > 0) {
    const names = new Map<string, string | undefined>();
    for (const item of items) names.set(item.name, item.owner);
    for (const provider of list.providers) {
      const read = values[provider.call] as Record<string, unknown>[];
      const { owner, layer } = provider.entry;
      for (let i = 0; i < read.length; i++) {
        const input = read[i]!;
        const name = typeof input.name === "string" ? input.name : `#${i}`;
        // Fast path: a valid item, named once, needs no `Where`.
        if (!isValidPart(input, "item") || names.has(name)) {
          const where = { ...provider.where, item: name };
          checkPart(input, { ...CHECK, where });
          if (names.has(name)) {
            const holder = names.get(name);
            const problem = nameTaken({ owner: holder });
            const fields = { owner: holder };
            const code = "duplicate-item";
            throw failure({ code, action: "assemble", where, problem, fields });
          }
        }
        names.set(name, owner);
        const { order, text } = input;
        const item: Record<string, unknown> = { name, order, text };
        if (owner !== undefined) item.owner = owner;
        if (layer !== undefined) item.layer = layer;
        for (const key of ITEM_LAYOUT) {
          if (input[key] !== undefined) item[key] = input[key];
        }
        items.push(item as unknown as AssembledItem);
      }
    }
  }
  if (list.sortEachStep) items.sort(byOrderThenName);
  assembled.items = items;
  return assembled;
}

/** The step's variables, each value checked. */
export function variablesOf(
  snapshot: Snapshot,
  values: readonly unknown[],
): Record<string, string | undefined> {
  const variables: Record<string, string | undefined> = Object.create(null);
  for (const { call, entry } of snapshot.variables) {
    variables[entry.name] = result(snapshot.calls[call]!, values[call]);
  }
  return variables;
}

/** How a provided item is checked. */
const CHECK = { kind: "item", mode: "provided", action: "assemble" } as const;

/** A provided item's fields, in the order they are read. */
const ITEM_FIELDS = ["name", "order", "text", ...ITEM_LAYOUT];

/**
 * Reads every item provider's result once, in place: each becomes an array
 * of plain copies that the build checks and render() compares, so no field
 * is read twice and nothing read can change after.
 */
export function readProvided(snapshot: Snapshot, values: unknown[]): void {
  for (const provider of snapshot.itemProviders) {
    const value = result<unknown[]>(
      snapshot.calls[provider.call]!,
      values[provider.call],
    );
    const items: Record<string, unknown>[] = [];
    try {
      for (let i = 0, length = value.length; i < length; i++) {
        const raw = value[i] as Record<string, unknown> | null;
        const bad = typeof raw !== "object" || raw === null || isThenable(raw);
        if (bad || raw.list !== undefined) {
          const state = bad
            ? `item ${i} is ${describeValue(raw)}, not an item`
            : `item ${i} declares list; only registered items can be lists`;
          const where = provider.where;
          const action = "list items of";
          throw failure({
            code: "invalid-value",
            action,
            where,
            problem: state,
          });
        }
        const input: Record<string, unknown> = {};
        for (const key of ITEM_FIELDS) input[key] = raw[key];
        items.push(input);
      }
    } catch (cause) {
      throw callError(snapshot.calls[provider.call]!, cause);
    }
    values[provider.call] = items;
  }
}

/**
 * Whether two results of one call are the same: equal, or two reads of an
 * item provider's items with the same fields. (Only an item provider's
 * read is an array: any other result that is one fails its step, which is
 * then not remembered.)
 */
export function sameItems(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    for (const key of ITEM_FIELDS) if (a[i][key] !== b[i][key]) return false;
  }
  return true;
}
