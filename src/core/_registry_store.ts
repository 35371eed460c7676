/**
 * The registry's storage: live registrations in maps, and the snapshot an
 * assembly reads, rebuilt once after each change.
 *
 * @module
 */

import {
  type AssembleHandlers,
  assembleHandlers,
} from "./_assemble_handlers.ts";
import { ChangeEvents } from "./_change_events.ts";
import { compareCodePoints } from "./_compare_code_points.ts";
import type {
  HandlerEntry,
  ItemEntry,
  ItemProviderEntry,
  SectionEntry,
  ToolEntry,
  VariableEntry,
} from "./_entries.ts";
import { duplicateSection, duplicateVariable } from "./_errors.ts";
import { duplicateItem, invalidItem } from "./_item_errors.ts";
import { type ListSource, listSources } from "./_resolve_items.ts";
import { itemEntry } from "./_validate_layout.ts";
import {
  requireFunction,
  requireVariableName,
  sectionEntry,
} from "./_validate_registration.ts";
import { createDisposer, type Disposer } from "./disposer.ts";
import type { PromptError } from "./errors.ts";
import type {
  AssembleHandler,
  ChangeListener,
  EventHandler,
  PromptChange,
  PromptEvents,
} from "./events.ts";
import { describeValue } from "./_describe_value.ts";
import type { ItemProvider, PromptItem } from "./items.ts";
import type { PromptSection, ToolProvider, VariableProvider } from "./types.ts";

/** What one assembly reads, captured before any user code runs. */
export interface Snapshot<C> {
  readonly sections: readonly SectionEntry<C>[];
  readonly variables: readonly VariableEntry<C>[];
  readonly tools: readonly ToolEntry<C>[];
  readonly handlers: AssembleHandlers<C>;
  /** Live items, by list then registration order. */
  readonly items: readonly ItemEntry<C>[];
  readonly itemProviders: readonly ItemProviderEntry<C>[];
  /** The same, grouped by list for resolving. */
  readonly lists: ReadonlyMap<string, ListSource<C>>;
}

const NO_LISTS: ReadonlyMap<string, never> = new Map<string, never>();

const EVENTS: readonly string[] = [
  "system-prompt/assemble",
  "system-prompt/change",
];

/**
 * Live registrations. Every add validates, stores, emits its change event
 * and returns the disposer that undoes it; the snapshot is shared by every
 * assembly until the next change, and never mutated.
 */
export class RegistryStore<C> {
  readonly #sections = new Map<string, SectionEntry<C>>();
  readonly #variables = new Map<string, VariableEntry<C>>();
  // Sets, not copied arrays: adding and removing is O(1), and iteration
  // keeps registration order. The snapshot copies them once per change.
  readonly #tools = new Set<ToolEntry<C>>();
  readonly #handlers = new Set<HandlerEntry<C>>();
  readonly #items = new Map<string, Map<string, ItemEntry<C>>>();
  readonly #itemProviders = new Set<ItemProviderEntry<C>>();
  #snapshot: Snapshot<C> | undefined;
  readonly #events: ChangeEvents;

  constructor(onListenerError: (error: PromptError) => void) {
    this.#events = new ChangeEvents(onListenerError);
  }

