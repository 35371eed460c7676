/**
 * The registrars: the root, owner scopes, layers and scopes inside layers
 * are one class bound to a place, with one path that checks and stores
 * every kind of registration and announces it as a change event. Their
 * arguments are `unknown`: every one is checked at run time, and the
 * public types are `SystemPrompt`'s, `PromptScope`'s and `PromptLayer`'s.
 * Covered by tests/scope_test.ts, tests/layers_test.ts and
 * tests/registry_inputs_test.ts.
 *
 * @module
 */

import { describeValue } from "../core/_describe.ts";
import type { PromptError } from "../core/errors.ts";
import { failure, typeFailure } from "../core/_messages.ts";
import { TOOL_STABILITIES } from "../core/_stability.ts";
import { defined } from "../core/_defined.ts";
import { handlerName } from "../core/_guards.ts";
import type { Provenance } from "../core/_provenance.ts";
import type * as types from "../core/types.ts";
import { disposer, type Registry } from "./_registry.ts";
import { toolPins } from "./_tool_pins.ts";
import {
  addPart,
  addVariable,
  type FunctionEntry,
  listPath,
  partEntry,
  requireFunction,
  Table,
  type UserFunction,
} from "./_store.ts";

/** Checks the options of `tools(provider, options)`; the stability given. */
function toolStabilityOption(
  options: unknown,
  place: Provenance,
): types.ToolStability | undefined {
  if (options === undefined) return undefined;
  const at = { action: "add tool provider", where: place };
  if (typeof options !== "object" || options === null) {
    const problem = `options must be an object, got ${describeValue(options)}`;
    throw typeFailure({ ...at, problem });
  }
  const { stability } = options as { stability?: unknown };
  if (stability === undefined) return undefined;
  if (typeof stability !== "string") {
    const problem = `stability must be a string, got ${
      describeValue(stability)
    }`;
    throw typeFailure({ ...at, problem });
  }
  if (!(TOOL_STABILITIES as readonly string[]).includes(stability)) {
    const problem = `stability is "${stability}", not "static" or "session"`;
    throw failure({ ...at, code: "invalid-option", problem });
  }
  return stability as types.ToolStability;
}

/** The `scope-disposed` error of an action on a disposed scope or layer. */
function refused(action: string, { owner, layer }: Provenance): PromptError {
  const state = owner === undefined
    ? `layer "${layer}" is disposed`
    : `scope "${owner}" is disposed`;
  const fields = { owner, layer };
  return failure({ code: "scope-disposed", action, problem: state, fields });
}

const EVENTS: unknown[] = ["system-prompt/assemble", "system-prompt/change"];
const EXPECTED = `"${EVENTS.join('" or "')}"`;

type Kind = types.PromptChange["kind"];
/** One registration's value, and its list, name or event. */
interface Given {
  readonly value: unknown;
  readonly key?: unknown;
  readonly stability?: types.ToolStability | undefined;
}
/** How messages name a kind, and the table's set of a provider kind. */
interface Named {
  readonly name: string;
  readonly set?: "tools" | "itemProviders" | "handlers";
}

/** The kinds messages name otherwise than by the kind, and the providers. */
const KINDS: Partial<Record<Kind, Named>> = {
  context: { name: "context entry" },
  tools: { name: "tool provider", set: "tools" },
  items: { name: "item provider", set: "itemProviders" },
  "assemble-handler": { name: "handler", set: "handlers" },
};

/** A registrar's place, and what it does when disposed. */
type Place = Provenance & { readonly onDispose?: () => void };

/** The place of the root registrar: no owner, no layer. */
const ROOT: Place = { owner: undefined, layer: undefined };

/**
 * The registration methods, bound to a place. A scope or layer tracks what
 * it registered, so disposing it removes everything at once; the root
 * tracks nothing: it is never disposed.
 */
