/**
 * The registry's state and every way to register into it: the root, owner
 * scopes, layers and scopes inside layers are one registrar bound to a
 * place (owner, layer), so each rule is written once.
 *
 * @module
 */

import type { PartKind } from "../core/_fields.ts";
import { failure, type PromptError } from "../core/errors.ts";
import type {
  Disposer,
  EventHandler,
  ItemProvider,
  ListPath,
  PromptContextEntry,
  PromptEvents,
  PromptItem,
  PromptLayer,
  PromptRegistrar,
  PromptScope,
  PromptSection,
  ToolProvider,
  VariableProvider,
} from "../core/types.ts";
import { handlerName } from "./_guard.ts";
import { type Snapshot, snapshot } from "./_snapshot.ts";
import {
  addPart,
  addVariable,
  change,
  ChangeEvents,
  type FunctionEntry,
  layerChain,
  listPath,
  partEntry,
  requireFunction,
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

/** Where registrations land: an owner (or none) in a layer (or global). */
interface Place {
  readonly owner: string | undefined;
  readonly layer: string | undefined;
}

const EVENTS: readonly string[] = [
  "system-prompt/assemble",
  "system-prompt/change",
];

/** The tables, the change events and the snapshot of each chain. */
export class Registry {
  readonly global: Table = new Table(undefined, undefined);
  readonly layers: Map<string, Table> = new Map();
  readonly events: ChangeEvents;
  #snapshots = new Map<string | undefined, Snapshot>();
  #version = 0;

  constructor(onListenerError: (error: PromptError) => void) {
    this.events = new ChangeEvents(onListenerError);
  }

  /** Bumped by every change: render() memory compares it. */
  get version(): number {
    return this.#version;
  }

  /** The snapshot of one chain, or `unknown-layer`. */
  snapshot(layer: string | undefined): Snapshot {
    let found = this.#snapshots.get(layer);
    if (found !== undefined) return found;
    const chain = layer === undefined
      ? [this.global]
      : layerChain(this.layers, layer);
    if (!Array.isArray(chain)) throw chain;
    found = snapshot(layer === undefined ? chain : [this.global, ...chain]);
    this.#snapshots.set(layer, found);
    return found;
  }

  addLayer(key: unknown, parent: unknown): Table {
    if (typeof key !== "string" || key === "") {
      throw new TypeError(
        `Cannot add layer: key must be a non-empty string, got ${typeof key}`,
      );
    }
    if (parent !== undefined && typeof parent !== "string") {
      throw new TypeError(
        `Cannot add layer "${key}": parent must be a string, got ${typeof parent}`,
      );
    }
    if (parent === key) {
      throw failure(
        "invalid-option",
        "add layer",
        { layer: key },
        "a layer cannot be its own parent",
      );
    }
    const table = new Table(key, parent);
    this.layers.set(key, table);
    this.#invalidate();
    return table;
  }

  removeLayer(key: string): void {
    this.layers.delete(key);
    this.#invalidate();
  }

  table(place: Place): Table {
    if (place.layer === undefined) return this.global;
    const table = this.layers.get(place.layer);
    if (table === undefined) {
      throw failure(
        "unknown-layer",
        "add to layer",
        { layer: place.layer },
        "the layer is disposed",
      );
    }
    return table;
  }

  /** Registers and returns the disposer that undoes it, both announced. */
  changed(event: Parameters<typeof change>, undo: () => void): Disposer {
    this.#invalidate();
    this.events.emit(change(event[0], "register", event[2]));
    return disposer(() => {
      undo();
      this.#invalidate();
      this.events.emit(change(event[0], "unregister", event[2]));
    });
  }

  #invalidate(): void {
    this.#version++;
    if (this.#snapshots.size > 0) this.#snapshots = new Map();
  }

  part(
    kind: PartKind,
    input: unknown,
    place: Place,
    path: readonly string[] = [],
  ): Disposer {
    const table = this.table(place);
    const entry = partEntry(kind, input, { path, ...place });
    const key = addPart(table, entry);
    const kindName = kind === "item" ? "item" : kind;
    return this.changed([kindName, "register", {
      name: entry.name,
      path,
      ...place,
    }], () => {
      if (table.parts.get(key) === entry) table.parts.delete(key);
    });
  }

  variable(name: string, fn: unknown, place: Place): Disposer {
    const table = this.table(place);
    const entry: FunctionEntry = {
      fn: fn as UserFunction,
      name,
      path: [],
      ...place,
    };
    addVariable(table, entry);
    return this.changed(["variable", "register", { name, ...place }], () => {
      if (table.variables.get(name) === entry) table.variables.delete(name);
    });
  }

  provider(
    kind: "tools" | "items",
    fn: unknown,
    place: Place,
    path: readonly string[] = [],
  ): Disposer {
    requireFunction(
      fn,
      kind === "tools"
        ? "tool provider"
        : `item provider of list "${path.join("/")}"`,
    );
    const table = this.table(place);
    const entry: FunctionEntry = {
      fn: fn as UserFunction,
      name: "",
      path,
      ...place,
    };
    const set = kind === "tools" ? table.tools : table.itemProviders;
    set.add(entry);
    return this.changed(
      [kind, "register", { path, ...place }],
      () => void set.delete(entry),
    );
  }

  handler(event: string, fn: unknown, place: Place): Disposer {
    if (!EVENTS.includes(event)) {
      throw new TypeError(
        `Cannot add handler: unknown event ${
          JSON.stringify(event)
        }; expected ` +
          EVENTS.map((e) => `"${e}"`).join(" or "),
      );
    }
    requireFunction(fn, `"${event}" handler`);
    if (event === "system-prompt/change") {
      return disposer(this.events.listen(fn as never, place.owner));
    }
    const table = this.table(place);
    const entry: FunctionEntry = {
      fn: fn as UserFunction,
      name: handlerName(fn, table.handlers.size),
      path: [],
      ...place,
    };
    table.handlers.add(entry);
    return this.changed(
      ["assemble-handler", "register", place],
      () => void table.handlers.delete(entry),
    );
  }
}

/**
 * The registration methods, bound to a place. A scope or layer tracks what
 * it registered, so disposing it removes everything at once.
 */
export class Registrar<C> implements PromptRegistrar<C> {
  readonly #registry: Registry;
  readonly #place: Place;
  readonly #live: Set<Disposer> | undefined;
  #disposed = false;

  constructor(registry: Registry, place: Place, tracked: boolean) {
    this.#registry = registry;
    this.#place = place;
    this.#live = tracked ? new Set() : undefined;
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  section(section: PromptSection<C>): Disposer {
    return this.#track(
      "section",
      () => this.#registry.part("section", section, this.#place),
    );
  }

  context(entry: PromptContextEntry<C>): Disposer {
    return this.#track(
      "context entry",
      () => this.#registry.part("context", entry, this.#place),
    );
  }

  variable(name: string, provider: VariableProvider<C>): Disposer {
    return this.#track(
      "variable",
      () => this.#registry.variable(name, provider, this.#place),
    );
  }

  tools(provider: ToolProvider<C>): Disposer {
    return this.#track(
      "tool provider",
      () => this.#registry.provider("tools", provider, this.#place),
    );
  }

  item(list: ListPath, item: PromptItem<C>): Disposer {
    return this.#track(
      "item",
      () =>
        this.#registry.part("item", item, this.#place, listPath(list, "item")),
    );
  }

  items(list: ListPath, provider: ItemProvider<C>): Disposer {
    return this.#track(
      "item provider",
      () =>
        this.#registry.provider(
          "items",
          provider,
          this.#place,
          listPath(list, "item provider"),
        ),
    );
  }

  on<E extends keyof PromptEvents<C>>(
    event: E,
    handler: EventHandler<C, E>,
  ): Disposer {
    return this.#track(
      `"${event}" handler`,
      () => this.#registry.handler(event, handler, this.#place),
    );
  }

  /** Removes everything this registrar registered, newest first. */
  dispose(): void {
    if (this.#disposed || this.#live === undefined) return;
    this.#disposed = true;
    const live = [...this.#live].reverse();
    this.#live.clear();
    disposeAll(live, 0);
  }

  #track(what: string, register: () => Disposer): Disposer {
    if (this.#disposed) {
      const owner = this.#place.owner;
      throw failure(
        "scope-disposed",
        `add ${what}`,
        {},
        owner === undefined
          ? `layer "${this.#place.layer}" is disposed`
          : `scope "${owner}" is disposed`,
        { owner, layer: this.#place.layer },
      );
    }
    const inner = register();
    const live = this.#live;
    if (live === undefined) return inner;
    // A change listener disposed this registrar while it registered.
    if (this.#disposed) {
      inner();
      return inner;
    }
    const dispose = disposer(() => {
      live.delete(dispose);
      inner();
    });
    live.add(dispose);
    return dispose;
  }
}

/** Runs every disposer even when one throws; rethrows the first error. */
function disposeAll(disposers: readonly Disposer[], from: number): void {
  for (let i = from; i < disposers.length; i++) {
    try {
      disposers[i]!();
    } catch (error) {
      disposeAll(disposers, i + 1);
      throw error;
    }
  }
}

/** An owner scope (global, or inside a layer). */
export class Scope<C> extends Registrar<C> implements PromptScope<C> {
  readonly owner: string;
  readonly layer: string | undefined;
  constructor(registry: Registry, owner: string, layer: string | undefined) {
    if (typeof owner !== "string" || owner === "") {
      throw new TypeError(
        `Cannot open scope: owner must be a non-empty string, got ${
          JSON.stringify(owner) ?? typeof owner
        }`,
      );
    }
    super(registry, { owner, layer }, true);
    this.owner = owner;
    this.layer = layer;
  }
  [Symbol.dispose](): void {
    this.dispose();
  }
}

/** A layer: its own table on top of its parent's and the global one. */
export class Layer<C> extends Registrar<C> implements PromptLayer<C> {
  readonly key: string;
  readonly parent: string | undefined;
  readonly #registry: Registry;
  readonly #scopes = new Set<Scope<C>>();

  constructor(registry: Registry, key: string, parent: string | undefined) {
    super(registry, { owner: undefined, layer: key }, true);
    this.#registry = registry;
    this.key = key;
    this.parent = parent;
  }

  scope(owner: string): PromptScope<C> {
    if (this.disposed) {
      throw failure(
        "scope-disposed",
        "open scope",
        {},
        `layer "${this.key}" is disposed`,
        { layer: this.key },
      );
    }
    const scope = new Scope<C>(this.#registry, owner, this.key);
    this.#scopes.add(scope);
    return scope;
  }

  override dispose(): void {
    if (this.disposed) return;
    for (const scope of this.#scopes) scope.dispose();
    super.dispose();
    this.#registry.removeLayer(this.key);
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}
