/**
 * Who provided each tool the registry copied: recorded on its own frozen
 * copies, out of sight of equality and JSON; and each registry's pins, for
 * the inspections.
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

/** Who provided a tool the registry made; `undefined` for any other. */
export function provenanceOf(tool: ToolSchema): ToolProvenance | undefined {
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
 * Whether a value is a schema the registry copied and froze, deeply: its
 * content is fixed for good, so its identity may stand for it.
 */
export function isRegistrySchema(value: unknown): boolean {
  return typeof value === "object" && value !== null &&
    Object.isFrozen(value) && Object.hasOwn(value, PROVENANCE);
}
