/**
 * An explanation read as a tree of parts, the one shape `comparePrompts`
 * and `checkPrompt` walk: each rendered part with the lists above it, the
 * text that keys it across steps and its own text without its items.
 *
 * @module
 */

import type { Explained, ItemExplanation } from "./explain.ts";

/**
 * An explained part as `comparePrompts` and `checkPrompt` read it: with the
 * lists above it, its `key` (the separator before it and its text), its
 * `own` text (without its items: a list's heading and footer) and its items.
 */
export type Part = ItemExplanation & Keyed & { children?: Part[] };
type Keyed = { list: string[]; key: string; own: string };

/**
 * The parts of an explained channel, with their items at any depth; with
 * `all`, every part collected there too, each before its items.
 */
export function partsOf({ text, sections }: Explained, all?: Part[]): Part[] {
  const of = (parts: ItemExplanation[], list: string[]): Part[] =>
    parts.map((explained) => {
      const { separatorStart, start, end, items } = explained;
      const [first, last] = [items?.[0], items?.at(-1)];
      // Its items, each after its separator, tile it between heading and footer.
      const own = first === undefined
        ? text.slice(start, end)
        : text.slice(start, first.separatorStart) + text.slice(last!.end, end);
      const key = text.slice(separatorStart, end);
      const part: Part = { ...explained, list, key, own };
      all?.push(part);
      if (items) part.children = of(items, [...list, explained.name]);
      return part;
    });
  return of(sections, []);
}
