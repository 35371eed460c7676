/**
 * One step's resolution: every user function of the snapshot started in
 * one loop (a registry whose providers are all synchronous creates no
 * promise), pending ones awaited together, then one walk that checks each
 * result and builds the fresh assembly.
 *
 * @module
 */

import { checkPart } from "../core/_fields.ts";
import {
  describeValue,
  failure,
  messageOf,
  type Where,
} from "../core/errors.ts";
import { byOrderThenName } from "../core/names.ts";
import type {
  AssembledItem,
  AssembledList,
  AssembledSection,
  PromptAssembly,
  ProviderOptions,
  ToolSchema,
} from "../core/types.ts";
import {
  ignoreRejection,
  ignoreRejections,
  isPromptError,
  isThenable,
  Rejected,
} from "./_guard.ts";
import type { Call, Node, Snapshot } from "./_snapshot.ts";
import {
  checkUniqueTools,
  sortTools,
  type ToolCopies,
  type ToolOrder,
  type ToolRecord,
} from "./_tools.ts";
import { setToolOwner } from "../core/tools.ts";

/** The step's call results, and which of them are still pending. */
export interface Started {
  readonly values: unknown[];
  readonly pending: number[] | undefined;
}

/** Calls every user function of the snapshot once, in snapshot order. */
export function start<C>(
  snapshot: Snapshot,
  context: C,
  options: ProviderOptions,
): Started {
  const calls = snapshot.calls;
  const values = new Array<unknown>(calls.length);
  let pending: number[] | undefined;
  let i = 0;
  // One try around the loop, not one per call.
  try {
    for (; i < calls.length; i++) {
      const fn = calls[i]!.fn; // called through a local: `this` is undefined
      const value = fn(context, options);
      values[i] = value;
      if (isThenable(value) && calls[i]!.kind !== "order") {
        (pending ??= []).push(i);
      }
    }
  } catch (cause) {
    if (pending !== undefined) {
      for (const index of pending) ignoreRejection(values[index]);
    }
    throw callFailed(calls[i]!, cause, false);
  }
  return { values, pending };
}

const WHAT: Record<Call["kind"], string> = {
  text: "its text function",
  order: "its order function",
  footer: "its list.footer function",
  empty: "its list.empty function",
  variable: "its provider",
  tools: "its tool provider",
  items: "its item provider",
};

const ACTION: Record<Call["kind"], string> = {
  text: "assemble",
  order: "assemble",
  footer: "assemble",
  empty: "assemble",
  variable: "resolve",
  tools: "list tools",
  items: "list items of",
};

function callFailed(call: Call, cause: unknown, rejected: boolean): Error {
  return failure(
    "provider-failed",
    ACTION[call.kind],
    call.where,
    `${WHAT[call.kind]} ${rejected ? "rejected" : "threw"}: ${
      messageOf(cause)
    }`,
    { cause },
  );
}

function wrongValue(call: Call, value: unknown, expected: string): Error {
  ignoreRejection(value);
  const shown = typeof value === "number"
    ? String(value)
    : describeValue(value);
  const hint = call.kind === "order" && isThenable(value)
    ? " (order functions are synchronous)"
    : "";
  return failure(
    "invalid-value",
    ACTION[call.kind],
    call.where,
    `${WHAT[call.kind]} returned ${shown}, not ${expected}${hint}`,
  );
}

/** A call's result, checked: a rejection or a wrong type throws. */
function result(
  snapshot: Snapshot,
  values: readonly unknown[],
  index: number,
  expected: "string" | "number",
): unknown {
  const value = values[index];
  const call = snapshot.calls[index]!;
  if (value instanceof Rejected) throw callFailed(call, value.cause, true);
  if (
    expected === "string" ? typeof value !== "string" : !Number.isFinite(value)
  ) {
    throw wrongValue(
      call,
      value,
      expected === "string" ? "a string" : "a finite number",
    );
  }
  return value;
}

