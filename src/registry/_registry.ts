/**
 * The registry's state: the global table and one per layer, the change
 * events, the snapshot of each layer chain (built when a step first asks,
 * dropped on every change), and what `registrations()` reports of it all.
 * The registrars that change it are in `_registrar.ts`. Covered by
 * tests/layers_test.ts, tests/snapshot_test.ts and tests/disposer_test.ts.
 *
 * @module
 */

import { failure } from "../core/_messages.ts";
import { closestName, didYouMean } from "../core/_names.ts";
import { defined } from "../core/_defined.ts";
import type { Provenance } from "../core/_provenance.ts";
import type * as types from "../core/types.ts";
import type { ChangeEvents } from "./_change_events.ts";
import { type Snapshot, snapshot } from "./_snapshot.ts";
import {
  byNumericOrder,
  type FunctionEntry,
  ordered,
  type PartEntry,
  partKey,
  Table,
} from "./_store.ts";

/** Makes an idempotent, `Disposable` disposer. */
export function disposer(undo: () => void): types.Disposer {
  let done = false;
  const dispose = (() => {
    if (done) return;
    done = true;
    undo();
  }) as types.Disposer;
  return Object.assign(dispose, { [Symbol.dispose]: dispose });
}
/** The tables, the change events and the snapshot of each chain. */
export class Registry {
  readonly global: Table = new Table();
  readonly layers: Map<string, Table> = new Map();
  readonly #snapshots = new Map<string | undefined, Snapshot>();

  constructor(readonly events: ChangeEvents) {}

  /**
   * The snapshot of a layer's chain (farthest first, on the global table),
   * or `unknown-layer`; O(1) until a change.
   */
  snapshot(key: string | undefined): Snapshot {
    const found = this.#snapshots.get(key);
    if (found !== undefined) return found;
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
      const where = { layer: key, subject: "layer" } as const;
      throw failure({
        code: "unknown-layer",
        action: "assemble",
        where,
        problem: state,
        fields: { suggestion },
      });
    }
    const made = snapshot([this.global, ...chain]);
    this.#snapshots.set(key, made);
    return made;
  }

  /** A registration came or went: every chain gets a new snapshot. */
  invalidate(): void {
    // Fast path: clearing an empty map still allocates.
    if (this.#snapshots.size > 0) this.#snapshots.clear();
  }

  /** What the registry holds, global and per layer, for inspection. */
  describe(toolOrder: readonly string[]): types.PromptRegistrations {
    const tables = [this.global, ...this.layers.values()];
    const all = (key: "variables" | "tools" | "itemProviders" | "handlers") =>
      tables.flatMap((table): FunctionEntry[] => [...table[key].values()]);
    // Parts in prompt order, as a reader expects.
    const parts = (kind: PartEntry["kind"]) =>
      tables.flatMap((table) =>
        [...table.parts.values()].filter((part) => part.kind === kind)
          .sort(byNumericOrder)
      );
    // Each registration's own fields, then its owner and layer.
    const rows = <E extends Provenance, T>(of: E[], fields: (e: E) => T) =>
      of.map((e) => defined({ ...fields(e), owner: e.owner, layer: e.layer }));
    const top = (p: PartEntry) => ({ ...ordered(p), list: p.list && YES });
    const at = (p: readonly string[]) => ({ list: p.join("/"), path: [...p] });
    return {
      sections: rows(parts("section"), top),
      contexts: rows(parts("context"), top),
      variables: rows(all("variables"), ({ name }) => ({ name })),
      toolProviders: rows(all("tools"), () => ({})),
      handlers: rows(all("handlers"), ({ name }) => ({ handler: name })),
      items: rows(parts("item"), (part) => {
        const own = { name: part.name, declaresList: part.list && YES };
        return { ...at(part.path), ...own };
      }),
      itemProviders: rows(all("itemProviders"), ({ path }) => at(path)),
      layers: [...this.layers.values()].map(({ key, parent }) =>
        defined({ key, parent })
      ),
      toolOrder: [...toolOrder],
    };
  }

  /**
   * The sequence of an item's top-level list: a context entry's if any
   * table holds a context entry list of its name.
   */
  topOf(path: readonly string[]): "section" | "context" {
    const key = partKey("context", { path: [], name: path[0]! });
    const tables = [this.global, ...this.layers.values()];
    return tables.some((t) => t.parts.get(key)?.list) ? "context" : "section";
  }
}

/** `list && YES` is `true` for a list, `undefined` for none. */
const YES = true as const;
