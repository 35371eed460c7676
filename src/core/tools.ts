/**
 * Tools: who provided each tool of an assembly (recorded on the registry's
 * own copies, out of sight of equality and JSON).
 *
 * @module
 */

import type { ToolSchema, ToolStability } from "./types.ts";

/**
 * Who registered something: an owner (or none) in a layer (or global). On
 * a tool, shared by every copy of one record.
 */
export interface Provenance {
  readonly owner: string | undefined;
  readonly layer: string | undefined;
}

/** Who provided a tool, and how long its provider's tools stay the same. */
export interface ToolProvenance extends Provenance {
  readonly stability: ToolStability;
}

/**
 * Each registry's tool pins for a layer's chain (merged, the nearest
 * layer's winning), for `checkPrompt`: weak, so a registry can be freed.
 */
export const PINS_OF: WeakMap<
  object,
  (layer: string | undefined) => ReadonlyMap<string, string> | undefined
> = new WeakMap();

// On the registry's own copies, not enumerable: a copy still equals the
// tool it was made from, and a spread of it (an assembly's fresh tool, a
// handler's edit) is still found by its `parameters`.
const PROVENANCE: unique symbol = Symbol("provenance");

/** Freezes an object the registry made, recording who provided it. */
export function owned<T extends object>(value: T, provenance: Provenance): T {
  Object.defineProperty(value, PROVENANCE, { value: provenance });
  return Object.freeze(value);
}

function provenanceOf(tool: ToolSchema): ToolProvenance | undefined {
  type Marked = { [PROVENANCE]?: ToolProvenance } | null | undefined;
  if (typeof tool !== "object") return undefined;
  try {
    return (tool as Marked)?.[PROVENANCE] ??
      (tool.parameters as Marked)?.[PROVENANCE];
  } catch {
    // A tool that cannot be read was not made by the registry.
    return undefined;
  }
}

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

/**
 * Whether a value is a schema the registry copied and froze, deeply: its
 * content is fixed for good, so its identity may stand for it.
 */
export function isRegistrySchema(value: unknown): boolean {
  return typeof value === "object" && value !== null &&
    Object.isFrozen(value) && Object.hasOwn(value, PROVENANCE);
}
