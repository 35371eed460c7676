/**
 * The registration methods, written once: the root, owner scopes, layers
 * and scopes inside layers are one registrar bound to a place. Arguments
 * are `unknown` here: the registry checks every one of them at run time,
 * and the public types are `SystemPrompt`'s, `PromptScope`'s and
 * `PromptLayer`'s.
 *
 * @module
 */

import { failure, type PromptError } from "../core/errors.ts";
import type { Disposer, PromptRegistrar, PromptScope } from "../core/types.ts";
import type { PromptLayer } from "../core/types.ts";
import {
  describeKind,
  disposer,
  type Given,
  type Kind,
  type Registry,
} from "./_registry.ts";
import type { Place, Table } from "./_store.ts";

/** What a scope or layer runs once its registrations are gone. */
interface Tracked {
  readonly onDispose?: (() => void) | undefined;
}

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

  constructor(registry: Registry, place: Place, tracked?: Tracked) {
    this.#registry = registry;
    // Owner, then layer: the order of a change event's fields.
    this.#place = { owner: place.owner, layer: place.layer };
    this.#live = tracked && new Set();
    this.#onDispose = tracked?.onDispose;
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  section(section: unknown): Disposer {
    return this.#add("section", { value: section });
  }

  context(entry: unknown): Disposer {
    return this.#add("context", { value: entry });
  }

  variable(name: unknown, provider: unknown): Disposer {
    return this.#add("variable", { value: provider, key: name });
  }

  tools(provider: unknown): Disposer {
    return this.#add("tools", { value: provider });
  }

  item(list: unknown, item: unknown): Disposer {
    return this.#add("item", { value: item, key: list });
  }

  items(list: unknown, provider: unknown): Disposer {
    return this.#add("items", { value: provider, key: list });
  }

  on(event: unknown, handler: unknown): Disposer {
    return this.#add("assemble-handler", { value: handler, key: event });
  }

  /** Removes everything this registrar registered, newest first. */
  dispose(): void {
    if (this.#disposed || this.#live === undefined) return;
    this.#disposed = true;
    const live = [...this.#live].reverse();
    this.#live.clear();
    // No disposer throws (a change listener's failure goes to
    // onListenerError); the hook runs whatever happens.
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
    const state = owner === undefined
      ? `layer "${layer}" is disposed`
      : `scope "${owner}" is disposed`;
    return failure("scope-disposed", action, {}, state, { owner, layer });
  }

  #add(kind: Kind, given: Given): Disposer {
    const what = describeKind(kind, given.key);
    if (this.#disposed) throw this.refused(`add ${what}`);
    const inner = this.#registry.register(kind, { ...given, ...this.#place });
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

  constructor(registry: Registry, place: Place & Tracked) {
    const { owner } = place;
    if (typeof owner !== "string" || owner === "") {
      throw new TypeError(
        `Cannot open scope: owner must be a non-empty string, got ${
          JSON.stringify(owner) ?? typeof owner
        }`,
      );
    }
    super(registry, place, place);
    this.owner = owner;
    this.layer = place.layer;
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
    { table, onDispose }: Tracked & { table: Table },
  ) {
    const scopes = new Set<Scope<C>>();
    // Disposed before its scopes and its table: a listener told of what
    // goes sees a dead layer, and a layer it opens under this key is a new
    // one, left alone.
    super(registry, { owner: undefined, layer: table.key }, {
      onDispose: () => {
        for (const scope of [...scopes]) scope.dispose();
        registry.removeLayer(table);
        onDispose?.();
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
