/**
 * The canonical tool order: the `toolOrder` option checked once at
 * construction, and each step's tools checked for a shared name and
 * sorted (listed names at their place, the rest by name at the rest entry).
 *
 * @module
 */

import { describeOwner, describeValue, failure } from "../core/errors.ts";
import { compareCodePoints } from "../core/names.ts";
import { TOOL_ORDER_REST } from "../core/tools.ts";

/** The rank of each listed name; unlisted names rank at the rest entry. */
export interface ToolOrder {
  readonly ranks: ReadonlyMap<string, number> | undefined;
  readonly rest: number;
  readonly names: readonly string[];
}

/** Checks a `toolOrder` option (`invalid-option` at construction). */
export function toolOrder(names: unknown): ToolOrder {
  if (names === undefined) {
    return { ranks: undefined, rest: 0, names: [TOOL_ORDER_REST] };
  }
  const bad = (state: string) =>
    failure("invalid-option", "create SystemPrompt", {}, `toolOrder ${state}`);
  if (!Array.isArray(names)) {
    throw new TypeError(
      bad(`is ${describeValue(names)}, not an array`).message,
    );
  }
  // Read once: the order checked is the order kept.
  const read: unknown[] = Array.from(
    { length: names.length },
    (_, i) => names[i],
  );
  const ranks = new Map<string, number>();
  let rest = -1;
  for (let i = 0; i < read.length; i++) {
    const name = read[i];
    if (typeof name !== "string") {
      const state = `entry ${i} is ${describeValue(name)}, not a string`;
      throw new TypeError(bad(state).message);
    }
    if (name === TOOL_ORDER_REST ? rest !== -1 : ranks.has(name)) {
      throw bad(`lists "${name}" twice`);
    }
    if (name === TOOL_ORDER_REST) rest = i;
    else ranks.set(name, i);
  }
  if (rest === -1) {
    throw bad(
      `has no "${TOOL_ORDER_REST}" entry for the tools it does not list`,
    );
  }
  return { ranks, rest, names: Object.freeze(read as string[]) };
}

/** Throws `duplicate-tool` for a name two records share, else sorts them. */
export function orderTools(
  records: { readonly name: string; readonly owner: string | undefined }[],
  order: ToolOrder,
): void {
  if (records.length > 1) {
    const seen = new Map<string, (typeof records)[number]>();
    for (const record of records) {
      const holder = seen.get(record.name);
      if (holder === undefined) {
        seen.set(record.name, record);
        continue;
      }
      throw failure(
        "duplicate-tool",
        "list tools",
        { owner: record.owner },
        `tool "${record.name}" is already provided by ${
          describeOwner(holder.owner)
        }`,
        { tool: record.name, owner: holder.owner },
      );
    }
  }
  const { ranks, rest } = order;
  records.sort((a, b) => {
    if (ranks !== undefined) {
      const rank = (ranks.get(a.name) ?? rest) - (ranks.get(b.name) ?? rest);
      if (rank !== 0) return rank;
    }
    return compareCodePoints(a.name, b.name);
  });
}