/** Builds the step's fresh assembly from the settled results. */
export function build(
  snapshot: Snapshot,
  values: readonly unknown[],
  state: { records: readonly ToolRecord[]; separator: string | undefined },
): PromptAssembly {
  const sections = snapshot.sections.map((node) =>
    part(snapshot, values, node) as AssembledSection
  );
  const contexts = snapshot.contexts.length === 0
    ? undefined
    : snapshot.contexts.map((node) =>
      part(snapshot, values, node) as AssembledSection
    );
  const tools = freshTools(state.records);
  const variables: Record<string, string | undefined> = Object.create(null);
  for (const { call, entry } of snapshot.variables) {
    const value = values[call];
    if (value instanceof Rejected) {
      throw callFailed(snapshot.calls[call]!, value.cause, true);
    }
    if (value !== undefined && typeof value !== "string") {
      throw wrongValue(
        snapshot.calls[call]!,
        value,
        "a string, or undefined for no value",
      );
    }
    variables[entry.name] = value;
  }
  const assembly: PromptAssembly = { sections, tools, variables };
  if (state.separator !== undefined) assembly.separator = state.separator;
  if (contexts !== undefined) assembly.contexts = contexts;
  return assembly;
}

/** The assembly's tools: fresh objects over the registry's shared copies. */
export function freshTools(records: readonly ToolRecord[]): ToolSchema[] {
  const tools = new Array<ToolSchema>(records.length);
  for (let i = 0; i < records.length; i++) {
    const { copy, owner, layer } = records[i]!;
    // Fresh per assembly (a handler may edit it); `parameters` stay shared.
    tools[i] = setToolOwner({ ...copy }, owner, layer);
  }
  return tools;
}

/**
 * Collects and orders the tool records of the step. The same records as
 * the chain's last step give back the same (checked, sorted) array.
 */
export function toolRecords(
  snapshot: Snapshot,
  values: readonly unknown[],
  copies: ToolCopies,
  order: ToolOrder,
): readonly ToolRecord[] {
  const records: ToolRecord[] = [];
  for (const { call, where } of snapshot.tools) {
    const value = values[call];
    if (value instanceof Rejected) {
      throw callFailed(snapshot.calls[call]!, value.cause, true);
    }
    try {
      copies.collect(
        value,
        where as Where & { owner: string | undefined },
        records,
      );
    } catch (error) {
      if (isPromptError(error)) throw error;
      throw callFailed(snapshot.calls[call]!, error, false);
    }
  }
  return copies.ordered(snapshot, records, (fresh) => {
    checkUniqueTools(fresh);
    sortTools(fresh, order);
  });
}

function part(
  snapshot: Snapshot,
  values: readonly unknown[],
  node: Node,
): AssembledItem {
  const { entry } = node;
  const text = node.text < 0
    ? entry.text as string
    : result(snapshot, values, node.text, "string") as string;
  const order = node.order < 0
    ? entry.order as number
    : result(snapshot, values, node.order, "number") as number;
  const assembled: AssembledSection = { name: entry.name, order, text };
  if (entry.owner !== undefined) assembled.owner = entry.owner;
  if (entry.layer !== undefined) assembled.layer = entry.layer;
  if (node.shadows !== undefined) assembled.shadows = { ...node.shadows };
  if (entry.stability !== undefined) {
    assembled.stability = entry.stability as "static";
  }
  if (entry.separator !== undefined) assembled.separator = entry.separator;
  if (entry.trim !== undefined) assembled.trim = entry.trim;
  if (entry.literal !== undefined) assembled.literal = entry.literal;
  if (entry.complete !== undefined) assembled.complete = entry.complete;
  const layout = entry.list;
  if (layout === undefined) return assembled;
  const list: AssembledList = {};
  if (layout.separator !== undefined) list.separator = layout.separator;
  if (layout.headingSeparator !== undefined) {
    list.headingSeparator = layout.headingSeparator;
  }
  if (layout.footerSeparator !== undefined) {
    list.footerSeparator = layout.footerSeparator;
  }
  if (layout.dedupe !== undefined) list.dedupe = layout.dedupe;
  if (layout.footer !== undefined) {
    list.footer = node.footer < 0
      ? layout.footer as string
      : result(snapshot, values, node.footer, "string") as string;
  }
  if (layout.empty !== undefined) {
    list.empty = node.empty < 0
      ? layout.empty as string
      : result(snapshot, values, node.empty, "string") as string;
  }
  assembled.list = list;
  const items = node.children.map((child) => part(snapshot, values, child));
  if (node.providers.length > 0) {
    const names = new Map<string, string | undefined>();
    for (const item of items) names.set(item.name, item.owner);
    for (const provider of node.providers) {
      provided(snapshot, values, provider, { node, items, names });
    }
  }
  if (node.sortEachStep) items.sort(byOrderThenName);
  assembled.items = items;
  return assembled;
}

