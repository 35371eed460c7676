/**
 * STUB (inspect branch): the lead's `src/registry/tool_owner.ts` replaces
 * this file at merge. Which scope and layer supplied a tool, kept beside the
 * registry's copy, never on the user's object.
 *
 * @module
 */

import type { ToolSchema } from "../core/types.ts";

const OWNERS = new WeakMap<object, { owner?: string; layer?: string }>();

/**
 * The owner (scope) of the tool provider that supplied `tool` to an
 * assembly; `undefined` for the root registry or a tool a handler made.
 *
 * @param tool A tool from `assembly.tools`.
 * @returns The owner, if any.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { toolOwner } from "@dsh/system-prompt/inspect";
 *
 * assert.equal(toolOwner({ name: "bash", description: "", parameters: {} }), undefined);
 * ```
 */
export function toolOwner(tool: ToolSchema): string | undefined {
  return typeof tool === "object" && tool !== null
    ? OWNERS.get(tool)?.owner
    : undefined;
}

/**
 * The layer of the tool provider that supplied `tool`; `undefined` for a
 * global provider or a tool a handler made.
 *
 * @param tool A tool from `assembly.tools`.
 * @returns The layer, if any.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { toolLayer } from "@dsh/system-prompt/inspect";
 *
 * assert.equal(toolLayer({ name: "bash", description: "", parameters: {} }), undefined);
 * ```
 */
export function toolLayer(tool: ToolSchema): string | undefined {
  return typeof tool === "object" && tool !== null
    ? OWNERS.get(tool)?.layer
    : undefined;
}
