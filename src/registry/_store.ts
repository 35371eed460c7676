/**
 * What the registry holds: one table of registrations for the global
 * layer and one per named layer, what each registration is checked into
 * (every field read once, into the registry's own object), and the layer
 * chain a snapshot is built from.
 *
 * @module
 */

import { checkPart, type PartKind } from "../core/_fields.ts";
import {
  describeOwner,
  failure,
  type PromptError,
  type Where,
} from "../core/errors.ts";
import { closestName, didYouMean, isReferenceName } from "../core/names.ts";
import type { ListLayout } from "../core/types.ts";

/** A function a provider slot holds; called with the context and options. */
// deno-lint-ignore no-explicit-any -- every provider shape goes through one call site
export type UserFunction = (...args: any[]) => unknown;

/** A section, context entry or item as registered. */
export interface PartEntry {
  readonly kind: PartKind;
  readonly name: string;
  /** For an item, the path of its list; `[]` for a section or context entry. */
  readonly path: readonly string[];
  readonly order: number | UserFunction;
  readonly text: string | UserFunction;
  readonly stability: string | undefined;
  readonly separator: string | undefined;
  readonly trim: boolean | undefined;
  readonly literal: boolean | undefined;
  readonly complete: boolean | undefined;
  readonly list: ListLayout<never> | undefined;
  readonly owner: string | undefined;
  readonly layer: string | undefined;
  /** For an item, whether its top-level list is a section or a context entry. */
  readonly top: "section" | "context";
}

/** A variable, tool provider, item provider or handler as registered. */
export interface FunctionEntry {
  readonly fn: UserFunction;
  /** A variable's name, or a handler's label. */
  readonly name: string;
  /** For an item provider, the path of its list. */
  readonly path: readonly string[];
  readonly owner: string | undefined;
  readonly layer: string | undefined;
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
  constructor(
    readonly key: string | undefined,
    readonly parent: string | undefined,
  ) {}
}

/** The shadowing key of a part: its sequence, its list path and its name. */
export function partKey(
  kind: PartKind,
  path: readonly string[],
  name: string,
): string {
  return JSON.stringify(kind === "item" ? ["i", path, name] : [kind[0], name]);
}

/** How deep lists nest: every walk of a part stays far from the stack's end. */
const MAX_DEPTH = 1000;

/** Checks a list address: a name, or a non-empty path of names. */
export function listPath(list: unknown, what: string): readonly string[] {
  // Each element read once, into the registry's own array.
  const path: unknown[] = typeof list === "string" ? [list] : [];
  if (Array.isArray(list)) {
    for (let i = 0; i < list.length; i++) path.push(list[i]);
  }
  if (path.length === 0 || !path.every((n) => typeof n === "string")) {
    throw new TypeError(
      `Cannot add ${what}: list must be a list name or a path of names`,
    );
  }
  const names = path as string[];
  const where = { item: "", list: names, section: names[0] };
  if (names.some((name) => name === "")) {
    throw failure(
      "invalid-item",
      "add",
      where,
      "a list name must not be empty",
    );
  }
  if (names.length > MAX_DEPTH) {
    throw failure(
      "invalid-item",
      "add",
      { ...where, list: names.slice(0, 3) },
      `lists nest at most ${MAX_DEPTH} deep; this path has ${names.length} names`,
    );
  }
  return Object.freeze(names);
}

/** Where a part's errors point. */
export function partWhere(
  entry: Pick<PartEntry, "kind" | "name" | "path" | "owner" | "layer">,
  top: "section" | "context" = "section",
): Where {
  const where: Record<string, unknown> = {};
  if (entry.kind === "item") {
    where[top] = entry.path[0];
    where.item = entry.name;
    if (entry.path.length > 1) where.list = entry.path;
  } else where[entry.kind] = entry.name;
  where.owner = entry.owner;
  if (entry.layer !== undefined) where.layer = entry.layer;
  return where as Where;
}

/** A part's fields, in the order they are read. */
const PART_FIELDS = [
  "name",
  "order",
  "text",
  "stability",
  "separator",
  "trim",
  "literal",
  "list",
] as const;

const LIST_FIELDS = [
  "separator",
  "headingSeparator",
  "footer",
  "footerSeparator",
  "empty",
  "dedupe",
] as const;

