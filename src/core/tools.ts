/**
 * Tools: who provided each tool of an assembly (kept beside the registry's
 * own copies, never on them, so a copy equals the tool it was made from),
 * and the `toolOrder` entry for the tools an order does not list.
 *
 * @module
 */

import type { ToolSchema } from "./types.ts";

/**
 * The `toolOrder` entry where the tools it does not list go, by name; the
 * value the upstream harness's configuration uses.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt, TOOL_ORDER_REST } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt({ toolOrder: ["read", TOOL_ORDER_REST] });
 * const tool = (name: string) => ({ name, description: name, parameters: {} });
 * prompt.tools(() => [tool("bash"), tool("grep"), tool("read")]);
 * const { tools } = await prompt.assemble();
 * assert.deepEqual(tools.map((t) => t.name), ["read", "bash", "grep"]);
 * ```
 */
export const TOOL_ORDER_REST = "<unlisted-tools>";

/** Who provided a tool: shared by every copy of one record. */
export interface Provenance {
  readonly owner: string | undefined;
  readonly layer: string | undefined;
}

// Keyed by the registry's own shared copies, which nothing else can reach.
const PROVENANCE = new WeakMap<ToolSchema, Provenance>();
// An assembly's fresh copy of a tool is found by its `parameters`: the
// registry's frozen schema, one per record, set once (no entry per tool per
// step). A handler that replaces `parameters` makes a tool of its own.
const BY_SCHEMA = new WeakMap<object, Provenance>();

/** Records the owner and layer of a copy the registry made. */
export function setToolOwner(
  tool: ToolSchema,
  owner: string | undefined,
  layer: string | undefined,
): ToolSchema {
  PROVENANCE.set(tool, { owner, layer });
  return tool;
}

/** Whether a schema copy already speaks for another provenance. */
export function schemaTaken(schema: object, provenance: Provenance): boolean {
  const held = BY_SCHEMA.get(schema);
  return held !== undefined && held !== provenance &&
    (held.owner !== provenance.owner || held.layer !== provenance.layer);
}

/** Records who provided the tools whose `parameters` are this schema. */
export function setSchemaOwner(schema: object, provenance: Provenance): void {
  BY_SCHEMA.set(schema, provenance);
}

function provenanceOf(tool: ToolSchema): Provenance | undefined {
  if (typeof tool !== "object" || tool === null) return undefined;
  const own = PROVENANCE.get(tool);
  if (own !== undefined) return own;
  try {
    const schema = (tool as { parameters?: unknown }).parameters;
    return typeof schema === "object" && schema !== null
      ? BY_SCHEMA.get(schema)
      : undefined;
  } catch {
    // A tool whose `parameters` cannot be read was not made by the registry.
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
