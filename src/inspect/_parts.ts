/**
 * What every inspection reads of explained parts: the one walk over a
 * sequence's parts and their items at any depth, a part's own text (a
 * list's heading and footer), and the optional fields of what they return.
 *
 * @module
 */

/** An explained part, as the walk reads it. */
export interface Spanned {
  readonly name: string;
  readonly start: number;
  readonly end: number;
  readonly separatorStart: number;
  readonly items?: readonly Spanned[];
}

/** Visits each part of `parts` and its items at any depth, with the lists above each. */
export function eachPart<P extends Spanned>(
  parts: readonly P[],
  visit: (part: P, path: readonly string[]) => void,
): void {
  const walk = (part: P, path: readonly string[]): void => {
    visit(part, path);
    const list = [...path, part.name];
    for (const item of part.items ?? []) walk(item as P, list);
  };
  for (const part of parts) walk(part, []);
}

/** A part's rendered text without its items (a list's heading, footer, separators). */
export function ownText(text: string, part: Spanned): string {
  let own = "";
  let at = part.start;
  for (const item of part.items ?? []) {
    own += text.slice(at, item.separatorStart);
    at = item.end;
  }
  return own + text.slice(at, part.end);
}

/** `value` without its `undefined` fields, as an optional-field type wants it. */
export function defined<T extends object>(
  value: { [K in keyof T]-?: T[K] | undefined },
): T {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field !== undefined) out[key] = field;
  }
  return out as T;
}
