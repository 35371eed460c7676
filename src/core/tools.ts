/**
 * Tools: who provided each tool of an assembly, as `_provenance.ts`
 * recorded it on the registry's own copies.
 *
 * @module
 */

import { provenanceOf } from "./_provenance.ts";
import type { ToolSchema, ToolStability } from "./types.ts";

/**

/**
 * The owner of the scope whose provider returned the tool, for a tool of an
 * assembly the registry built; `undefined` for the root registry and for a
 * tool a handler made.
 *
 * @param tool A tool of an assembly.
 * @returns The owner, if any.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 * import { toolOwner } from "@dsh/system-prompt/inspect";
 *
 * const prompt = new SystemPrompt();
 * prompt.scope("bash").tools(() => [{ name: "bash", description: "Run", parameters: {} }]);
 * const [bash] = (await prompt.assemble()).tools;
 * assert.equal(toolOwner(bash!), "bash");
 * ```
 */
export function toolOwner(tool: ToolSchema): string | undefined {
  return provenanceOf(tool)?.owner;
}

/**
 * The layer whose provider returned the tool; `undefined` for a global one.
 *
 * @param tool A tool of an assembly.
 * @returns The layer key, if any.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 * import { toolLayer } from "@dsh/system-prompt/inspect";
 *
 * const prompt = new SystemPrompt();
 * prompt.layer("sub").tools(() => [{ name: "grep", description: "Search", parameters: {} }]);
 * const [grep] = (await prompt.assemble({}, { layer: "sub" })).tools;
 * assert.equal(toolLayer(grep!), "sub");
 * ```
 */
export function toolLayer(tool: ToolSchema): string | undefined {
  return provenanceOf(tool)?.layer;
}

/**
 * How long the tools of the provider that returned the tool stay the same
 * (`tools(provider, { stability })`): `"static"` or `"session"`, for a tool
 * of an assembly the registry built; `undefined` for a tool a handler made.
 *
 * @param tool A tool of an assembly.
 * @returns Its provider's stability, if any.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 * import { toolStability } from "@dsh/system-prompt/inspect";
 *
 * const prompt = new SystemPrompt();
 * prompt.tools(() => [{ name: "bash", description: "Run", parameters: {} }]);
 * prompt.scope("mcp").tools(() => [{ name: "search", description: "Search", parameters: {} }], {
 *   stability: "session",
 * });
 * const { tools } = await prompt.assemble();
 * assert.deepEqual(tools.map(toolStability), ["static", "session"]);
 * ```
 */
export function toolStability(tool: ToolSchema): ToolStability | undefined {
  return provenanceOf(tool)?.stability;
}
