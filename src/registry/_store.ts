/**
 * What the registry holds: one table of registrations for the global
 * layer and one per named layer, each registration as the registry's own
 * entry, and where a part's errors point.
 *
 * Covered by tests/system_prompt_test.ts and
 * tests/messages_grammar_test.ts.
 *
 * @module
 */

import {
  checkPart,
  LIST_FIELDS,
  LIST_ORDER,
  PART_FIELDS,
  type PartKind,
} from "../core/_fields.ts";
import { describeValue } from "../core/_describe.ts";
import {
  failure,
  nameTaken,
  type Sentence,
  typeFailure,
  type Where,
} from "../core/_messages.ts";
import { byOrderThenName } from "../core/_names.ts";
import { isReferenceName } from "../core/names.ts";
import { defined } from "../core/_defined.ts";
import type { Provenance } from "../core/_provenance.ts";
import type { PartLayout, ToolStability } from "../core/types.ts";

/** A function a provider slot holds; called with the context and options. */
// deno-lint-ignore no-explicit-any -- every provider shape goes through one call site
export type UserFunction = (...args: any[]) => unknown;

/**
 * A section, context entry or item as registered: its layout fields (a
 * default is `undefined`, so it adds no field to the assembly), and where
 * it is.
 */
export interface PartEntry extends Readonly<PartLayout<never>>, Provenance {
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
export interface FunctionEntry extends Provenance {
  readonly fn: UserFunction;
  /** A variable's name, or a handler's label. */
  readonly name: string;
  /** For an item provider, the path of its list. */
  readonly path: readonly string[];
  /** For a tool provider, how long its tools stay the same. */
  readonly stability?: ToolStability;
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
  /** The `toolPins` of this layer (or of the registry, for the global table). */
  pins: ReadonlyMap<string, string> | undefined;
  constructor(readonly key?: string, readonly parent?: string) {}
}

/** The shadowing key of a part: its sequence, its list path and its name. */
export function partKey(
  kind: PartKind,
  at: { path: unknown; name: string },
): string {
  const { path, name } = at;
  return JSON.stringify(kind === "item" ? ["i", path, name] : [kind[0], name]);
}

/** Where a registration's errors point: `what`, its owner and its layer. */
export function placed({ owner, layer }: Provenance, what: object): Where {
  return { ...what, owner, ...(layer ? { layer } : {}) } as Where;
}

/** Where a handler's errors point. */
export const handlerWhere = (entry: FunctionEntry): Where =>
  placed(entry, { handler: entry.name });

/** Where a part's errors point (an item's in the sequence `top`). */
export function partWhere(entry: PartEntry, top = entry.top): Where {
  const { kind, name, path } = entry;
  if (kind !== "item") return placed(entry, { [kind]: name });
  const list = path.length > 1 ? { list: path } : {};
  return placed(entry, { [top]: path[0], item: name, ...list });
}

/** Parts by order, then name; order functions sort per step and count as 0 here. */
export function byNumericOrder(a: PartEntry, b: PartEntry): number {
  return byOrderThenName(ordered(a), ordered(b));
}

/** A part's name and order, an order function counting as 0. */
export function ordered(
  { name, order }: PartEntry,
): { name: string; order: number } {
  return { name, order: typeof order === "number" ? order : 0 };
}

/** How deep lists nest: every walk of a part stays far from the stack's end. */
const MAX_DEPTH = 1000;

/** Checks a list address: a name, or a non-empty path of names. */
export function listPath(
  list: unknown,
  at: Omit<Sentence, "problem">,
): readonly string[] {
  // Each element read once, into the registry's own array.
  const path: unknown[] = Array.isArray(list)
    ? Array.from({ length: list.length }, (_, i) => list[i])
    : [list];
  if (path.length === 0 || !path.every((n) => typeof n === "string")) {
    const problem = "list must be a list name or a path of names";
    throw typeFailure({ ...at, problem });
  }
  const names = path as string[];
  const empty = names.includes("");
  if (empty || names.length > MAX_DEPTH) {
    const state = empty
      ? "a list name must not be empty"
      : `lists nest at most ${MAX_DEPTH} deep; this path has ${names.length} names`;
    const where = { item: "", section: names[0] };
    const list = empty ? names : names.slice(0, 3);
    const at = { ...where, list };
    throw failure({
      code: "invalid-item",
      action: "add",
      where: at,
      problem: state,
    });
  }
  return Object.freeze(names);
}

/** Builds a part entry from a registration, checking every field once. */
export function partEntry(
  kind: PartKind,
  input: unknown,
  place: Pick<PartEntry, "path" | "owner" | "layer" | "top">,
): PartEntry {
  if (typeof input !== "object" || input === null) {
    const problem = `expected an object, got ${describeValue(input)}`;
    throw typeFailure({ action: `add ${kind}`, problem });
  }
  // Each field read once (inherited ones too), into the registry's own
  // object, then checked; a later edit of the caller's object changes nothing.
  const part = copy(input, PART_FIELDS);
  const list = part.list;
  // Anything but a plain object is left for the field table to refuse.
  if (typeof list === "object" && list !== null && !Array.isArray(list)) {
    // Read in the table's order, kept in the assembly's.
    part.list = defined(copy(copy(list, LIST_FIELDS), LIST_ORDER));
  }
  // Every entry has every key, in one order: one shape on the step's path.
  part.complete = kind === "section"
    ? (input as { complete?: unknown }).complete
    : undefined;
  const entry = Object.assign(part, { kind }, place) as unknown as PartEntry;
  const name = typeof part.name === "string" ? part.name : "";
  const where = partWhere({ ...entry, name });
  checkPart(part, { kind, mode: "add", action: "add", where });
  // Defaults as `undefined`: they add no field to the assembly.
  if (part.trim === true) part.trim = undefined;
  if (part.literal === false) part.literal = undefined;
  part.complete = part.complete === true || undefined;
  return entry;
}

/** The `fields` of `from`, each read once, in their order. */
function copy(
  from: object,
  fields: readonly string[],
): Record<string, unknown> {
  const read = (key: string) => [key, (from as Record<string, unknown>)[key]];
  return Object.fromEntries(fields.map(read));
}

/**
 * Adds a part to a table, or throws its kind's duplicate error naming both;
 * returns what removes it.
 */
export function addPart(table: Table, entry: PartEntry): () => void {
  const { kind, name } = entry;
  const key = partKey(kind, { path: entry.path, name });
  let holder = table.parts.get(key);
  // A list name belongs to one sequence: `item("x")` must be unambiguous.
  if (!holder && kind !== "item" && entry.list !== undefined) {
    const other = kind === "section" ? "context" : "section";
    holder = table.parts.get(partKey(other, { path: [], name }));
    if (holder?.list === undefined) holder = undefined;
  }
  if (holder === undefined) {
    table.parts.set(key, entry);
    return () => table.parts.delete(key);
  }
  const what = holder.kind === "context" ? "context entry" : holder.kind;
  const held = holder.kind === kind ? "it" : `a ${what} list of that name`;
  const problem = nameTaken({ owner: holder.owner, what: held });
  const fields = { owner: holder.owner };
  const where = partWhere(entry);
  throw failure({
    code: `duplicate-${kind}`,
    action: "add",
    where,
    problem,
    fields,
  });
}

/** Checks a variable registration and adds it; returns what removes it. */
export function addVariable(table: Table, entry: FunctionEntry): () => void {
  const { name, owner, layer } = entry;
  if (typeof name !== "string" || !isReferenceName(name)) {
    const rule =
      'a name is letters, digits and underscores, not starting with a digit, in segments joined by "."';
    // A name that is no string is no name to quote: the state says what it is.
    const [where, state]: [Where, string] = typeof name === "string"
      ? [{ variable: name, owner, layer }, rule]
      : [{ owner, layer }, `its name is ${describeValue(name)}; ${rule}`];
    const action = typeof name === "string" ? "add" : "add variable";
    throw failure({
      code: "invalid-variable-name",
      action,
      where,
      problem: state,
    });
  }
  const where = { variable: name, owner, layer };
  requireFunction(entry.fn, { action: "add", where });
  const holder = table.variables.get(name);
  if (holder === undefined) {
    table.variables.set(name, entry);
    return () => table.variables.delete(name);
  }
  const problem = nameTaken({ owner: holder.owner });
  const fields = { owner: holder.owner };
  const code = "duplicate-variable";
  throw failure({ code, action: "add", where, problem, fields });
}

/** A registration that is not a function is a `TypeError`. */
export function requireFunction(
  value: unknown,
  at: Omit<Sentence, "problem">,
): void {
  if (typeof value === "function") return;
  const got = describeValue(value);
  throw typeFailure({ ...at, problem: `expected a function, got ${got}` });
}
