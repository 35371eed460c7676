/**
 * The registry's state: the global table and one per layer, the change
 * events, the snapshot of each layer chain (dropped on every change), and
 * what `registrations()` reports of it all.
 *
 * @module
 */

import { failure } from "../core/errors.ts";
import { closestName, didYouMean } from "../core/names.ts";
import type { Disposer, PromptRegistrations } from "../core/types.ts";
import type { ChangeEvents } from "./_guard.ts";
import { type Snapshot, snapshot } from "./_snapshot.ts";
import { byNumericOrder, defined, partKey, Table } from "./_store.ts";

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
