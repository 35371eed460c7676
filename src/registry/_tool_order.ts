/**
 * The canonical tool order: the `toolOrder` option checked once at
 * construction, and each step's tools checked for a shared name and
 * sorted (listed names at their place, the rest by name at the rest entry).
 *
 * Covered by tests/waterfall_result_test.ts ("toolOrder") and
 * tests/catalogue_test.ts.
 *
 * @module
 */

import { describeValue } from "../core/_describe.ts";
import { failure, nameTaken, typeFailure } from "../core/_messages.ts";
import { compareCodePoints } from "../core/_names.ts";
import { TOOL_ORDER_REST } from "../core/tool_order.ts";

/** The rank of each listed name, the rest entry's too; and the names. */
export interface ToolOrder {
  readonly ranks: ReadonlyMap<string, number>;
  readonly names: readonly string[];
}

/** Checks a `toolOrder` option (`invalid-option` at construction). */
export function toolOrder(names: unknown = [TOOL_ORDER_REST]): ToolOrder {
  const action = "create SystemPrompt";
  const bad = (state: string) =>
    failure({ code: "invalid-option", action, problem: `toolOrder ${state}` });
  if (!Array.isArray(names)) {
    const state = `is ${describeValue(names)}, not an array`;
    throw typeFailure({ action, problem: `toolOrder ${state}` });
  }
  // Read once: the order checked is the order kept.
  const read = Array.from({ length: names.length }, (_, i) => names[i]);
  const ranks = new Map<string, number>();
  read.forEach((name, i) => {
    if (typeof name !== "string") {
      const state = `entry ${i} is ${describeValue(name)}, not a string`;
      throw typeFailure({ action, problem: `toolOrder ${state}` });
    }
    if (ranks.has(name)) throw bad(`lists "${name}" twice`);
    ranks.set(name, i);
  });
  if (!ranks.has(TOOL_ORDER_REST)) {
    const state = `has no "${TOOL_ORDER_REST}" entry`;
    throw bad(`${state} for the tools it does not list`);
  }
  return { ranks, names: Object.freeze(read as string[]) };
}

/** Throws `duplicate-tool` for a name two records share, else sorts them. */
export function orderTools(
  records: { readonly name: string; readonly owner: string | undefined }[],
  { ranks }: ToolOrder,
): void {
  const seen = new Map<string, string | undefined>();
  for (const { name, owner } of records) {
    if (!seen.has(name)) seen.set(name, owner);
    else {
      const holder = seen.get(name);
      const problem = nameTaken({ owner: holder });
      const where = { tool: name, owner };
      const fields = { owner: holder };
      const code = "duplicate-tool";
      throw failure({ code, action: "list", where, problem, fields });
    }
  }
  const rest = ranks.get(TOOL_ORDER_REST)!;
  records.sort((a, b) =>
    (ranks.get(a.name) ?? rest) - (ranks.get(b.name) ?? rest) ||
    compareCodePoints(a.name, b.name)
  );
}
