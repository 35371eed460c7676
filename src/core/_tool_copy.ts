/**
 * The registry's copy of one tool a provider returned.
 *
 * @module
 */

import type { ToolSchema } from "./types.ts";

/**
 * A plain copy of `value` with `name`, `description` and `parameters` read
 * once each (getters of a class instance included), so that a handler
 * editing a tool never edits the provider's, and what was validated is
 * what is stored; `undefined` when it is not a tool with a non-empty name.
 *
 * A tool whose enumerable keys are exactly `name`, `description`,
 * `parameters` in that order, with no own symbol keys (`symbolFree`), is
 * copied with one fixed-shape literal: the same copy as the spread below,
 * several times faster, and every such copy shares one hidden class.
 *
 * @throws What a getter of `value` throws.
 */
export function toolCopy(
  value: unknown,
  symbolFree: boolean,
): ToolSchema | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const tool = value as ToolSchema;
  if (symbolFree && hasSchemaKeysOnly(value)) {
    const name = tool.name;
    if (typeof name !== "string" || name === "") return undefined;
    return { name, description: tool.description, parameters: tool.parameters };
  }
  // The spread reads own fields (own getters too) once; the three a tool
  // needs are then read from `value` only if they are not own fields (a
  // class's getters), so each is read exactly once.
  const copy: Partial<ToolSchema> = { ...value };
  if (!hasField(copy, "name")) copy.name = tool.name;
  if (!hasField(copy, "description")) copy.description = tool.description;
  if (!hasField(copy, "parameters")) copy.parameters = tool.parameters;
  return typeof copy.name === "string" && copy.name !== ""
    ? copy as ToolSchema
    : undefined;
}

const SCHEMA_KEYS = ["name", "description", "parameters"] as const;

/**
 * Whether the enumerable string keys `for…in` sees (own first, then
 * inherited) are exactly `name`, `description`, `parameters` in that order,
 * so that the literal copy equals the spread copy, key order included.
 * `for…in` reads keys, never values, and allocates nothing on a fast object.
 */
function hasSchemaKeysOnly(value: object): boolean {
  let index = 0;
  for (const key in value) {
    if (key !== SCHEMA_KEYS[index]) return false;
    index++;
  }
  return index === 3;
}

function hasField(copy: object, key: keyof ToolSchema): boolean {
  return key in copy;
}
