/**
 * The registration methods, written once: the root, owner scopes, layers
 * and scopes inside layers are one registrar bound to a place.
 *
 * @module
 */

import { failure } from "../core/errors.ts";
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
import { disposer, type Place, type Registry } from "./_registry.ts";
import { listPath, type Table } from "./_store.ts";

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
  readonly #onDispose: ((scope: Scope<C>) => void) | undefined;
  constructor(
    registry: Registry,
    owner: string,
    place: { layer: string | undefined; onDispose?: (scope: Scope<C>) => void },
  ) {
    if (typeof owner !== "string" || owner === "") {
      throw new TypeError(
        `Cannot open scope: owner must be a non-empty string, got ${
          JSON.stringify(owner) ?? typeof owner
        }`,
      );
    }
    super(registry, { owner, layer: place.layer }, true);
    this.owner = owner;
    this.layer = place.layer;
    this.#onDispose = place.onDispose;
  }
  override dispose(): void {
    if (this.disposed) return;
    try {
      super.dispose();
    } finally {
      this.#onDispose?.(this);
    }
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
  readonly #table: Table;
  readonly #onDispose: () => void;
  // Live scopes only: a disposed scope leaves the set.
  readonly #scopes = new Set<Scope<C>>();

  constructor(
    registry: Registry,
    table: Table,
    onDispose: () => void,
  ) {
    super(registry, { owner: undefined, layer: table.key }, true);
    this.#registry = registry;
    this.#table = table;
    this.#onDispose = onDispose;
    this.key = table.key!;
    this.parent = table.parent;
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
    const scope = new Scope<C>(this.#registry, owner, {
      layer: this.key,
      onDispose: (done) => void this.#scopes.delete(done),
    });
    this.#scopes.add(scope);
    return scope;
  }

  override dispose(): void {
    if (this.disposed) return;
    // Disposed first: a listener told of what goes next sees a dead layer,
    // and a layer it opens under this key is a new one, left alone.
    try {
      super.dispose();
      for (const scope of [...this.#scopes]) scope.dispose();
    } finally {
      this.#registry.removeLayer(this.#table);
      this.#onDispose();
    }
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}
