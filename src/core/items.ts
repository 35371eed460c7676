/**
 * Lists: one heading, items from many owners (SPEC §7.3). The shapes an
 * item takes as a plugin registers it, as a provider returns it, and as an
 * assembly carries it.
 *
 * @module
 */

import type { AssembleContext, SectionText, Stability } from "./context.ts";

/**
 * What makes a section a list: its `text` becomes the heading, and items
 * registered with `item()` or `items()` under the section's name follow it.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderPrompt, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * prompt.section({
 *   name: "tools",
 *   order: 100,
 *   text: "Available tools:",
 *   list: { empty: "Available tools: (none)" },
 * });
 * assert.equal(renderPrompt(await prompt.assemble()), "Available tools: (none)");
 * prompt.scope("bash").item("tools", { name: "bash", order: 1, text: "- bash" });
 * assert.equal(renderPrompt(await prompt.assemble()), "Available tools:\n- bash");
 * ```
 */
export interface ListLayout {
  /** Placed between the heading and the items, and between items. @default {"\n"} */
  separator?: string;
  /**
   * Rendered verbatim (not interpolated, not trimmed) instead of heading and
   * items when no item remains; without it, the whole section is dropped.
   * @default {undefined}
   */
  empty?: string;
  /** Drop an item whose rendered text equals an earlier one's. @default {false} */
  dedupe?: boolean;
}

/**
 * An item's position in its list: a finite number, or a function of the
 * context that returns one (a list in the order the user picked things).
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ItemOrder } from "@dsh/system-prompt";
 *
 * const order: ItemOrder<{ picked: string[] }> = (context) => context.picked.indexOf("bash");
 * assert.equal(typeof order, "function");
 * ```
 */
export type ItemOrder<C = AssembleContext> = number | ((context: C) => number);

/**
 * An item as a plugin registers it with `item(list, …)`.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AssembleContext, PromptItem } from "@dsh/system-prompt";
 *
 * const bash: PromptItem<AssembleContext> = { name: "bash", order: 10, text: "- bash: run a command" };
 * assert.equal(bash.name, "bash");
 * ```
 */
export interface PromptItem<C = AssembleContext> {
  /** A non-empty name, unique within its list. */
  name: string;
  /** Position in the list: ascending, ties by name in code-point order. */
  order: ItemOrder<C>;
  /** The text, resolved at every assembly when it is a function. */
  text: SectionText<C>;
  /** Render the text as it is: no `{{reference}}` is read in it. @default {false} */
  literal?: boolean;
  /** Trim surrounding whitespace after interpolation. @default {true} */
  trim?: boolean;
  /** How often the rendered text changes. @default {"static"} */
  stability?: Stability;
}

/**
 * An item as an `items()` provider returns it: already resolved for the
 * context it was given.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ItemInput } from "@dsh/system-prompt";
 *
 * const file: ItemInput = { name: "AGENTS.md", order: 0, text: "Use tabs.", literal: true };
 * assert.equal(file.literal, true);
 * ```
 */
export interface ItemInput {
  /** A non-empty name, unique within its list. */
  name: string;
  /** A finite number. */
  order: number;
  /** The text. */
  text: string;
  /** Render the text as it is. @default {false} */
  literal?: boolean;
  /** Trim surrounding whitespace after interpolation. @default {true} */
  trim?: boolean;
  /** How often the rendered text changes. @default {"static"} */
  stability?: Stability;
}

/**
 * Returns the items a collection holds in one assembly (context files,
 * skills); evaluated at every assembly.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ItemProvider } from "@dsh/system-prompt";
 *
 * const skills: ItemProvider<{ skills?: string[] }> = (context) =>
 *   (context.skills ?? []).map((name, order) => ({ name, order, text: `- ${name}` }));
 * assert.deepEqual(skills({ skills: ["pdf"] }), [{ name: "pdf", order: 0, text: "- pdf" }]);
 * ```
 */
export type ItemProvider<C = AssembleContext> = (
  context: C,
) => readonly ItemInput[];

/**
 * An item in an assembly: resolved, sorted, its text not yet interpolated.
 * A handler may filter or reorder `section.items`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AssembledItem } from "@dsh/system-prompt";
 *
 * const item: AssembledItem = { name: "bash", order: 1, text: "- bash", owner: "bash" };
 * assert.equal(item.owner, "bash");
 * ```
 */
export interface AssembledItem {
  /** The item's name. */
  name: string;
  /** The resolved order. */
  order: number;
  /** The resolved text, with its `{{references}}` still in it. */
  text: string;
  /** The scope that registered the item or its provider; absent for the root. */
  owner?: string;
  /** Whether the text is rendered as it is. */
  literal?: boolean;
  /** `false` keeps surrounding whitespace. */
  trim?: boolean;
  /** The declared stability; absent means `"static"`. */
  stability?: Stability;
}
