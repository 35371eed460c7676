/**
 * The registration methods, written once: the root, owner scopes, layers
 * and scopes inside layers are one registrar bound to a place.
 *
 * @module
 */

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
import {
  disposer,
  type Given,
  type Kind,
  type Place,
  type Registry,
} from "./_registry.ts";
import type { Table } from "./_store.ts";

/** How messages name a registration of each kind but handlers. */
const WHAT: Record<Exclude<Kind, "assemble-handler">, string> = {
  section: "section",
  context: "context entry",
  variable: "variable",
  tools: "tool provider",
  item: "item",
  items: "item provider",
};

/**
 * The registration methods, bound to a place. A scope or layer tracks what
 * it registered, so disposing it removes everything at once; the root
 * tracks nothing (it is never disposed).
 */
export class Registrar<C> implements PromptRegistrar<C> {
  readonly #registry: Registry;
  readonly #place: Place;
  readonly #live: Set<Disposer> | undefined;
  readonly #onDispose: (() => void) | undefined;
  #disposed = false;

  constructor(
    registry: Registry,
    place: Place,
    tracked?: { onDispose?: (() => void) | undefined },
  ) {
    this.#registry = registry;
    // Owner first, then layer: the order of every change event's fields.
    this.#place = { owner: place.owner, layer: place.layer };
    this.#live = tracked && new Set();
    this.#onDispose = tracked?.onDispose;
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  section(section: PromptSection<C>): Disposer {
    return this.#add("section", { value: section, what: WHAT.section });
  }

  context(entry: PromptContextEntry<C>): Disposer {
    return this.#add("context", { value: entry, what: WHAT.context });
  }

  variable(name: string, provider: VariableProvider<C>): Disposer {
    return this.#add("variable", {
      value: provider,
      key: name,
      what: WHAT.variable,
    });
  }

  tools(provider: ToolProvider<C>): Disposer {
    return this.#add("tools", { value: provider, what: WHAT.tools });
  }

  item(list: ListPath, item: PromptItem<C>): Disposer {
    return this.#add("item", { value: item, key: list, what: WHAT.item });
  }

  items(list: ListPath, provider: ItemProvider<C>): Disposer {
    return this.#add("items", { value: provider, key: list, what: WHAT.items });
  }

  on<E extends keyof PromptEvents<C>>(
    event: E,
    handler: EventHandler<C, E>,
  ): Disposer {
    const what = `"${event}" handler`;
    return this.#add("assemble-handler", { value: handler, key: event, what });
  }

  /** Removes everything this registrar registered, newest first. */
  dispose(): void {
    if (this.#disposed || this.#live === undefined) return;
    this.#disposed = true;
    const live = [...this.#live].reverse();
    this.#live.clear();
    // No disposer throws: a change listener's failure goes to onListenerError.
    try {
      for (const dispose of live) dispose();
    } finally {
      this.#onDispose?.();
    }
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  /** The `scope-disposed` error of an action on this registrar. */
  protected refused(action: string): PromptError {
    const { owner, layer } = this.#place;
    return failure(
      "scope-disposed",
      action,
      {},
      owner === undefined
        ? `layer "${layer}" is disposed`
        : `scope "${owner}" is disposed`,
      { owner, layer },
    );
  }

  #add(kind: Kind, given: Given): Disposer {
    if (this.#disposed) throw this.refused(`add ${given.what}`);
    const inner = this.#registry.register(kind, this.#place, given);
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

/** An owner scope (global, or inside a layer). */
export class Scope<C> extends Registrar<C> implements PromptScope<C> {
  readonly owner: string;
  readonly layer: string | undefined;

  constructor(
    registry: Registry,
    place: Place & { onDispose?: () => void },
  ) {
    const { owner, layer } = place;
    if (typeof owner !== "string" || owner === "") {
      throw new TypeError(
        `Cannot open scope: owner must be a non-empty string, got ${
          JSON.stringify(owner) ?? typeof owner
        }`,
      );
    }
    super(registry, place, { onDispose: place.onDispose });
    this.owner = owner;
    this.layer = layer;
  }
}

/** A layer: its own table on top of its parent's and the global one. */
export class Layer<C> extends Registrar<C> implements PromptLayer<C> {
  readonly key: string;
  readonly parent: string | undefined;
  readonly #registry: Registry;
  // Live scopes only: a disposed scope leaves the set.
  readonly #scopes: Set<Scope<C>>;

  constructor(
    registry: Registry,
    { table, onDispose }: { table: Table; onDispose: () => void },
  ) {
    const scopes = new Set<Scope<C>>();
    // Disposed first: a listener told of what goes next sees a dead layer,
    // and a layer it opens under this key is a new one, left alone.
    super(registry, { owner: undefined, layer: table.key }, {
      onDispose: () => {
        for (const scope of [...scopes]) scope.dispose();
        registry.removeLayer(table);
        onDispose();
      },
    });
    this.#registry = registry;
    this.#scopes = scopes;
    this.key = table.key!;
    this.parent = table.parent;
  }

  scope(owner: string): PromptScope<C> {
    if (this.disposed) throw this.refused("open scope");
    const scope: Scope<C> = new Scope<C>(this.#registry, {
      owner,
      layer: this.key,
      onDispose: () => void this.#scopes.delete(scope),
    });
    this.#scopes.add(scope);
    return scope;
  }
}
