/**
 * One part of a step built from its settled results (a section, context
 * entry or item, and a list's members, registered or provided), and the
 * errors a call's result gets: one place words them all, from the call
 * table of the snapshot (each kind's name, action and expected result).
 *
 * @module
 */

import { checkPart } from "../core/_fields.ts";
import {
  describeOwner,
  describeValue,
  failure,
  messageOf,
  type Where,
} from "../core/errors.ts";
import { byOrderThenName } from "../core/names.ts";
import type { AssembledItem, AssembledSection } from "../core/types.ts";
import { isPromptError, isThenable } from "./_guard.ts";
import {
  type Call,
  CALLS,
  type Node,
  PART_KEYS,
  pick,
  type Snapshot,
} from "./_snapshot.ts";

/** A call's failure: what it threw, or what its promise rejected with. */
export function callFailed(call: Call, cause: unknown, rejected?: true): Error {
  const [what, action] = CALLS[call.kind];
  return failure(
    "provider-failed",
    action,
    call.where,
    `${what} ${rejected ? "rejected" : "threw"}: ${messageOf(cause)}`,
    { cause },
  );
}

/** A call's result of the wrong type. */
function wrongValue(call: Call, value: unknown): Error {
  const shown = typeof value === "number"
    ? String(value)
    : describeValue(value);
  const hint = call.kind === "order" && isThenable(value)
    ? " (order functions are synchronous)"
    : "";
  const [what, action, expected] = CALLS[call.kind];
  return failure(
    "invalid-value",
    action,
    call.where,
    `${what} returned ${shown}, not ${expected}${hint}`,
  );
}

/**
 * A call's settled result, checked: a wrong type throws (a rejection never
 * gets here: the step rejects before it builds anything). An order
 * function's is a number, a variable's a string or `undefined`, every other
 * part call's a string.
 */
export function result<T extends string | number | undefined>(
  snapshot: Snapshot,
  values: readonly unknown[],
  index: number,
): T {
  const value = values[index];
  const call = snapshot.calls[index]!;
  const kind = call.kind;
  const ok = kind === "order"
    ? Number.isFinite(value)
    : typeof value === "string" || value === undefined && kind === "variable";
  if (!ok) throw wrongValue(call, value);
  return value as T;
}

export function part(
  snapshot: Snapshot,
  values: readonly unknown[],
  node: Node,
): AssembledSection {
  const { base } = node;
  // A copy of the step's own part: one clone of a known shape.
  const assembled = { ...base };
  if (node.text >= 0) assembled.text = result(snapshot, values, node.text);
  if (node.order >= 0) assembled.order = result(snapshot, values, node.order);
  if (base.shadows !== undefined) assembled.shadows = { ...base.shadows };
  if (base.list === undefined) return assembled;
  const list = assembled.list = { ...base.list };
  if (node.footer >= 0) list.footer = result(snapshot, values, node.footer);
  if (node.empty >= 0) list.empty = result(snapshot, values, node.empty);
  const items = node.children.map((child) => part(snapshot, values, child));
  if (node.providers.length > 0) provided(node, { values, items });
  if (node.sortEachStep) items.sort(byOrderThenName);
  assembled.items = items;
  return assembled;
}

/** An item provider's result, read once: each item's fields, in order. */
export class ProvidedItems {
  constructor(readonly items: readonly Readonly<Record<string, unknown>>[]) {}
}

/** A provided item's layout fields, in the order they are read. */
const READ_LAYOUT = ["separator", "trim", "literal", "stability"] as const;
/** A provided item's fields, in the order they are read. */
const ITEM_FIELDS = ["name", "order", "text", ...READ_LAYOUT] as const;

/**
 * Reads every item provider's result once, in place: each becomes a
 * `ProvidedItems` of plain copies that the build checks and render()
 * compares, so no field is read twice and nothing read can change after.
 */
export function readProvided(snapshot: Snapshot, values: unknown[]): void {
  for (const provider of snapshot.itemProviders) {
    const call = snapshot.calls[provider.call]!;
    const value = values[provider.call];
    if (!Array.isArray(value)) throw wrongValue(call, value);
    const items: Record<string, unknown>[] = [];
    try {
      for (let i = 0, length = value.length; i < length; i++) {
        const raw = value[i] as Record<string, unknown> | null;
        const bad = typeof raw !== "object" || raw === null || isThenable(raw);
        if (bad || raw.list !== undefined) {
          throw failure(
            "invalid-value",
            "list items of",
            provider.where,
            bad
              ? `item ${i} is ${describeValue(raw)}, not an item`
              : `item ${i} declares list; only registered items can be lists`,
          );
        }
        const input: Record<string, unknown> = {};
        for (const key of ITEM_FIELDS) input[key] = raw[key];
        items.push(input);
      }
    } catch (cause) {
      if (isPromptError(cause)) throw cause;
      throw callFailed(call, cause);
    }
    values[provider.call] = new ProvidedItems(items);
  }
}

/** Whether two reads of a provider's items hold the same fields. */
export function sameItems(a: unknown, b: unknown): boolean {
  if (!(a instanceof ProvidedItems && b instanceof ProvidedItems)) {
    return a === b;
  }
  if (a.items.length !== b.items.length) return false;
  for (let i = 0; i < a.items.length; i++) {
    const x = a.items[i]!;
    const y = b.items[i]!;
    for (const key of ITEM_FIELDS) if (x[key] !== y[key]) return false;
  }
  return true;
}

/** Appends a list's provided items (read by `readProvided`), checked. */
function provided(
  node: Node,
  into: { values: readonly unknown[]; items: AssembledItem[] },
): void {
  const names = new Map<string, string | undefined>();
  for (const item of into.items) names.set(item.name, item.owner);
  for (const provider of node.providers) {
    const { items } = into.values[provider.call] as ProvidedItems;
    const { owner, layer } = provider.entry;
    for (let i = 0; i < items.length; i++) {
      const input = items[i]!;
      const name = typeof input.name === "string" ? input.name : `#${i}`;
      const where = { ...provider.where, item: name } as Where;
      checkPart(input, {
        kind: "item",
        mode: "provided",
        action: "assemble",
        where,
      });
      if (names.has(name)) {
        const holder = names.get(name);
        throw failure(
          "duplicate-item",
          "assemble",
          where,
          `${describeOwner(holder)} already added it`,
          { owner: holder },
        );
      }
      names.set(name, owner);
      into.items.push(pick({ ...input, owner, layer }, PART_KEYS));
    }
  }
}