export class Registrar {
  readonly #registry: Registry;
  readonly #place: Place;
  readonly #live: Set<types.Disposer> | undefined;
  // A layer's live scopes: a disposed scope leaves the set.
  readonly #scopes = new Set<Registrar>();
  #disposed = false;

  constructor(registry: Registry, place: Place = ROOT) {
    this.#registry = registry;
    this.#place = place;
    this.#live = place === ROOT ? undefined : new Set();
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  section(section: unknown): types.Disposer {
    return this.#add("section", { value: section });
  }

  context(entry: unknown): types.Disposer {
    return this.#add("context", { value: entry });
  }

  variable(name: unknown, provider: unknown): types.Disposer {
    return this.#add("variable", { value: provider, key: name });
  }

  tools(provider: unknown, options?: unknown): types.Disposer {
    const stability = toolStabilityOption(options, this.#place);
    return this.#add("tools", { value: provider, stability });
  }

  item(list: unknown, item: unknown): types.Disposer {
    return this.#add("item", { value: item, key: list });
  }

  items(list: unknown, provider: unknown): types.Disposer {
    return this.#add("items", { value: provider, key: list });
  }

  on(event: unknown, handler: unknown): types.Disposer {
    return this.#add("assemble-handler", { value: handler, key: event });
  }

  /**
   * Removes everything this registrar registered, newest first, then a
   * layer's scopes. Disposed first: a listener told of what goes sees a
   * dead registrar, and a layer it opens under this key is a new one.
   */
  dispose(): void {
    if (this.#disposed || this.#live === undefined) return;
    this.#disposed = true;
    // Each one leaves its set: copies.
    for (const dispose of [...this.#live].reverse()) dispose();
    for (const scope of [...this.#scopes]) scope.dispose();
    this.#place.onDispose?.();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  /** A scope inside this layer, disposed with it. */
  protected open(owner: string): Scope {
    if (this.#disposed) throw refused("open scope", this.#place);
    const onDispose = () => void this.#scopes.delete(scope);
    const layer = this.#place.layer;
    const scope = new Scope(this.#registry, { owner, layer, onDispose });
    this.#scopes.add(scope);
    return scope;
  }

  /**
   * Checks and stores one registration; returns the disposer that undoes
   * it. Both are announced as change events.
   */
  #add(kind: Kind, { value, key, stability }: Given): types.Disposer {
    const registry = this.#registry;
    const { owner, layer } = this.#place;
    const handler = kind === "assemble-handler";
    const { name, set } = KINDS[kind] ?? { name: kind };
    // How messages name it.
    let what = handler ? `"${key}" handler` : name;
    if (this.#disposed) throw refused(`add ${what}`, this.#place);
    if (handler && !EVENTS.includes(key)) {
      const shown = JSON.stringify(key);
      const problem = `unknown event ${shown}; expected ${EXPECTED}`;
      throw typeFailure({ action: "add handler", problem });
    }
    const path = kind === "item" || kind === "items"
      ? listPath(key, { action: `add ${what}` })
      : [];
    if (kind === "items") what += " of";
    const at = kind === "items" ? { list: path } : {};
    if (set !== undefined) {
      requireFunction(value, { action: `add ${what}`, where: at });
    }
    // A listener is no registration: no change event, no new snapshot.
    const listener = handler && key === "system-prompt/change";
    // A disposed layer's registrars are disposed: a layer's table is there.
    const table = registry.layers.get(layer!) ?? registry.global;
    const fn = value as UserFunction;
    let undo: () => unknown;
    let named: string | undefined;
    if (listener) undo = registry.events.listen(fn, owner);
    else if (kind === "section" || kind === "context" || kind === "item") {
      const top = kind === "item" ? registry.topOf(path) : "section";
      const entry = partEntry(kind, value, { path, owner, layer, top });
      named = entry.name;
      undo = addPart(table, entry);
    } else if (kind === "variable") {
      named = key as string;
      undo = addVariable(table, { fn, name: named, path, owner, layer });
    } else {
      const label = handler ? handlerName(value, table.handlerCount++) : "";
      const entry: FunctionEntry = { fn, name: label, path, owner, layer };
      if (stability !== undefined) Object.assign(entry, { stability });
      table[set!].add(entry);
      undo = () => table[set!].delete(entry);
    }
    const list = path.length > 0 ? path.join("/") : undefined;
    const announce = (action: types.PromptChange["action"]) => {
      if (listener) return;
      registry.invalidate();
      // No event object is built for nobody.
      if (!registry.events.listening) return;
      const change = { kind, action, name: named, list, owner, layer };
      registry.events.emit(defined(change));
    };
    const dispose: types.Disposer = disposer(() => {
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
export class Scope extends Registrar {
  readonly owner: string;
  readonly layer: string | undefined;

  constructor(registry: Registry, place: Place) {
    if (typeof place.owner !== "string" || place.owner === "") {
      const got = JSON.stringify(place.owner) ?? typeof place.owner;
      const problem = `owner must be a non-empty string, got ${got}`;
      throw typeFailure({ action: "open scope", problem });
    }
    super(registry, place);
    this.owner = place.owner;
    this.layer = place.layer;
  }
}

/** A layer: its own table on top of its parent's and the global one. */
export class Layer extends Registrar {
  readonly key: string;
  readonly parent: string | undefined;

  constructor(
    registry: Registry,
    at: { key: string; parent: string | undefined },
  ) {
    const { key, parent } = at;
    const table = new Table(key, parent);
    // Only its own table: a listener may have opened a new layer of the key.
    const onDispose = () => {
      if (registry.layers.get(key) !== table) return;
      registry.layers.delete(key);
      registry.invalidate();
    };
    super(registry, { owner: undefined, layer: key, onDispose });
    this.key = key;
    this.parent = parent;
    table.handle = this;
    registry.layers.set(key, table);
    registry.invalidate();
  }

  scope(owner: string): Scope {
    return this.open(owner);
  }

  /** The live layer of a key, or a new one (`invalid-option` for another parent). */
  static open(
    registry: Registry,
    key: string,
    options: { parent?: unknown; toolPins?: unknown },
  ): Layer {
    const { parent } = options;
    const pins = toolPins(options.toolPins, {
      action: "open layer",
      layer: key,
    });
    const live = registry.layers.get(key)?.handle as Layer | undefined;
    if (live !== undefined && !live.disposed) {
      if (parent !== undefined && parent !== live.parent) {
        const shown = JSON.stringify(live.parent ?? null);
        const state = `it is live with parent ${shown}`;
        throw layerError(key, { action: "open", problem: state });
      }
      if (pins !== undefined) {
        registry.layers.get(key)!.pins = pins;
        registry.invalidate();
      }
      return live;
    }
    if (typeof key !== "string" || key === "") {
      const shown = key === "" ? '""' : describeValue(key);
      const problem = `its key is ${shown}, not a non-empty string`;
      throw typeFailure({ action: "add layer", problem });
    }
    if (parent !== undefined && typeof parent !== "string") {
      const problem = `its parent is ${describeValue(parent)}, not a string`;
      const where = { layer: key, subject: "layer" } as const;
      throw typeFailure({ action: "add", where, problem });
    }
    if (parent === key) {
      const problem = "a layer cannot be its own parent";
      throw layerError(key, { action: "add", problem });
    }
    const layer = new Layer(registry, { key, parent });
    registry.layers.get(key)!.pins = pins;
    return layer;
  }
}

/**
 * A layer's `invalid-option`: the layer is what the action names
 * (`add layer "sub"`), not where it happened (`in layer "sub"`).
 */
function layerError(
  key: string,
  { action, problem }: { action: string; problem: string },
): PromptError {
  const where = { layer: key, subject: "layer" } as const;
  return failure({ code: "invalid-option", action, where, problem });
}
