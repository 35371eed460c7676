/**
 * The one renderer walk: a sequence of parts (sections, context entries, a
 * list's items), each a text or a list of parts, interpolated, trimmed,
 * separated and checked field by field as it goes; with `spans`, the same
 * walk records where each part landed, for `explainPrompt`.
 *
 * @module
 */

import { describeValue, failure } from "../core/errors.ts";
import type {
  AssembledItem,
  AssembledList,
  PromptAssembly,
} from "../core/types.ts";
import type { BoundedCache } from "./_bounded_cache.ts";
import {
  type Reader,
  renderTemplate,
  type Template,
  templateOf,
  TEMPLATES,
} from "./_template.ts";
import {
  firstProblem,
  invalidPart,
  isBadList,
  isBadPart,
  textError,
  whereOf,
} from "./_problems.ts";

/** What to render of an assembly, and what to record. */
export interface RenderHow {
  /** The sections (`"section"`) or the runtime context (`"context"`). */
  readonly kind: "section" | "context";
  /**
   * The caller built `variables` as an ordinary null-prototype object (no
   * proxy, no prototype): a string read from it is an own property.
   */
  readonly own?: boolean;
  /** The parse cache. @default {TEMPLATES} */
  readonly cache?: BoundedCache<Template>;
  /** Collects the span of each rendered top-level part, in order. */
  readonly spans?: PartSpan[];
  /** Collects the names of the top-level parts that rendered empty. */
  readonly dropped?: string[];
}

/**
 * Where one rendered part sits, relative to the start of the text of the
 * part that holds it (of the sequence, for a top-level part):
 * `[separatorStart, start)` is the separator before it, `[start, end)` its
 * text. A list's heading, items (each after its separator) and footer tile
 * its text, and their spans are relative to its `start`; when no item
 * remained `items` is empty and the text is the list's `empty`.
 */
export interface PartSpan {
  readonly part: AssembledItem;
  separatorStart: number;
  start: number;
  end: number;
  heading?: [start: number, end: number];
  footer?: [start: number, end: number];
  items?: PartSpan[];
}

const NONE: readonly unknown[] = [];

/**
 * Renders an assembly's sections (or contexts), its fields checked:
 * `contexts` may be absent, the rest may not.
 */
export function renderAssembly(
  assembly: PromptAssembly,
  how: RenderHow,
): string {
  const { kind } = how;
  if (typeof assembly !== "object" || assembly === null) {
    throw badAssembly(kind, ["the assembly", assembly, "an object"]);
  }
  const { variables, separator = "\n\n" } = assembly;
  const parts = kind === "section"
    ? assembly.sections
    : assembly.contexts ?? NONE;
  if (typeof variables !== "object" || variables === null) {
    throw badAssembly(kind, ["its variables", variables, "an object"]);
  }
  if (!Array.isArray(parts)) {
    throw badAssembly(kind, [`its ${kind}s`, parts, "an array"]);
  }
  if (typeof separator !== "string" && kind === "section") {
    throw badAssembly(kind, ["its separator", separator, "a string"]);
  }
  const walk = new Walk(how, variables);
  walk.separator = kind === "section" ? separator : "\n\n";
  return walk.sequence(parts, undefined);
}

function badAssembly(
  kind: "section" | "context",
  [field, value, expected]: [string, unknown, string],
): Error {
  return failure(
    "invalid-value",
    `render the ${kind === "section" ? "prompt" : "context"}`,
    {},
    `${field} is ${describeValue(value)}, not ${expected}`,
  );
}

/** One render: what it reads, and where in the parts it is. */
class Walk implements Reader {
  readonly place: RenderHow;
  readonly kind: "section" | "context";
  readonly variables: Record<string, unknown>;
  readonly own: boolean;
  readonly cache: BoundedCache<Template>;
  /** Names of the lists being rendered, from the top-level part down. */
  readonly path: string[] = [];
  /** The part whose text (or footer, when `footer`) is being rendered. */
  at: AssembledItem | undefined;
  footer = false;
  /** The text being interpolated, and whether it is trimmed. */
  source = "";
  trims = true;
  /** Where the sequence being rendered collects its parts' spans. */
  spans: PartSpan[] | undefined;
  /** In a span render, the span of the part `part()` rendered last. */
  span: PartSpan | undefined;

  /** Placed between two rendered top-level parts that set no separator. */
  separator = "\n\n";

  constructor(place: RenderHow, variables: object) {
    this.place = place;
    this.kind = place.kind;
    this.variables = variables as Record<string, unknown>;
    this.own = place.own === true;
    this.cache = place.cache ?? TEMPLATES;
    this.spans = place.spans;
  }