/** Appends one item provider's items to its list, checked. */
function provided(
  snapshot: Snapshot,
  values: readonly unknown[],
  provider: Node["providers"][number],
  into: {
    node: Node;
    items: AssembledItem[];
    names: Map<string, string | undefined>;
  },
): void {
  const call = snapshot.calls[provider.call]!;
  const value = values[provider.call];
  if (value instanceof Rejected) throw callFailed(call, value.cause, true);
  if (!Array.isArray(value)) throw wrongValue(call, value, "an array");
  const { owner, layer } = provider.entry;
  const path = into.node.entry.kind === "item"
    ? [...into.node.entry.path, into.node.entry.name]
    : [into.node.entry.name];
  const top = into.node.where.section !== undefined ? "section" : "context";
  let length: number;
  try {
    length = value.length;
  } catch (cause) {
    throw callFailed(call, cause, false);
  }
  for (let i = 0; i < length; i++) {
    let input: Record<string, unknown>;
    try {
      const raw = value[i] as Record<string, unknown> | null;
      if (typeof raw !== "object" || raw === null || isThenable(raw)) {
        ignoreRejections(value);
        throw failure(
          "invalid-value",
          "list items of",
          provider.where,
          `item ${i} is ${describeValue(raw)}, not an item`,
        );
      }
      // Each field read once, into the registry's own object.
      input = {
        name: raw.name,
        order: raw.order,
        text: raw.text,
        separator: raw.separator,
        trim: raw.trim,
        literal: raw.literal,
        stability: raw.stability,
      };
      if (raw.list !== undefined) {
        throw failure(
          "invalid-value",
          "list items of",
          provider.where,
          `item ${i} declares list; only registered items can be lists`,
        );
      }
    } catch (cause) {
      if (isPromptError(cause)) throw cause;
      throw callFailed(call, cause, false);
    }
    const name = typeof input.name === "string" ? input.name : `#${i}`;
    const where = {
      [top]: path[0],
      item: name,
      ...(path.length > 1 ? { list: path } : {}),
      owner,
      ...(layer ? { layer } : {}),
    } as Where;
    checkPart(input, {
      kind: "item",
      mode: "provided",
      action: "assemble",
      where,
    });
    if (into.names.has(name)) {
      const holder = into.names.get(name);
      throw failure(
        "duplicate-item",
        "assemble",
        where,
        `${
          holder === undefined ? "the root registry" : JSON.stringify(holder)
        } already added it`,
        { owner: holder },
      );
    }
    into.names.set(name, owner);
    const item: AssembledItem = {
      name,
      order: input.order as number,
      text: input.text as string,
    };
    if (owner !== undefined) item.owner = owner;
    if (layer !== undefined) item.layer = layer;
    for (const key of ["stability", "separator", "trim", "literal"] as const) {
      if (input[key] !== undefined) {
        (item as unknown as Record<string, unknown>)[key] = input[key];
      }
    }
    into.items.push(item);
  }
}
