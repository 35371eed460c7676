/**
 * Renders a list section (SPEC §7.3): the heading and the items that
 * remain, or the list's `empty` text, or nothing.
 *
 * @module
 */

import { describeValue } from "../core/errors.ts";
import { invalidLayout, itemTextNotString } from "../core/_item_errors.ts";
import type { AssembledItem, AssembledList } from "../core/types.ts";
import type { AssembledSection, PromptAssembly } from "../core/types.ts";
import { isLiteral, trims } from "./_render_errors.ts";
import { renderText } from "./_render_text.ts";

/** A list, rendered part by part: what `explainPrompt` needs for spans. */
export interface ListParts {
  /** The rendered heading; `""` for none. */
  readonly heading: string;
  /** The items that remain, in order, with their index in `section.items`. */
  readonly items: readonly { readonly index: number; readonly text: string }[];
  /** Placed between the heading and the items, and between items. */
  readonly separator: string;
  /** What renders when no item remains; `undefined` drops the section. */
  readonly empty: string | undefined;
}

/** List section `index` of `assembly`, as the prompt shows it. */
export function renderList(
  assembly: PromptAssembly,
  index: number,
  checkOwn: boolean,
): string {
  return joinList(listParts(assembly, index, checkOwn));
}

/**
 * The text of a rendered list: the heading (unless empty) and the items,
 * joined with the list's separator; `empty` (or `""`) when no item
 * remains. With `spans`, appends each item's `[separatorStart, start, end)`
 * in the returned text, for `explainPrompt`.
 */
export function joinList(parts: ListParts, spans?: number[]): string {
  const { heading, items, separator } = parts;
  if (items.length === 0) return parts.empty ?? "";
  let text = heading;
  for (let i = 0; i < items.length; i++) {
    const separatorStart = text.length;
    if (text !== "") text += separator;
    const start = text.length;
    text += items[i]!.text;
    spans?.push(separatorStart, start, text.length);
  }
  return text;
}

/**
 * The parts of list section `index`: its heading and each item rendered
 * (interpolated unless literal, trimmed unless `trim: false`), empty items
 * dropped, and with `dedupe` an item equal to an earlier one dropped.
 */
export function listParts(
  assembly: PromptAssembly,
  index: number,
  checkOwn: boolean,
): ListParts {
  const section = assembly.sections[index]!;
  const list = checkedList(section);
  const heading = renderText(
    assembly,
    section.text,
    isLiteral(section, section),
    trims(section, section),
    checkOwn,
    index,
    -1,
  );
  const items = checkedItems(section);
  const rendered: { index: number; text: string }[] = [];
  const seen = list.dedupe === true ? new Set<string>() : undefined;
  for (let i = 0; i < items.length; i++) {
    const item = checkedItem(section, items[i]);
    const text = renderText(
      assembly,
      item.text,
      isLiteral(item, section, item),
      trims(item, section, item),
      checkOwn,
      index,
      i,
    );
    if (text === "") continue;
    if (seen !== undefined) {
      if (seen.has(text)) continue;
      seen.add(text);
    }
    rendered.push({ index: i, text });
  }
  return {
    heading,
    items: rendered,
    separator: list.separator ?? "\n",
    empty: list.empty,
  };
}

/** The section's `list`, each field of the right type. */
function checkedList(section: AssembledSection): AssembledList {
  const list: unknown = section.list;
  const fail = (field: string, expected: string, value: unknown) =>
    invalidLayout(section.name, section.owner, field, expected, value);
  if (typeof list !== "object" || list === null) {
    throw fail("list", "an object", list);
  }
  const { separator, empty, dedupe } = list as AssembledList;
  if (separator !== undefined && typeof separator !== "string") {
    throw fail("list.separator", "a string", separator);
  }
  if (empty !== undefined && typeof empty !== "string") {
    throw fail("list.empty", "a string", empty);
  }
  if (dedupe !== undefined && typeof dedupe !== "boolean") {
    throw fail("list.dedupe", "a boolean", dedupe);
  }
  return list as AssembledList;
}

function checkedItems(section: AssembledSection): readonly unknown[] {
  const items: unknown = section.items;
  if (items === undefined) return [];
  if (!Array.isArray(items)) {
    throw invalidLayout(
      section.name,
      section.owner,
      "items",
      "an array",
      items,
    );
  }
  return items;
}

/** An item a handler may have left in any shape: it must have a string text. */
function checkedItem(section: AssembledSection, item: unknown): AssembledItem {
  if (typeof item !== "object" || item === null) {
    throw invalidLayout(
      section.name,
      section.owner,
      "items entry",
      "an item",
      item,
    );
  }
  const { name, text, owner } = item as AssembledItem;
  if (typeof text !== "string") {
    throw itemTextNotString(
      typeof name === "string" ? name : describeValue(name),
      section.name,
      owner,
      text,
    );
  }
  return item as AssembledItem;
}
