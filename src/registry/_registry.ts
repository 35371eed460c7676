/**
 * The registry's state and its registrars. The state: the global table and
 * one per layer, the change events, the snapshot of each layer chain
 * (dropped on every change), and what `registrations()` reports of it all.
 * The registrars: the root, owner scopes, layers and scopes inside layers
 * are one class bound to a place, with one path that checks and stores
 * every kind of registration. Arguments are `unknown` here: every one is
 * checked at run time, and the public types are `SystemPrompt`'s,
 * `PromptScope`'s and `PromptLayer`'s.
 *
 * @module
 */

import { checkPart, type PartKind } from "../core/_fields.ts";
import { describeOwner, failure, type PromptError } from "../core/errors.ts";
import { closestName, didYouMean, isReferenceName } from "../core/names.ts";
import type {
  ChangeListener,
  Disposer,
  PromptChange,
  PromptLayer,
  PromptRegistrar,
  PromptRegistrations,
  PromptScope,
} from "../core/types.ts";
import { type ChangeEvents, handlerName } from "./_guard.ts";
import { type Snapshot, snapshot } from "./_snapshot.ts";
import {
  byNumericOrder,
  defined,
  type FunctionEntry,
  type PartEntry,
  partKey,
  partWhere,
  type Place,
  Table,
  type UserFunction,
} from "./_store.ts";

/** Makes an idempotent, `Disposable` disposer. */
export function disposer(undo: () => void): Disposer {
  let done = false;
  const dispose = (() => {
    if (done) return;
    done = true;
    undo();
  }) as Disposer;
  dispose[Symbol.dispose] = dispose;
  return dispose;
}

/** The tables, the change events and the snapshot of each chain. */
export class Registry {
  readonly global: Table = new Table(undefined, undefined);
  readonly layers: Map<string, Table> = new Map();
  #snapshots = new Map<string | undefined, Snapshot>();

  constructor(readonly events: ChangeEvents) {}

