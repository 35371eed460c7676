/**
 * The registry's state: the global table and one per layer, the change
 * events, the snapshot of each layer chain (dropped on every change), and
 * each kind of registration checked and stored once, for every place.
 *
 * @module
 */

import type { PartKind } from "../core/_fields.ts";
import { failure, type PromptError } from "../core/errors.ts";
import type { Disposer } from "../core/types.ts";
import { change, ChangeEvents, handlerName } from "./_guard.ts";
import { type Snapshot, snapshot } from "./_snapshot.ts";
import {
  addPart,
  addVariable,
  type FunctionEntry,
  layerChain,
  partEntry,
  partKey,
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
export interface Place {
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

  #isContextList(name: string): boolean {
    const key = partKey("context", [], name);
    for (const table of [this.global, ...this.layers.values()]) {
      if (table.parts.get(key)?.list !== undefined) return true;
    }
    return false;
  }

  removeLayer(table: Table): void {
    // Only its own table: a listener may have opened a new layer of the key.
    if (this.layers.get(table.key!) !== table) return;
    this.layers.delete(table.key!);
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
    const top = kind === "item" && this.#isContextList(path[0]!)
      ? "context"
      : "section";
    const entry = partEntry(kind, input, { path, ...place, top });
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
      name: handlerName(fn, table.handlerCount++),
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
