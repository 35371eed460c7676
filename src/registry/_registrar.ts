/**
 * The registration methods, written once: the root, owner scopes, layers
 * and scopes inside layers are one registrar bound to a place. Arguments
 * are `unknown` here: the registry checks every one of them at run time,
 * and the public types are `SystemPrompt`'s, `PromptScope`'s and
 * `PromptLayer`'s.
 *
 * @module
 */

import type { Disposer, PromptRegistrar, PromptScope } from "../core/types.ts";
import type { PromptLayer } from "../core/types.ts";
import { type At, refused, type Registry } from "./_registry.ts";
import type { Place, Table } from "./_store.ts";

/** What a registrar does when disposed; the root is never disposed. */
interface Options {
  readonly onDispose?: (() => void) | undefined;
  readonly root?: true;
}

/**
 * The registration methods, bound to a place. A scope or layer tracks what
 * it registered (and a layer its scopes), so disposing it removes
 * everything at once; the root tracks nothing (it is never disposed).
 */
export class Registrar<C> implements PromptRegistrar<C> {
  readonly #registry: Registry;
  /** Its place, what it registered, whether it is disposed: what `register` reads. */
  readonly #at: At;
  // A layer's live scopes: a disposed scope leaves the set.
  readonly #scopes = new Set<Registrar<C>>();
  readonly #onDispose: (() => void) | undefined;

  constructor(registry: Registry, place: Place & Options) {
    this.#registry = registry;
    const live = place.root ? undefined : new Set<Disposer>();
    // Owner, then layer: the order of a change event's fields.
    const { owner, layer } = place;
    this.#at = { owner, layer, live, disposed: false };
    this.#onDispose = place.onDispose;
  }

  get disposed(): boolean {
    return this.#at.disposed;
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
    const at = this.#at;
    if (at.disposed || at.live === undefined) return;
    at.disposed = true;
    const live = [...at.live].reverse();
    at.live.clear();
    // No disposer throws (a listener's failure goes to onListenerError);
    // the hook runs whatever happens.
    try {
      for (const dispose of live) dispose();
      for (const scope of [...this.#scopes]) scope.dispose();
    } finally {
      this.#onDispose?.();
    }
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  /** A scope inside this layer, disposed with it. */
  protected open(owner: string): PromptScope<C> {
    if (this.#at.disposed) throw refused("open scope", this.#at);
    const layer = this.#at.layer;
    const onDispose = () => void this.#scopes.delete(scope);
    const scope = new Scope<C>(this.#registry, { owner, layer, onDispose });
    this.#scopes.add(scope);
    return scope;
  }

  #add(given: Parameters<Registry["register"]>[0]): Disposer {
    const dispose = this.#registry.register(given, this.#at);
    // A change listener disposed this registrar while it registered.
    if (this.#at.disposed && this.#at.live !== undefined) dispose();
    return dispose;
  }
}

/** An owner scope (global, or inside a layer). */
export class Scope<C> extends Registrar<C> implements PromptScope<C> {
  readonly owner: string;
  readonly layer: string | undefined;

  constructor(registry: Registry, place: Place & Options) {
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
