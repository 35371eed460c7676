/**
 * The registry's state: the global table and one per layer, the change
 * events, the snapshot of each layer chain (dropped on every change), each
 * kind of registration checked and stored once, for every place, and what
 * `registrations()` reports of it all.
 *
 * @module
 */

import { closestName, didYouMean } from "../core/names.ts";
import { failure, type PromptError } from "../core/errors.ts";
import type {
  ChangeListener,
  Disposer,
  PromptChange,
  PromptRegistrations,
} from "../core/types.ts";
import { type ChangeEvents, handlerName } from "./_guard.ts";
import { type Snapshot, snapshot } from "./_snapshot.ts";
import {
  addPart,
  addVariable,
  byNumericOrder,
  defined,
  listPath,
  partEntry,
  partKey,
  type Place,
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

/** One registration: what it is, the value, its list, name or event. */
export interface Given {
  readonly kind: PromptChange["kind"];
  readonly value: unknown;
  /** An item's or item provider's list, a variable's name, an event. */
  readonly key?: unknown;
}

/** The registrar a registration comes through. */
export interface At extends Place {
  /** Its live disposers, which the new one joins (none for the root). */
  readonly live: Set<Disposer> | undefined;
  disposed: boolean;
}

/** A change event's fields but the action, `undefined` when not set. */
interface Change extends Place {
  readonly kind: PromptChange["kind"];
  readonly name: string | undefined;
  readonly list: string | undefined;
}

/** The `scope-disposed` error of an action on a disposed scope or layer. */
export function refused(action: string, { owner, layer }: Place): PromptError {
  const state = owner === undefined
    ? `layer "${layer}" is disposed`
    : `scope "${owner}" is disposed`;
  return failure("scope-disposed", action, {}, state, { owner, layer });
}

const EVENTS: unknown[] = ["system-prompt/assemble", "system-prompt/change"];

const WHAT: Partial<Record<Given["kind"], string>> = {
  context: "context entry",
  tools: "tool provider",
  items: "item provider",
};

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

  addLayer(key: unknown, parent: unknown): Table {
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
    this.#invalidate();
    return table;
  }

  removeLayer(table: Table): void {
    // Only its own table: a listener may have opened a new layer of the key.
    if (this.layers.get(table.key!) !== table) return;
    this.layers.delete(table.key!);
    this.#invalidate();
  }

  /**
   * Checks and stores one registration at a place; returns the disposer
   * that undoes it. Both are announced as change events.
   */
  register(given: Given, at: At): Disposer {
    const { kind, value, key } = given;
    const { owner, layer, live } = at;
    const place: Place = { owner, layer };
    const handler = kind === "assemble-handler";
    // How messages name it.
    let what = handler ? `"${key}" handler` : WHAT[kind] ?? kind;
    if (at.disposed) throw refused(`add ${what}`, place);
    if (handler && !EVENTS.includes(key)) {
      const expected = EVENTS.map((e) => `"${e}"`).join(" or ");
      const shown = JSON.stringify(key);
      const state = `unknown event ${shown}; expected ${expected}`;
      throw new TypeError(`Cannot add handler: ${state}`);
    }
    const path = kind === "item" || kind === "items" ? listPath(key, what) : [];
    if (kind === "items") what += ` of list "${path.join("/")}"`;
    if (kind === "tools" || kind === "items" || handler) {
      requireFunction(value, what);
    }
    let undo: () => unknown;
    let change: Change | undefined;
    if (handler && key === "system-prompt/change") {
      // A listener is no registration: no change event, no new snapshot.
      undo = this.events.listen(value as ChangeListener, owner);
    } else {
      // A disposed layer's registrars are disposed: its table is there.
      const table = layer === undefined ? this.global : this.layers.get(layer)!;
      let name: string | undefined;
      if (kind === "section" || kind === "context" || kind === "item") {
        const top = kind === "item" && this.#isContextList(path[0]!)
          ? "context"
          : "section";
        const entry = partEntry(kind, value, { path, ...place, top });
        name = entry.name;
        undo = addPart(table, entry);
      } else if (kind === "variable") {
        const entry = { fn: value as UserFunction, name: key as string };
        name = entry.name;
        undo = addVariable(table, { ...entry, path, ...place });
      } else {
        const set = kind === "tools"
          ? table.tools
          : kind === "items"
          ? table.itemProviders
          : table.handlers;
        const label = handler ? handlerName(value, table.handlerCount++) : "";
        const fn = value as UserFunction;
        const entry = { fn, name: label, path, ...place };
        set.add(entry);
        undo = () => set.delete(entry);
      }
      const list = path.length > 0 ? path.join("/") : undefined;
      change = { kind, name, list, owner, layer };
    }
    const dispose: Disposer = disposer(() => {
      live?.delete(dispose);
      undo();
      this.#announce("unregister", change);
    });
    this.#announce("register", change);
    live?.add(dispose);
    return dispose;
  }

  /** What the registry holds, global and per layer, for inspection. */
  describe(toolOrder: readonly string[]): PromptRegistrations {
    const found: PromptRegistrations = {
      sections: [],
      contexts: [],
      variables: [],
      toolProviders: [],
      handlers: [],
      items: [],
      itemProviders: [],
      layers: [],
      toolOrder: [...toolOrder],
    };
    for (const table of [this.global, ...this.layers.values()]) {
      const { key, parent } = table;
      if (key !== undefined) found.layers.push(defined({ key, parent }));
      // Sections and context entries in prompt order, as a reader expects.
      for (const part of [...table.parts.values()].sort(byNumericOrder)) {
        const { name, path, owner, layer } = part;
        const list = part.list && (true as const);
        if (part.kind === "item") {
          const item = { list: path.join("/"), path: [...path], name };
          const rest = { declaresList: list, owner, layer };
          found.items.push(defined({ ...item, ...rest }));
        } else {
          const order = typeof part.order === "number" ? part.order : 0;
          const to = part.kind === "section" ? "sections" : "contexts";
          found[to].push(defined({ name, order, list, owner, layer }));
        }
      }
      for (const { name, owner, layer } of table.variables.values()) {
        found.variables.push(defined({ name, owner, layer }));
      }
      for (const { owner, layer } of table.tools) {
        found.toolProviders.push(defined({ owner, layer }));
      }
      for (const { name, owner, layer } of table.handlers) {
        found.handlers.push(defined({ handler: name, owner, layer }));
      }
      for (const { path, owner, layer } of table.itemProviders) {
        const at = { list: path.join("/"), path: [...path] };
        found.itemProviders.push(defined({ ...at, owner, layer }));
      }
    }
    return found;
  }

  /** The layer chain of a key, farthest first, or `unknown-layer`. */
  #chain(key: string | undefined): Table[] {
    const chain: Table[] = [];
    const seen = new Set<string>();
    for (let next = key; next !== undefined;) {
      const table = this.layers.get(next);
      if (table !== undefined && !seen.has(next)) {
        seen.add(next);
        chain.unshift(table);
        next = table.parent;
        continue;
      }
      const loop = seen.has(next);
      const suggestion = loop
        ? undefined
        : closestName(next, this.layers.keys());
      const reason = loop
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
  #isContextList(name: string): boolean {
    const key = partKey("context", [], name);
    for (const table of [this.global, ...this.layers.values()]) {
      if (table.parts.get(key)?.list !== undefined) return true;
    }
    return false;
  }

  /** A registration came or went: new snapshots, and its change event. */
  #announce(action: PromptChange["action"], change?: Change): void {
    if (change === undefined) return;
    this.#invalidate();
    // No event object is built for nobody.
    if (!this.events.listening) return;
    const { kind, ...fields } = change;
    this.events.emit(defined({ kind, action, ...fields }));
  }

  #invalidate(): void {
    if (this.#snapshots.size > 0) this.#snapshots = new Map();
  }
}

/** Order functions sort per step; here they keep their name order. */
