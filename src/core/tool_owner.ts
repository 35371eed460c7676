/**
 * Which scope provided a tool, carried on the tool's copy in an assembly.
 *
 * @module
 */

import type { ToolSchema } from "./types.ts";

/**
 * A symbol key: invisible to `JSON.stringify`, to adapters that read
 * `name`/`description`/`parameters`, and to string-keyed iteration; kept by
 * `filter`, `map(t => t)` and object spread in handlers.
 */
const TOOL_OWNER: unique symbol = Symbol("@dsh/system-prompt/tool-owner");

interface OwnedTool extends ToolSchema {
  [TOOL_OWNER]?: string | undefined;
}

/** Marks `copy`, a fresh tool object the registry made, as `owner`'s. */
export function setToolOwner(
  copy: ToolSchema,
  owner: string | undefined,
): ToolSchema {
  (copy as OwnedTool)[TOOL_OWNER] = owner;
  return copy;
}

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
 * import { SystemPrompt } from "@dsh/system-prompt";
 * import { toolOwner } from "@dsh/system-prompt/inspect";
 *
 * const prompt = new SystemPrompt();
 * prompt.scope("bash").tools(() => [{ name: "bash", description: "", parameters: {} }]);
 * const [bash] = (await prompt.assemble()).tools;
 * assert.equal(toolOwner(bash!), "bash");
 * ```
 */
export function toolOwner(tool: ToolSchema): string | undefined {
  return (tool as OwnedTool)[TOOL_OWNER];
}
