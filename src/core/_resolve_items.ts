/**
 * Resolves the layout of a section (SPEC §7) into its assembled form: the
 * separator and flags, and for a list its items, resolved against the
 * context and sorted (order, then name in code-point order).
 *
 * @module
 */

import { compareCodePoints } from "./_compare_code_points.ts";
import { describeValue } from "./_describe_value.ts";
import { ignoreRejection } from "./_ignore_rejection.ts";
import { isProvidedArray } from "./_is_provided_array.ts";
import type {
  ItemEntry,
  ItemProviderEntry,
  SectionLayout,
} from "./_entries.ts";
import {
  duplicateItem,
  itemFailed,
  itemReturned,
  itemsFailed,
  itemsReturned,
} from "./_item_errors.ts";
import { providedItem } from "./_validate_layout.ts";
import type { AssembledItem } from "./items.ts";
import type { AssembledSection } from "./types.ts";

/** What contributes to one list: its registered items and item providers. */
export interface ListSource<C> {
  readonly items: readonly ItemEntry<C>[];
  readonly providers: readonly ItemProviderEntry<C>[];
}

/** Groups live items and item providers by list, once per change. */
export function listSources<C>(
  items: readonly ItemEntry<C>[],
  providers: readonly ItemProviderEntry<C>[],
): ReadonlyMap<string, ListSource<C>> {
  const lists = new Map<
    string,
    { items: ItemEntry<C>[]; providers: ItemProviderEntry<C>[] }
  >();
  const source = (list: string) => {
    let found = lists.get(list);
    if (found === undefined) {
      lists.set(list, found = { items: [], providers: [] });
    }
    return found;
  };
  for (const item of items) source(item.list).items.push(item);
  for (const provider of providers) {
    source(provider.list).providers.push(provider);
  }
  return lists;
}

/** Copies `layout` onto `section`; a list gets its items for `context`. */
export function applyLayout<C>(
  section: AssembledSection,
  layout: SectionLayout,
  lists: ReadonlyMap<string, ListSource<C>>,
  context: C,
): void {
  if (layout.separator !== undefined) section.separator = layout.separator;
  if (layout.trim === false) section.trim = false;
  if (layout.literal === true) section.literal = true;
  if (layout.list !== undefined) {
    section.list = { ...layout.list };
    section.items = resolveItems(
      section.name,
      lists.get(section.name),
      context,
    );
  }
}

/** The items of `list` for `context`, sorted. */
export function resolveItems<C>(
  list: string,
  source: ListSource<C> | undefined,
  context: C,
): AssembledItem[] {
  const items: AssembledItem[] = [];
  if (source === undefined) return items;
  for (let i = 0; i < source.items.length; i++) {
    items.push(resolveItem(source.items[i]!, context));
  }
  if (source.providers.length > 0) addProvided(list, source, context, items);
  return items.sort(
    (a, b) => a.order - b.order || compareCodePoints(a.name, b.name),
  );
}

function resolveItem<C>(entry: ItemEntry<C>, context: C): AssembledItem {
  const { list, name, owner } = entry;
  let order: unknown = entry.order;
  if (typeof order === "function") {
    try {
      order = order(context);
    } catch (cause) {
      throw itemFailed(name, list, owner, "order", cause);
    }
    if (typeof order !== "number" || !Number.isFinite(order)) {
      ignoreRejection(order);
      throw itemReturned(name, list, owner, "order", order);
    }
  }
  let text: unknown = entry.text;
  if (typeof text === "function") {
    try {
      text = text(context);
    } catch (cause) {
      throw itemFailed(name, list, owner, "text", cause);
    }
    if (typeof text !== "string") {
      ignoreRejection(text);
      throw itemReturned(name, list, owner, "text", text);
    }
  }
  const item: AssembledItem = {
    name,
    order: order as number,
    text: text as string,
  };
  if (owner !== undefined) item.owner = owner;
  if (entry.literal === true) item.literal = true;
  if (entry.trim === false) item.trim = false;
  if (entry.stability !== undefined) item.stability = entry.stability;
  return item;
}

/** Appends what the list's providers return; names stay unique in the list. */
function addProvided<C>(
  list: string,
  source: ListSource<C>,
  context: C,
  items: AssembledItem[],
): void {
  const owners = new Map<string, string | undefined>();
  for (const item of items) owners.set(item.name, item.owner);
  for (const { provider, owner } of source.providers) {
    let provided: unknown;
    try {
      provided = provider(context);
    } catch (cause) {
      throw itemsFailed(list, owner, cause);
    }
    // Reading what it returned runs its getters: their throws are its own.
    const failed = (cause: unknown) => itemsFailed(list, owner, cause);
    if (!isProvidedArray(provided, failed)) {
      ignoreRejection(provided);
      throw itemsReturned(
        list,
        owner,
        `its item provider returned ${describeValue(provided)}, not an array`,
      );
    }
    let length: number;
    try {
      length = provided.length;
    } catch (cause) {
      throw failed(cause);
    }
    for (let j = 0; j < length; j++) {
      let value: unknown;
      try {
        value = provided[j];
      } catch (cause) {
        throw failed(cause);
      }
      const item = providedItem(list, value, owner, j, failed);
      if (owners.has(item.name)) {
        throw duplicateItem(item.name, list, owner, owners.get(item.name));
      }
      owners.set(item.name, owner);
      items.push(item);
    }
  }
}
