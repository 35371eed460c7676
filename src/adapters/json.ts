/**
 * The JSON shapes the adapters hand to SDKs: structural, so that a result
 * is assignable to each SDK's own JSON type without importing it.
 *
 * @module
 */

/**
 * A JSON value.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { JsonValue } from "@dsh/system-prompt/adapters";
 *
 * const value: JsonValue = { type: "object", required: ["command"] };
 * assert.ok(value !== null);
 * ```
 */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | JsonObject;

/**
 * A JSON object: a tool's parameters as the adapters send them.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { JsonObject } from "@dsh/system-prompt/adapters";
 *
 * const schema: JsonObject = { type: "object", properties: {} };
 * assert.equal(schema.type, "object");
 * ```
 */
export type JsonObject = { [key: string]: JsonValue };
