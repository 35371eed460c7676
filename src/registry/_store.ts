/**
 * What the registry holds: one table of registrations for the global
 * layer and one per named layer, each registration as the registry's own
 * entry, and where a part's errors point.
 *
 * @module
 */

import type { PartKind } from "../core/_fields.ts";
import type { Where } from "../core/errors.ts";
import { byOrderThenName } from "../core/names.ts";
import type { PartLayout } from "../core/types.ts";

/** A function a provider slot holds; called with the context and options. */
// deno-lint-ignore no-explicit-any -- every provider shape goes through one call site
export type UserFunction = (...args: any[]) => unknown;

/** Where registrations land: an owner (or none) in a layer (or global). */
export interface Place {
  readonly owner: string | undefined;
  readonly layer: string | undefined;
}

/**
 * A section, context entry or item as registered: its layout fields (a
 * default is `undefined`, so it adds no field to the assembly), and where
 * it is.
 */
export interface PartEntry extends Readonly<PartLayout<never>>, Place {
  readonly kind: PartKind;
  readonly name: string;
  /** For an item, the path of its list; `[]` for a section or context entry. */
  readonly path: readonly string[];
  readonly order: number | UserFunction;
  readonly text: string | UserFunction;
  readonly complete: true | undefined;
  /** For an item, whether its top-level list is a section or a context entry. */
  readonly top: "section" | "context";
}

/** A variable, tool provider, item provider or handler as registered. */
export interface FunctionEntry extends Place {
  readonly fn: UserFunction;
  /** A variable's name, or a handler's label. */
  readonly name: string;
  /** For an item provider, the path of its list. */
  readonly path: readonly string[];
}

/** One layer's registrations (the global layer has no key). */
export class Table {
  readonly parts = new Map<string, PartEntry>();
  readonly variables = new Map<string, FunctionEntry>();
  // Sets: adding and removing is O(1), iteration keeps registration order.
  readonly tools = new Set<FunctionEntry>();
  readonly itemProviders = new Set<FunctionEntry>();
  readonly handlers = new Set<FunctionEntry>();
  /** Names anonymous handlers `#n`, never twice in one table. */
  handlerCount = 0;
  /** A layer's public handle (`PromptLayer`), while the layer lives. */
  handle: unknown;
  constructor(
    readonly key: string | undefined,
    readonly parent: string | undefined,
  ) {}
}

/** The shadowing key of a part: its sequence, its list path and its name. */
export function partKey(kind: PartKind, path: unknown, name: string): string {
  return JSON.stringify(kind === "item" ? ["i", path, name] : [kind[0], name]);
}

/** Where a part's errors point. */
export function partWhere(
  entry: Pick<PartEntry, "kind" | "name" | "path" | "owner" | "layer">,
  top: "section" | "context" = "section",
): Where {
  const { kind, name, path, layer } = entry;
  const where: Record<string, unknown> = kind === "item"
    ? { [top]: path[0], item: name }
    : { [kind]: name };
  if (kind === "item" && path.length > 1) where.list = path;
  where.owner = entry.owner;
  if (layer !== undefined) where.layer = layer;
  return where as Where;
}

/**
 * The object without its `undefined` fields, keys in their order: what an
 * optional field of a change event or a registration looks like. (Typed as
 * if every field were set: it only goes where they are optional.)
 */
export function defined<T extends object>(
  fields: T,
): { [K in keyof T]: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const key in fields) {
    if (fields[key] !== undefined) out[key] = fields[key];
  }
  return out as never;
}

/** Parts by order, then name; order functions sort per step and count as 0 here. */
export function byNumericOrder(a: PartEntry, b: PartEntry): number {
  return byOrderThenName(
    { order: typeof a.order === "number" ? a.order : 0, name: a.name },
    { order: typeof b.order === "number" ? b.order : 0, name: b.name },
  );
}
