/**
 * The `system-prompt/assemble` handlers as the waterfall runs them, built
 * once per change so that an assembly allocates no closures for them.
 *
 * @module
 */

import type { HandlerEntry } from "./_entries.ts";
import {
  handlerFailed,
  type HandlerLabel,
  handlerName,
  handlerResultUnreadable,
  handlerReturned,
} from "./_errors.ts";
import { isAssembly } from "./_is_assembly.ts";
import type { AssembleHandler } from "./events.ts";
import type { PromptAssembly } from "./types.ts";
import type { RunWaterfallOptions } from "./waterfall.ts";

/** The live handlers, their labels, and the hooks that name them in errors. */
export interface AssembleHandlers<C> {
  readonly handlers: readonly AssembleHandler<C>[];
  readonly labels: readonly HandlerLabel[];
  readonly options: RunWaterfallOptions<PromptAssembly>;
}

/** The runnable form of `entries`. */
export function assembleHandlers<C>(
  entries: readonly HandlerEntry<C>[],
): AssembleHandlers<C> {
  const labels: HandlerLabel[] = entries.map((entry, index) => ({
    handler: handlerName(entry.handler, index),
    owner: entry.owner,
  }));
  return {
    handlers: entries.map((entry) => entry.handler),
    labels,
    options: {
      onError: (error, index) => handlerFailed(labels[index]!, error),
      accept: (value, index) => {
        let ok: boolean;
        try {
          ok = isAssembly(value);
        } catch (cause) {
          // A getter on the returned object threw.
          throw handlerResultUnreadable(labels[index]!, cause);
        }
        if (ok) return value as PromptAssembly;
        throw handlerReturned(labels[index]!, value);
      },
    },
  };
}
