/**
 * What the registry stores for each live registration, and the snapshot an
 * assembly captures.
 *
 * @module
 */

import type { AssembleHandler, ChangeListener } from "./events.ts";
import type { ItemOrder, ItemProvider, ListLayout } from "./items.ts";
import type { SectionText, Stability } from "./context.ts";
import type { ToolProvider, VariableProvider } from "./types.ts";

/** What every registration records: its scope's owner, if any. */
export interface Entry {
  readonly owner: string | undefined;
}

/** A live section, its fields read once and validated. */
export interface SectionEntry<C> extends Entry {
  readonly name: string;
  readonly order: number;
  readonly text: SectionText<C>;
  readonly stability: Stability | undefined;
  /** The §7 options; `undefined` when none is set, so the default layout costs one check. */
  readonly layout: SectionLayout | undefined;
}

/** A section's layout options, each validated; absent ones are `undefined`. */
export interface SectionLayout {
  readonly separator: string | undefined;
  readonly trim: false | undefined;
  readonly literal: true | undefined;
  readonly list: Readonly<ListLayout> | undefined;
}

/** A live item of a list, its fields read once and validated. */
export interface ItemEntry<C> extends Entry {
  readonly list: string;
  readonly name: string;
  readonly order: ItemOrder<C>;
  readonly text: SectionText<C>;
  readonly literal: true | undefined;
  readonly trim: false | undefined;
  readonly stability: Stability | undefined;
}

/** A live item provider of a list. */
export interface ItemProviderEntry<C> extends Entry {
  readonly list: string;
  readonly provider: ItemProvider<C>;
}

/** A live variable. */
export interface VariableEntry<C> extends Entry {
  readonly name: string;
  readonly provider: VariableProvider<C>;
}

/** A live tool provider. */
export interface ToolEntry<C> extends Entry {
  readonly provider: ToolProvider<C>;
}

/** A live `system-prompt/assemble` handler. */
export interface HandlerEntry<C> extends Entry {
  readonly handler: AssembleHandler<C>;
}

/** A live `system-prompt/change` listener. */
export interface ListenerEntry extends Entry {
  readonly listener: ChangeListener;
}
