/**
 * What `explainPrompt` says about the items of a list section.
 *
 * @module
 */

import { estimateTokens } from "./estimate_tokens.ts";
import { referencedVariables } from "./_referenced_variables.ts";
import type { ListParts } from "../render/_render_list.ts";
import type { AssembledItem } from "../core/types.ts";
import type { Stability } from "../core/types.ts";
import type { AssembledSection } from "../core/types.ts";

/**
 * One rendered item of a list section; a `SectionExplanation`
 * says the same of a section, and more.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { explainPrompt, type ItemExplanation } from "@dsh/system-prompt/inspect";
 *
 * const { text, sections } = explainPrompt({
 *   sections: [{
 *     name: "tools", order: 0, text: "Tools:", list: {},
 *     items: [{ name: "bash", order: 0, text: "- bash", owner: "bash" }],
 *   }],
 *   tools: [],
 *   variables: {},
 * });
 * const bash: ItemExplanation = sections[0]!.items![0]!;
 * assert.equal(text.slice(bash.start, bash.end), "- bash");
 * assert.equal(text.slice(bash.separatorStart, bash.start), "\n");
 * ```
 */
export interface ItemExplanation {
  /** Its name. */
  name: string;
  /** The owner; absent for the root registry. */
  owner?: string;
  /** Its order. */
  order: number;
  /** The declared stability (`"static"` when none was declared). */
  stability: Stability;
  /**
   * Where the separator before it starts (`start` when there is none):
   * `[separatorStart, start)` is the separator, so spans and separators
   * tile the text around them.
   */
  separatorStart: number;
  /** Where it starts in `text` (UTF-16 index). */
  start: number;
  /** Where it ends, exclusive. */
  end: number;
  /** `end - start`. */
  chars: number;
  /** `estimateTokens` of the rendered text. */
  tokens: number;
  /** The variables it references, in first-use order; none when literal. */
  variables: string[];
}

/** The items of a rendered list, from the spans `joinList` recorded. */
export function explainItems(
  section: AssembledSection,
  parts: ListParts,
  spans: readonly number[],
  offset: number,
  text: string,
): ItemExplanation[] {
  const items: ItemExplanation[] = [];
  for (let k = 0; k < spans.length / 3; k++) {
    const item: AssembledItem = section.items![parts.items[k]!.index]!;
    const start = offset + spans[3 * k + 1]!;
    const end = offset + spans[3 * k + 2]!;
    const explained: ItemExplanation = {
      name: item.name,
      order: item.order,
      stability: item.stability ?? "static",
      separatorStart: offset + spans[3 * k]!,
      start,
      end,
      chars: end - start,
      tokens: estimateTokens(text.slice(start, end)),
      variables: referencedVariables(item.text, item),
    };
    if (item.owner !== undefined) explained.owner = item.owner;
    items.push(explained);
  }
  return items;
}

const VOLATILITY: Readonly<Record<Stability, number>> = {
  static: 0,
  session: 1,
  step: 2,
};

/** The more volatile of two stabilities. */
export function moreVolatile(a: Stability, b: Stability): Stability {
  return VOLATILITY[b] > VOLATILITY[a] ? b : a;
}