  /**
   * Parts joined by their separators (a list's, or the place's at the top);
   * a dropped part takes its separator with it.
   */
  sequence(parts: readonly unknown[], list: AssembledList | undefined): string {
    const separator = list === undefined
      ? this.separator
      : list.separator ?? "\n";
    const seen = list?.dedupe === true ? new Set<string>() : undefined;
    const spans = this.spans;
    let out = "";
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as AssembledItem;
      const text = this.part(part, i);
      if (text === "") {
        if (list === undefined) this.place.dropped?.push(part.name);
        continue;
      }
      if (seen !== undefined) {
        if (seen.has(text)) continue;
        seen.add(text);
      }
      const separatorStart = out.length;
      if (separatorStart > 0) out += part.separator ?? separator;
      if (spans !== undefined) {
        const span = this.span!;
        span.separatorStart = separatorStart;
        span.start = out.length;
        span.end = out.length + text.length;
        spans.push(span);
      }
      out += text;
    }
    return out;
  }

  /** One part's text: interpolated unless literal, trimmed unless not; or its list. */
  part(part: AssembledItem, index: number): string {
    if (isBadPart(part, this.path.length === 0 && this.kind === "section")) {
      throw this.invalid(part, index);
    }
    if (this.place.spans !== undefined) {
      this.span = { part, separatorStart: 0, start: 0, end: 0 };
    }
    if (part.list !== undefined) return this.list(part, index);
    return this.flagged(part, part.text, false);
  }

  /** A list: its heading, the items that remain and its footer, or its `empty` text. */
  list(part: AssembledItem, index: number): string {
    const list = part.list as AssembledList;
    const items = part.items;
    if (isBadList(list, items)) throw this.invalid(part, index);
    const own = this.span;
    const outer = this.spans;
    const heading = this.flagged(part, part.text, false);
    this.spans = own === undefined ? undefined : [];
    this.path.push(part.name);
    let body: string;
    try {
      body = this.sequence((items ?? []) as readonly unknown[], list);
    } finally {
      this.path.pop();
    }
    const spans = this.spans;
    this.spans = outer;
    this.span = own;
    const footer = list.footer === undefined
      ? ""
      : this.flagged(part, list.footer, true);
    if (body === "") {
      if (own !== undefined) own.items = [];
      return list.empty ?? "";
    }
    const separator = list.separator ?? "\n";
    let out = heading;
    if (heading !== "") out += list.headingSeparator ?? separator;
    if (own !== undefined) {
      for (const item of spans!) {
        item.separatorStart += out.length;
        item.start += out.length;
        item.end += out.length;
      }
      // The heading's separator is the first item's.
      spans![0]!.separatorStart = heading.length;
      own.items = spans!;
      if (heading !== "") own.heading = [0, heading.length];
    }
    out += body;
    if (footer === "") return out;
    out += list.footerSeparator ?? separator;
    if (own !== undefined) {
      own.footer = [out.length, out.length + footer.length];
    }
    return out + footer;
  }

  /** A part's text, or a list's heading or footer, rendered as the part's flags say. */
  flagged(part: AssembledItem, text: string, footer: boolean): string {
    const trims = part.trim !== false;
    if (part.literal === true) return trims ? text.trim() : text;
    this.at = part;
    this.footer = footer;
    return this.text(text, trims);
  }

  /** `text` (of `this.at`) interpolated, and trimmed if `trims`. */
  text(text: string, trims: boolean): string {
    const template = templateOf(text, this.cache);
    this.source = text;
    if (template.malformed !== undefined) {
      throw firstProblem(template, {
        text,
        variables: this.variables,
        where: whereOf(this.at, this),
        footer: this.footer,
      });
    }
    const parts = trims ? template.trimmed : template.parts;
    // Fast path: no reference, the text (trimmed once, when parsed) is it.
    if (parts.length === 1) return parts[0]!;
    this.trims = trims;
    return renderTemplate(template, this);
  }

  /** The error for reference `k` of the text being interpolated, read as `value`. */
  badReference(k: number, value: unknown): Error {
    const template = templateOf(this.source, this.cache);
    return textError({
      text: this.source,
      variables: this.variables,
      where: whereOf(this.at, this),
      footer: this.footer,
      offset: template.offsets[k]!,
      name: template.parts[2 * k + 1]!,
      value,
    });
  }

  /** The field table's error for `part`, index `index` of its sequence. */
  invalid(part: unknown, index: number): Error {
    return invalidPart(part, { kind: this.kind, path: this.path, index });
  }
}