  snapshot(): Snapshot<C> {
    if (this.#snapshot !== undefined) return this.#snapshot;
    const items: ItemEntry<C>[] = [];
    // One push per item: spreading a list into one call's arguments
    // overflows the stack past ~125,000 items.
    for (const list of this.#items.values()) {
      for (const item of list.values()) items.push(item);
    }
    const itemProviders = [...this.#itemProviders];
    return this.#snapshot = {
      sections: [...this.#sections.values()].sort(
        (a, b) => a.order - b.order || compareCodePoints(a.name, b.name),
      ),
      variables: [...this.#variables.values()],
      tools: [...this.#tools],
      handlers: assembleHandlers([...this.#handlers]),
      items,
      itemProviders,
      lists: items.length === 0 && itemProviders.length === 0
        ? NO_LISTS
        : listSources(items, itemProviders),
    };
  }

  addSection(section: PromptSection<C>, owner: string | undefined): Disposer {
    const entry = sectionEntry(section, owner);
    const { name } = entry;
    const existing = this.#sections.get(name);
    if (existing !== undefined) throw duplicateSection(name, existing.owner);
    this.#sections.set(name, entry);
    return this.#changed("section", name, owner, () => {
      this.#sections.delete(name);
    });
  }

  addVariable(
    name: string,
    provider: VariableProvider<C>,
    owner: string | undefined,
  ): Disposer {
    requireVariableName(name, owner);
    requireFunction(provider, `variable "${name}"`);
    const existing = this.#variables.get(name);
    if (existing !== undefined) throw duplicateVariable(name, existing.owner);
    this.#variables.set(name, { name, provider, owner });
    return this.#changed("variable", name, owner, () => {
      this.#variables.delete(name);
    });
  }

  addTools(provider: ToolProvider<C>, owner: string | undefined): Disposer {
    requireFunction(provider, "tool provider");
    const entry: ToolEntry<C> = { provider, owner };
    this.#tools.add(entry);
    return this.#changed("tools", undefined, owner, () => {
      this.#tools.delete(entry);
    });
  }

  addItem(
    list: string,
    item: PromptItem<C>,
    owner: string | undefined,
  ): Disposer {
    const entry = itemEntry(list, item, owner);
    const { name } = entry;
    let named = this.#items.get(list);
    const existing = named?.get(name);
    if (existing !== undefined) {
      throw duplicateItem(name, list, owner, existing.owner);
    }
    if (named === undefined) this.#items.set(list, named = new Map());
    named.set(name, entry);
    return this.#changed("item", name, owner, () => {
      named.delete(name);
      if (named.size === 0 && this.#items.get(list) === named) {
        this.#items.delete(list);
      }
    }, list);
  }

  addItems(
    list: string,
    provider: ItemProvider<C>,
    owner: string | undefined,
  ): Disposer {
    if (typeof list !== "string") {
      throw new TypeError(
        `Cannot add item provider: list must be a section name, got ${
          describeValue(list)
        }`,
      );
    }
    if (list === "") {
      throw invalidItem("", list, owner, "list must not be empty");
    }
    requireFunction(provider, `item provider of list "${list}"`);
    const entry: ItemProviderEntry<C> = { list, provider, owner };
    this.#itemProviders.add(entry);
    return this.#changed("items", undefined, owner, () => {
      this.#itemProviders.delete(entry);
    }, list);
  }

  addHandler<E extends keyof PromptEvents<C>>(
    event: E,
    handler: EventHandler<C, E>,
    owner: string | undefined,
  ): Disposer {
    if (!EVENTS.includes(event)) {
      throw new TypeError(
        `Cannot add handler: unknown event ${
          JSON.stringify(event)
        }; expected ` +
          EVENTS.map((e) => `"${e}"`).join(" or "),
      );
    }
    requireFunction(handler, `"${event}" handler`);
    if (event === "system-prompt/change") {
      return this.#events.listen(handler as ChangeListener, owner);
    }
    const entry: HandlerEntry<C> = {
      handler: handler as AssembleHandler<C>,
      owner,
    };
    this.#handlers.add(entry);
    return this.#changed("assemble-handler", undefined, owner, () => {
      this.#handlers.delete(entry);
    });
  }

  /**
   * Records a registration that was just stored: drops the snapshot, tells
   * the listeners, and returns the disposer that undoes it the same way.
   */
  #changed(
    kind: PromptChange["kind"],
    name: string | undefined,
    owner: string | undefined,
    remove: () => void,
    list?: string,
  ): Disposer {
    this.#snapshot = undefined;
    this.#events.emit(kind, "register", name, owner, list);
    return createDisposer(() => {
      remove();
      this.#snapshot = undefined;
      this.#events.emit(kind, "unregister", name, owner, list);
    });
  }
}
