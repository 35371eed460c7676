/**
 * The tool field check: what a tool must hold beside its parameters, and
 * the one wording of each fault. A tool provider's result (`_tools.ts`)
 * and the tools a handler left in an assembly (`_assemble.ts`) are checked
 * through it; each caller reads the fields once and words where.
 *
 * @module
 */

import { describeValue } from "./_describe.ts";
import { TOOL_ORDER_REST } from "./tool_order.ts";

/** A tool's fields as its caller read them, once. */
export interface ToolFields {
  readonly name: unknown;
  readonly description: unknown;
  readonly deferLoading: unknown;
}

/** What is wrong with a tool, and its name when it has one. */
export interface ToolFault {
  readonly problem: string;
  readonly tool?: string;
}

/**
 * The first fault of a tool, or `undefined`. `fields` is `undefined` for a
 * value that is no object (`value`); `label` names the tool's place while
 * it has no name (`item 3`, `item 3 of tools`); once it has one, the fault
 * carries it, for the caller's where (`tool "x"`).
 */
export function toolFault(
  fields: ToolFields | undefined,
  at: { readonly label: string; readonly value?: unknown },
): ToolFault | undefined {
  if (fields === undefined) {
    return { problem: `${at.label} is ${describeValue(at.value)}, not a tool` };
  }
  const { name, description, deferLoading } = fields;
  if (typeof name !== "string" || name === "") {
    return { problem: `${at.label} is not a tool with a non-empty name` };
  }
  const named = (problem: string) => ({ problem, tool: name });
  if (name === TOOL_ORDER_REST) {
    return named("its name is the toolOrder rest entry's");
  }
  if (typeof description !== "string") {
    const got = describeValue(description);
    return named(`its description is ${got}, not a string`);
  }
  if (deferLoading !== undefined && typeof deferLoading !== "boolean") {
    const got = describeValue(deferLoading);
    return named(`its deferLoading is ${got}, not a boolean`);
  }
  return undefined;
}

/** Why `parameters` are no schema: the root of the JSON data check. */
export function notSchema(parameters: unknown): string {
  return `are ${describeValue(parameters)}, not a JSON Schema object`;
}