  /** The snapshot of one chain, or `unknown-layer`; O(1) until a change. */
  snapshot(layer: string | undefined): Snapshot {
    let found = this.#snapshots.get(layer);
    if (found !== undefined) return found;
    found = snapshot([this.global, ...this.#chain(layer)]);
    this.#snapshots.set(layer, found);
    return found;
  }

  /** The live layer of a key, or a new one (`invalid-option` for another parent). */
  layer<C>(key: string, parent: unknown): Layer<C> {
    const live = this.layers.get(key)?.handle as Layer<C> | undefined;
    if (live !== undefined && !live.disposed) {
      if (parent !== undefined && parent !== live.parent) {
        const shown = JSON.stringify(live.parent ?? null);
        const state = `it is live with parent ${shown}`;
        throw failure("invalid-option", "open layer", { layer: key }, state);
      }
      return live;
    }
    if (typeof key !== "string" || key === "") {
      const state = `key must be a non-empty string, got ${typeof key}`;
      throw new TypeError(`Cannot add layer: ${state}`);
    }
    if (parent !== undefined && typeof parent !== "string") {
      const state = `parent must be a string, got ${typeof parent}`;
      throw new TypeError(`Cannot add layer "${key}": ${state}`);
    }
    if (parent === key) {
      const state = "a layer cannot be its own parent";
      throw failure("invalid-option", "add layer", { layer: key }, state);
    }
    const table = new Table(key, parent);
    this.layers.set(key, table);
    this.invalidate();
    return new Layer<C>(this, table);
  }

  removeLayer(table: Table): void {
    // Only its own table: a listener may have opened a new layer of the key.
    if (this.layers.get(table.key!) !== table) return;
    this.layers.delete(table.key!);
    this.invalidate();
  }

  /** What the registry holds, global and per layer, for inspection. */
  describe(toolOrder: readonly string[]): PromptRegistrations {
    const tables = [this.global, ...this.layers.values()];
    const all = <T>(of: (table: Table) => Iterable<T>) =>
      tables.flatMap((table) => [...of(table)]);
    // Sections and context entries in prompt order, as a reader expects.
    const parts = all((table) =>
      [...table.parts.values()].sort(byNumericOrder)
    );
    const top = (kind: "section" | "context") =>
      parts.filter((part) => part.kind === kind).map((part) => {
        const { name, list, owner, layer } = part;
        const order = typeof part.order === "number" ? part.order : 0;
        return defined({ name, order, list: list && YES, owner, layer });
      });
    const at = (path: readonly string[]) => ({
      list: path.join("/"),
      path: [...path],
    });
    return {
      sections: top("section"),
      contexts: top("context"),
      variables: all((table) => table.variables.values()).map(
        ({ name, owner, layer }) => defined({ name, owner, layer }),
      ),
      toolProviders: all((table) => table.tools).map(({ owner, layer }) =>
        defined({ owner, layer })
      ),
      handlers: all((table) => table.handlers).map(({ name, owner, layer }) =>
        defined({ handler: name, owner, layer })
      ),
      items: parts.filter((part) => part.kind === "item").map((part) => {
        const { name, list, owner, layer } = part;
        const rest = { declaresList: list && YES, owner, layer };
        return defined({ ...at(part.path), name, ...rest });
      }),
      itemProviders: all((table) => table.itemProviders).map(
        ({ path, owner, layer }) => defined({ ...at(path), owner, layer }),
      ),
      layers: [...this.layers.values()].map(({ key, parent }) =>
        defined({ key, parent })
      ),
      toolOrder: [...toolOrder],
    };
  }

  /** The layer chain of a key, farthest first, or `unknown-layer`. */
  #chain(key: string | undefined): Table[] {
    const chain: Table[] = [];
    for (let next = key; next !== undefined; next = chain[0]!.parent) {
      const table = this.layers.get(next);
      if (table !== undefined && !chain.includes(table)) {
        chain.unshift(table);
        continue;
      }
      // A live layer met twice: the parents loop.
      const suggestion = table
        ? undefined
        : closestName(next, this.layers.keys());
      const reason = table
        ? `its parent chain loops back to "${next}"`
        : next === key
        ? "no live layer has this key"
        : `its parent "${next}" is not a live layer`;
      const state = reason + didYouMean(suggestion);
      const fields = { layer: key, suggestion };
      const action = `assemble layer "${key}"`;
      throw failure("unknown-layer", action, {}, state, fields);
    }
    return chain;
  }

  /** Whether any table holds a context entry list of this name. */
  isContextList(name: string): boolean {
    const key = partKey("context", [], name);
    for (const table of [this.global, ...this.layers.values()]) {
      if (table.parts.get(key)?.list !== undefined) return true;
    }
    return false;
  }

  /** A registration came or went: every chain gets a new snapshot. */
  invalidate(): void {
    if (this.#snapshots.size > 0) this.#snapshots = new Map();
  }
}

/** `list && YES` is `true` for a list, `undefined` for none. */
const YES = true as const;

/** The `scope-disposed` error of an action on a disposed scope or layer. */
function refused(action: string, { owner, layer }: Place): PromptError {
  const state = owner === undefined
    ? `layer "${layer}" is disposed`
    : `scope "${owner}" is disposed`;
  return failure("scope-disposed", action, {}, state, { owner, layer });
}

const EVENTS: unknown[] = ["system-prompt/assemble", "system-prompt/change"];
const EXPECTED = `"${EVENTS.join('" or "')}"`;

/** How messages name a kind, and a provider's set in a table. */
const KINDS: Record<
  PromptChange["kind"],
  readonly [what: string, set?: "tools" | "itemProviders" | "handlers"]
> = {
  section: ["section"],
  context: ["context entry"],
  item: ["item"],
  variable: ["variable"],
  tools: ["tool provider", "tools"],
  items: ["item provider", "itemProviders"],
  "assemble-handler": ["handler", "handlers"],
};

/** One registration: what it is, the value, its list, name or event. */
interface Given {
  readonly kind: PromptChange["kind"];
  readonly value: unknown;
  readonly key?: unknown;
}

/** A registrar's place, and what it does when disposed. */
interface Options extends Place {
  readonly onDispose?: () => void;
}

/**
 * The registration methods, bound to a place. A scope or layer tracks what
 * it registered (and a layer its scopes), so disposing it removes
 * everything at once; the root (no owner, no layer) tracks nothing: it is
 * never disposed.
 */
export class Registrar<C> implements PromptRegistrar<C> {
  readonly #registry: Registry;
  readonly #place: Options;
  readonly #live: Set<Disposer> | undefined;
  // A layer's live scopes: a disposed scope leaves the set.
  readonly #scopes = new Set<Registrar<C>>();
  #disposed = false;

  constructor(registry: Registry, place: Options) {
    this.#registry = registry;
    this.#place = place;
    const root = place.owner === undefined && place.layer === undefined;
    this.#live = root ? undefined : new Set();
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  section(section: unknown): Disposer {
    return this.#add({ kind: "section", value: section });
  }

  context(entry: unknown): Disposer {
    return this.#add({ kind: "context", value: entry });
  }

  variable(name: unknown, provider: unknown): Disposer {
    return this.#add({ kind: "variable", value: provider, key: name });
  }

  tools(provider: unknown): Disposer {
    return this.#add({ kind: "tools", value: provider });
  }

  item(list: unknown, item: unknown): Disposer {
    return this.#add({ kind: "item", value: item, key: list });
  }

  items(list: unknown, provider: unknown): Disposer {
    return this.#add({ kind: "items", value: provider, key: list });
  }

  on(event: unknown, handler: unknown): Disposer {
    return this.#add({ kind: "assemble-handler", value: handler, key: event });
  }

  /**
   * Removes everything this registrar registered, newest first, then a
   * layer's scopes. Disposed first: a listener told of what goes sees a
   * dead registrar, and a layer it opens under this key is a new one.
   */
  dispose(): void {
    if (this.#disposed || this.#live === undefined) return;
    this.#disposed = true;
    const live = [...this.#live].reverse();
    this.#live.clear();
    // No disposer throws (a listener's failure goes to onListenerError);
    // the hook runs whatever happens.
    try {
      for (const dispose of live) dispose();
      for (const scope of [...this.#scopes]) scope.dispose();
    } finally {
      this.#place.onDispose?.();
    }
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  /** A scope inside this layer, disposed with it. */
  protected open(owner: string): PromptScope<C> {
    if (this.#disposed) throw refused("open scope", this.#place);
    const layer = this.#place.layer;
    const onDispose = () => void this.#scopes.delete(scope);
    const scope = new Scope<C>(this.#registry, { owner, layer, onDispose });
    this.#scopes.add(scope);
    return scope;
  }

  /**
   * Checks and stores one registration; returns the disposer that undoes
   * it. Both are announced as change events.
   */
  #add({ kind, value, key }: Given): Disposer {
    const registry = this.#registry;
    const { owner, layer } = this.#place;
    const handler = kind === "assemble-handler";
    const [name, set] = KINDS[kind];
    // How messages name it.
    let what = handler ? `"${key}" handler` : name;
    if (this.#disposed) throw refused(`add ${what}`, this.#place);
    if (handler && !EVENTS.includes(key)) {
      const shown = JSON.stringify(key);
      const state = `unknown event ${shown}; expected ${EXPECTED}`;
      throw new TypeError(`Cannot add handler: ${state}`);
    }
    const path = kind === "item" || kind === "items" ? listPath(key, what) : [];
    if (kind === "items") what += ` of list "${path.join("/")}"`;
    if (set !== undefined) requireFunction(value, what);
    // A listener is no registration: no change event, no new snapshot.
    const listener = handler && key === "system-prompt/change";
    // A disposed layer's registrars are disposed: a layer's table is there.
    const table = registry.layers.get(layer!) ?? registry.global;
    const fn = value as UserFunction;
    let undo: () => unknown;
    let named: string | undefined;
    if (listener) undo = registry.events.listen(value as ChangeListener, owner);
    else if (kind === "section" || kind === "context" || kind === "item") {
      const top = kind === "item" && registry.isContextList(path[0]!)
        ? "context"
        : "section";
      const entry = partEntry(kind, value, { path, owner, layer, top });
      named = entry.name;
      undo = addPart(table, entry);
    } else if (kind === "variable") {
      named = key as string;
      undo = addVariable(table, { fn, name: named, path, owner, layer });
    } else {
      const label = handler ? handlerName(value, table.handlerCount++) : "";
      const entry = { fn, name: label, path, owner, layer };
      table[set!].add(entry);
      undo = () => table[set!].delete(entry);
    }
    const list = path.length > 0 ? path.join("/") : undefined;
    const announce = (action: PromptChange["action"]) => {
      if (listener) return;
      registry.invalidate();
      // No event object is built for nobody.
      if (!registry.events.listening) return;
      const change = { kind, action, name: named, list, owner, layer };
      registry.events.emit(defined(change));
    };
    const dispose: Disposer = disposer(() => {
      this.#live?.delete(dispose);
      undo();
      announce("unregister");
    });
    announce("register");
    this.#live?.add(dispose);
    // A change listener disposed this registrar while it registered.
    if (this.#disposed) dispose();
    return dispose;
  }
}

/** An owner scope (global, or inside a layer). */
export class Scope<C> extends Registrar<C> implements PromptScope<C> {
  readonly owner: string;
  readonly layer: string | undefined;

  constructor(registry: Registry, place: Options) {
    const { owner } = place;
    if (typeof owner !== "string" || owner === "") {
      const got = JSON.stringify(owner) ?? typeof owner;
      const state = `owner must be a non-empty string, got ${got}`;
      throw new TypeError(`Cannot open scope: ${state}`);
    }
    super(registry, place);
    this.owner = owner;
    this.layer = place.layer;
  }
}

/** A layer: its own table on top of its parent's and the global one. */
export class Layer<C> extends Registrar<C> implements PromptLayer<C> {
  readonly key: string;
  readonly parent: string | undefined;

  constructor(registry: Registry, table: Table) {
    const onDispose = () => registry.removeLayer(table);
    super(registry, { owner: undefined, layer: table.key, onDispose });
    this.key = table.key!;
    this.parent = table.parent;
    table.handle = this;
  }

  scope(owner: string): PromptScope<C> {
    return this.open(owner);
  }
}

/** How deep lists nest: every walk of a part stays far from the stack's end. */
const MAX_DEPTH = 1000;

/** Checks a list address: a name, or a non-empty path of names. */
function listPath(list: unknown, what: string): readonly string[] {
  // Each element read once, into the registry's own array.
  const path: unknown[] = Array.isArray(list)
    ? Array.from({ length: list.length }, (_, i) => list[i])
    : [list];
  if (path.length === 0 || !path.every((n) => typeof n === "string")) {
    const state = "list must be a list name or a path of names";
    throw new TypeError(`Cannot add ${what}: ${state}`);
  }
  const names = path as string[];
  const empty = names.includes("");
  if (empty || names.length > MAX_DEPTH) {
    const state = empty
      ? "a list name must not be empty"
      : `lists nest at most ${MAX_DEPTH} deep; this path has ${names.length} names`;
    const where = { item: "", section: names[0] };
    const list = empty ? names : names.slice(0, 3);
    throw failure("invalid-item", "add", { ...where, list }, state);
  }
  return Object.freeze(names);
}

/** A part's fields and a list layout's, in the order they are read. */
const PART_FIELDS = "name order text stability separator trim literal list";
const LIST_FIELDS =
  "separator headingSeparator footer footerSeparator empty dedupe";

/** Builds a part entry from a registration, checking every field once. */
function partEntry(
  kind: PartKind,
  input: unknown,
  place: Pick<PartEntry, "path" | "owner" | "layer" | "top">,
): PartEntry {
  if (typeof input !== "object" || input === null) {
    const got = input === null ? "null" : typeof input;
    throw new TypeError(`Cannot add ${kind}: expected an object, got ${got}`);
  }
  // Each field read once (inherited ones too), into the registry's own
  // object, then checked; a later edit of the caller's object changes nothing.
  const part = copy(input, PART_FIELDS);
  const list = part.list;
  // Anything but a plain object is left for the field table to refuse.
  if (typeof list === "object" && list !== null && !Array.isArray(list)) {
    part.list = defined(copy(list, LIST_FIELDS));
  }
  // Every entry has every key, in one order: one shape on the step's path.
  part.complete = kind === "section"
    ? (input as { complete?: unknown }).complete
    : undefined;
  const name = typeof part.name === "string" ? part.name : "";
  const where = partWhere({ kind, name, ...place }, place.top);
  checkPart(part, { kind, mode: "add", action: "add", where });
  // Defaults as `undefined`: they add no field to the assembly.
  if (part.trim === true) part.trim = undefined;
  if (part.literal === false) part.literal = undefined;
  part.complete = part.complete === true || undefined;
  return Object.assign(part, { kind }, place) as unknown as PartEntry;
}

/** The space-separated `fields` of `from`, each read once. */
function copy(from: object, fields: string): Record<string, unknown> {
  const to: Record<string, unknown> = {};
  for (const key of fields.split(" ")) {
    to[key] = (from as Record<string, unknown>)[key];
  }
  return to;
}

/**
 * Adds a part to a table, or throws its kind's duplicate error naming both;
 * returns what removes it.
 */
function addPart(table: Table, entry: PartEntry): () => void {
  const key = partKey(entry.kind, entry.path, entry.name);
  let holder = table.parts.get(key);
  // A list name belongs to one sequence: `item("x")` must be unambiguous.
  if (!holder && entry.kind !== "item" && entry.list !== undefined) {
    const other = entry.kind === "section" ? "context" : "section";
    holder = table.parts.get(partKey(other, [], entry.name));
    if (holder?.list === undefined) holder = undefined;
  }
  if (holder === undefined) {
    table.parts.set(key, entry);
    return () => table.parts.delete(key);
  }
  const what = holder.kind === "context" ? "context entry" : holder.kind;
  const taken = holder.kind === entry.kind
    ? "it"
    : `a ${what} list of that name`;
  const state = `${describeOwner(holder.owner)} already added ${taken}`;
  const where = partWhere(entry, entry.top);
  const fields = { owner: holder.owner };
  throw failure(`duplicate-${entry.kind}`, "add", where, state, fields);
}

/** Checks a variable registration and adds it; returns what removes it. */
function addVariable(table: Table, entry: FunctionEntry): () => void {
  const { name, owner, layer } = entry;
  if (typeof name !== "string" || !isReferenceName(name)) {
    const shown = typeof name === "string" ? JSON.stringify(name) : typeof name;
    const state =
      'a name is letters, digits and underscores, not starting with a digit, in segments joined by "."';
    const fields = { variable: typeof name === "string" ? name : shown, owner };
    const action = `add variable ${shown}`;
    throw failure("invalid-variable-name", action, {}, state, fields);
  }
  requireFunction(entry.fn, `variable "${name}"`);
  const holder = table.variables.get(name);
  if (holder === undefined) {
    table.variables.set(name, entry);
    return () => table.variables.delete(name);
  }
  const state = `${describeOwner(holder.owner)} already registered it`;
  const where = { variable: name, owner, layer };
  const fields = { owner: holder.owner };
  throw failure("duplicate-variable", "add", where, state, fields);
}

/** A registration that is not a function is a `TypeError`. */
function requireFunction(value: unknown, what: string): void {
  if (typeof value === "function") return;
  const got = typeof value !== "object"
    ? `a ${typeof value}`
    : value === null
    ? "null"
    : "an object";
  throw new TypeError(`Cannot add ${what}: expected a function, got ${got}`);
}