/** Builds a part entry from a registration, checking every field once. */
export function partEntry(
  kind: PartKind,
  input: unknown,
  place: Pick<PartEntry, "path" | "owner" | "layer" | "top">,
): PartEntry {
  if (typeof input !== "object" || input === null) {
    throw new TypeError(
      `Cannot add ${kind}: expected an object, got ${
        input === null ? "null" : typeof input
      }`,
    );
  }
  // Each field read once (inherited ones too), into the registry's own
  // object, then checked; a later edit of the caller's object changes nothing.
  const raw = input as Record<string, unknown>;
  const part: Record<string, unknown> = {};
  for (const key of PART_FIELDS) part[key] = raw[key];
  const list = part.list;
  if (typeof list === "object" && list !== null && !Array.isArray(list)) {
    // Anything but a plain object is left for the field table to refuse.
    const copy: Record<string, unknown> = {};
    for (const key of LIST_FIELDS) {
      const value = (list as Record<string, unknown>)[key];
      if (value !== undefined) copy[key] = value;
    }
    part.list = copy;
  }
  // Every entry has every key, in one order: one shape on the step's path.
  part.complete = kind === "section" ? raw.complete : undefined;
  const name = typeof part.name === "string" ? part.name : "";
  checkPart(part, {
    kind,
    mode: "add",
    action: "add",
    where: partWhere({ kind, name, ...place }, place.top),
  });
  return {
    ...part,
    kind,
    ...place,
    // Defaults add no field to the assembly.
    trim: part.trim === true ? undefined : part.trim,
    literal: part.literal === false ? undefined : part.literal,
    complete: part.complete === true ? true : undefined,
  } as unknown as PartEntry;
}

/** Adds a part to a table, or throws its kind's duplicate error naming both. */
export function addPart(table: Table, entry: PartEntry): string {
  const key = partKey(entry.kind, entry.path, entry.name);
  let holder = table.parts.get(key);
  // A list name belongs to one sequence: `item("x")` must be unambiguous.
  if (
    holder === undefined && entry.kind !== "item" && entry.list !== undefined
  ) {
    const other = entry.kind === "section" ? "context" : "section";
    holder = table.parts.get(partKey(other, [], entry.name));
    if (holder?.list === undefined) holder = undefined;
  }
  if (holder !== undefined) {
    const what = holder.kind === "context" ? "context entry" : holder.kind;
    throw failure(
      `duplicate-${entry.kind}`,
      "add",
      partWhere(entry, entry.top),
      `${describeOwner(holder.owner)} already added ${
        holder.kind === entry.kind ? "it" : `a ${what} list of that name`
      }`,
      { owner: holder.owner },
    );
  }
  table.parts.set(key, entry);
  return key;
}

/** Checks a variable registration and adds it. */
export function addVariable(table: Table, entry: FunctionEntry): void {
  const { name, owner, layer } = entry;
  if (typeof name !== "string" || !isReferenceName(name)) {
    const shown = typeof name === "string" ? JSON.stringify(name) : typeof name;
    throw failure(
      "invalid-variable-name",
      `add variable ${shown}`,
      {},
      'a name is letters, digits and underscores, not starting with a digit, in segments joined by "."',
      { variable: typeof name === "string" ? name : shown, owner },
    );
  }
  requireFunction(entry.fn, `variable "${name}"`);
  const holder = table.variables.get(name);
  if (holder !== undefined) {
    throw failure(
      "duplicate-variable",
      "add",
      { variable: name, owner, layer },
      `${describeOwner(holder.owner)} already registered it`,
      { owner: holder.owner },
    );
  }
  table.variables.set(name, entry);
}

/** A registration that is not a function is a `TypeError`. */
export function requireFunction(value: unknown, what: string): void {
  if (typeof value === "function") return;
  const got = typeof value !== "object"
    ? `a ${typeof value}`
    : value === null
    ? "null"
    : "an object";
  throw new TypeError(`Cannot add ${what}: expected a function, got ${got}`);
}

/** The layer chain of a key, farthest first, or `unknown-layer`. */
export function layerChain(
  layers: ReadonlyMap<string, Table>,
  key: string,
): Table[] | PromptError {
  const chain: Table[] = [];
  const seen = new Set<string>();
  for (let next: string | undefined = key; next !== undefined;) {
    const table = layers.get(next);
    if (table === undefined || seen.has(next)) {
      const loop = seen.has(next);
      const suggestion = loop ? undefined : closestName(next, layers.keys());
      const state = loop
        ? `its parent chain loops back to "${next}"`
        : `${
          next === key
            ? "no live layer has this key"
            : `its parent "${next}" is not a live layer`
        }${didYouMean(suggestion)}`;
      return failure("unknown-layer", `assemble layer "${key}"`, {}, state, {
        layer: key,
        suggestion,
      });
    }
    seen.add(next);
    chain.unshift(table);
    next = table.parent;
  }
  return chain;
}

/**
 * The object without its `undefined` fields, keys in their order: what an
 * optional field of a change event or a registration looks like.
 */
export function defined<T extends object>(fields: T): Defined<T> {
  const out: Record<string, unknown> = {};
  for (const key in fields) {
    if (fields[key] !== undefined) out[key] = fields[key];
  }
  return out as Defined<T>;
}

/** `T` with every field that may be `undefined` made optional instead. */
export type Defined<T> =
  & { [K in keyof T as undefined extends T[K] ? never : K]: T[K] }
  & {
    [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<
      T[K],
      undefined
    >;
  };
