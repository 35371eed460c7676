/**
 * The one renderer walk: a sequence of parts (sections, context entries, a
 * list's items), each a text or a list of parts, interpolated, trimmed,
 * separated and checked field by field as it goes; with `spans`, the same
 * walk records where each part landed, for `explainPrompt`.
 *
 * @module
 */

import type { PartKind } from "../core/_fields.ts";
import { describeValue, failure, type Where } from "../core/errors.ts";
import type {
  AssembledItem,
  AssembledList,
  PromptAssembly,
} from "../core/types.ts";
import type { BoundedCache } from "./_bounded_cache.ts";
import { type Template, templateOf, TEMPLATES } from "./_template.ts";
import { invalidPart, malformedError, referenceError } from "./_problems.ts";

/** Where a sequence is rendered, and what it may read. */
export interface RenderPlace {
  /** What the parts of the sequence are. */
  readonly kind: "section" | "context";
  /** The assembly's variables. */
  readonly variables: object;
  /** Placed between two rendered parts that set no separator. */
  readonly separator: string;
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
 * Where one rendered part sits in the text: `[separatorStart, start)` is
 * the separator before it, `[start, end)` its text. A list's heading,
 * items (each after its separator) and footer tile `[start, end)`; when no
 * item remained `items` is empty and the span is the list's `empty` text.
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
 * An assembly's sections (or contexts) and the place to render them, the
 * assembly's fields checked: `contexts` may be absent, the rest may not.
 */
export function sequenceOf(
  assembly: PromptAssembly,
  kind: "section" | "context",
): { parts: readonly unknown[]; place: RenderPlace } {
  const what = kind === "section" ? "prompt" : "context";
  const wrong = (field: string, value: unknown, expected: string) =>
    failure(
      "invalid-value",
      `render the ${what}`,
      {},
      `${field} is ${describeValue(value)}, not ${expected}`,
    );
  if (typeof assembly !== "object" || assembly === null) {
    throw wrong("the assembly", assembly, "an object");
  }
  const { variables, separator } = assembly;
  if (typeof variables !== "object" || variables === null) {
    throw wrong("its variables", variables, "an object");
  }
  const parts = kind === "section"
    ? assembly.sections
    : assembly.contexts ?? NONE;
  if (!Array.isArray(parts)) {
    throw wrong(
      `its ${kind === "section" ? "sections" : "contexts"}`,
      parts,
      "an array",
    );
  }
  if (kind === "context") {
    return { parts, place: { kind, variables, separator: "\n\n" } };
  }
  if (separator !== undefined && typeof separator !== "string") {
    throw wrong("its separator", separator, "a string");
  }
  return { parts, place: { kind, variables, separator: separator ?? "\n\n" } };
}

/** Renders `parts` (an assembly's sections or contexts) into one text. */
export function renderParts(
  parts: readonly unknown[],
  place: RenderPlace,
): string {
  return new Walk(place).sequence(parts, undefined);
}

/** One render: what it reads, and the path of lists it is inside. */
class Walk {
  readonly place: RenderPlace;
  readonly variables: Record<string, unknown>;
  readonly own: boolean;
  readonly cache: BoundedCache<Template>;
  /** Names of the lists being rendered, from the top-level part down. */
  readonly path: string[] = [];
  /** Where the sequence being rendered collects its parts' spans. */
  spans: PartSpan[] | undefined;
  /** In a span render, the span of the part `part()` rendered last. */
  span: PartSpan | undefined;

  constructor(place: RenderPlace) {
    this.place = place;
    this.variables = place.variables as Record<string, unknown>;
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
      ? this.place.separator
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
        spans.push(placed(this.span!, separatorStart, out.length, text.length));
      }
      out += text;
    }
    return out;
  }

  /** One part's text: interpolated unless literal, trimmed unless not; or its list. */
  part(part: AssembledItem, index: number): string {
    if (typeof part !== "object" || part === null) {
      throw invalidPart(part, this.check(part, index));
    }
    const { name, order, text, trim, literal, stability } = part;
    if (
      typeof name !== "string" || name === "" || typeof order !== "number" ||
      !Number.isFinite(order) || typeof text !== "string" ||
      (trim !== undefined && typeof trim !== "boolean") ||
      (literal !== undefined && typeof literal !== "boolean") ||
      (part.separator !== undefined && typeof part.separator !== "string") ||
      (stability !== undefined && stability !== "static" &&
        stability !== "session" && stability !== "step") ||
      (this.path.length === 0 && this.place.kind === "section" &&
        !isFlag((part as { complete?: unknown }).complete))
    ) throw invalidPart(part, this.check(part, index));
    if (this.place.spans !== undefined) {
      this.span = { part, separatorStart: 0, start: 0, end: 0 };
    }
    if (part.list !== undefined) return this.list(part, index);
    // Fast path: the default layout.
    if (literal !== true) return this.text(text, part, trim !== false);
    return trim === false ? text : text.trim();
  }

  /** A list: its heading, the items that remain and its footer, or its `empty` text. */
  list(part: AssembledItem, index: number): string {
    const list = part.list as AssembledList;
    const items = part.items as unknown;
    if (
      typeof list !== "object" || list === null || !isText(list.separator) ||
      !isText(list.headingSeparator) || !isText(list.footer) ||
      !isText(list.footerSeparator) || !isText(list.empty) ||
      !isFlag(list.dedupe) || (items !== undefined && !Array.isArray(items))
    ) throw invalidPart(part, this.check(part, index));
    const own = this.span;
    const outer = this.spans;
    const heading = this.flagged(part.text, part, undefined);
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
    const footer = list.footer === undefined
      ? ""
      : this.flagged(list.footer, part, true);
    this.span = own;
    if (body === "") {
      if (own !== undefined) own.items = [];
      return list.empty ?? "";
    }
    const separator = list.separator ?? "\n";
    let out = heading;
    if (heading !== "") {
      out += list.headingSeparator ?? separator;
      if (own !== undefined) own.heading = [0, heading.length];
    }
    if (own !== undefined) {
      own.items = spans!.map((s) => shift(s, out.length));
      // The heading's separator is the first item's.
      own.items[0]!.separatorStart = heading.length;
    }
    out += body;
    if (footer !== "") {
      out += list.footerSeparator ?? separator;
      if (own !== undefined) {
        own.footer = [out.length, out.length + footer.length];
      }
      out += footer;
    }
    return out;
  }

  /** A list's heading or footer, rendered as the part's flags say. */
  flagged(text: string, part: AssembledItem, footer: true | undefined): string {
    const trims = part.trim !== false;
    if (part.literal === true) return trims ? text.trim() : text;
    return this.text(text, part, trims, footer);
  }

  /** `text` interpolated (and trimmed if `trims`). */
  text(
    text: string,
    part: AssembledItem,
    trims: boolean,
    footer?: true,
  ): string {
    const template = templateOf(text, this.cache);
    if (template.malformed !== undefined) {
      throw this.firstProblem(template, { text, part, footer });
    }
    const parts = trims ? template.trimmed : template.parts;
    // Fast path: no reference, the text (trimmed once, when parsed) is it.
    if (parts.length === 1) return parts[0]!;
    return this.interpolate(template, { text, part, trims, footer });
  }

  /**
   * Reads each value once and checks it. While the values equal the memo's
   * (a snapshot: a getter that renders again may replace it meanwhile) they
   * are only compared, and if all do, the memo's result is returned. A
   * render is remembered only once every value was read, so a throw leaves
   * the memo as it was; and only on the second and third miss in a row,
   * then every eighth, so a text rendered once, or whose values change at
   * every render, costs about what a render without memo costs.
   */
  interpolate(template: Template, at: TextSite & { trims: boolean }): string {
    const { trims } = at;
    const parts = trims ? template.trimmed : template.parts;
    const variables = this.variables;
    const own = this.own;
    const n = (parts.length - 1) >> 1;
    const memo = template.memo?.trim === trims ? template.memo : undefined;
    let k = 0;
    let value: unknown;
    if (memo !== undefined) {
      const last = memo.values;
      for (; k < n; k++) {
        const name = parts[2 * k + 1]!;
        value = variables[name];
        if (
          typeof value !== "string" ||
          (!own && !Object.hasOwn(variables, name))
        ) throw this.badReference(template, at, k, value);
        if (value !== last[k]) break;
      }
      if (k === n) {
        if (template.misses !== 1) template.misses = 1;
        return memo.result;
      }
    }
    const misses = ++template.misses;
    const values = misses === 2 || misses === 3 || (misses & 7) === 0
      ? new Array<string>(n)
      : undefined;
    let out = parts[0]!;
    for (let j = 0; j < k; j++) {
      const known = memo!.values[j]!;
      if (values !== undefined) values[j] = known;
      out += known + parts[2 * j + 2]!;
    }
    // The value that ended the comparison was read and checked already.
    let read = memo !== undefined;
    for (; k < n; k++) {
      if (!read) {
        const name = parts[2 * k + 1]!;
        value = variables[name];
        if (
          typeof value !== "string" ||
          (!own && !Object.hasOwn(variables, name))
        ) throw this.badReference(template, at, k, value);
      }
      read = false;
      if (values !== undefined) values[k] = value as string;
      out += (value as string) + parts[2 * k + 2]!;
    }
    if (trims) {
      if (template.trimStart) out = out.trimStart();
      if (template.trimEnd) out = out.trimEnd();
    }
    if (values !== undefined) {
      template.memo = { values, trim: trims, result: out };
      this.cache.charge(out.length);
    }
    return out;
  }

  /** A text with a malformed group: the first problem, a reference before it or the group. */
  firstProblem(template: Template, at: TextSite): Error {
    const { parts, offsets, malformed } = template;
    for (let k = 0; k < offsets.length && offsets[k]! < malformed![0]; k++) {
      const value = this.variables[parts[2 * k + 1]!];
      if (
        typeof value !== "string" ||
        !Object.hasOwn(this.variables, parts[2 * k + 1]!)
      ) return this.badReference(template, at, k, value);
    }
    return malformedError({
      text: at.text,
      span: malformed!,
      where: this.where(at.part),
      footer: at.footer,
    });
  }

  badReference(
    template: Template,
    at: TextSite,
    k: number,
    value: unknown,
  ): Error {
    return referenceError({
      text: at.text,
      offset: template.offsets[k]!,
      name: template.parts[2 * k + 1]!,
      value,
      variables: this.variables,
      where: this.where(at.part),
      footer: at.footer,
    });
  }

  /** How errors name `part`: the top-level part, or an item with its lists' path. */
  where(part: unknown, label?: string): Where {
    const { name, owner, layer } = (part ?? {}) as Record<string, unknown>;
    label ??= name as string;
    // A part that is no object has no owner to name.
    const who = typeof part !== "object" || part === null ? {} : {
      owner: typeof owner === "string" ? owner : undefined,
      ...(typeof layer === "string" ? { layer } : {}),
    };
    const kind = this.place.kind;
    if (this.path.length === 0) return { [kind]: label, ...who };
    return { [kind]: this.path[0], item: label, list: [...this.path], ...who };
  }

  /** The field check of `part` (index `index` in its sequence), for the table's error. */
  check(part: unknown, index: number): { kind: PartKind; where: Where } {
    const kind = this.path.length === 0 ? this.place.kind : "item";
    if (typeof part !== "object" || part === null) {
      return { kind, where: this.where(part, `#${index}`) };
    }
    const name = (part as { name?: unknown }).name;
    const label = typeof name === "string" && name !== "" ? name : `#${index}`;
    return { kind, where: this.where(part, label) };
  }
}

/** Where a text being rendered comes from: a part's text, or its list's footer. */
interface TextSite {
  readonly text: string;
  readonly part: AssembledItem;
  readonly footer?: true | undefined;
}

function isText(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}

function isFlag(value: unknown): boolean {
  return value === undefined || typeof value === "boolean";
}

/** A part's span (relative to its own text) placed at `start` after its separator. */
function placed(
  span: PartSpan,
  separatorStart: number,
  start: number,
  length: number,
): PartSpan {
  const moved = shift(span, start);
  moved.separatorStart = separatorStart;
  moved.end = start + length;
  return moved;
}

/** `span` with every position moved by `by`. */
function shift(span: PartSpan, by: number): PartSpan {
  const moved: PartSpan = {
    ...span,
    separatorStart: span.separatorStart + by,
    start: span.start + by,
    end: span.end + by,
  };
  if (span.heading) {
    moved.heading = [span.heading[0] + by, span.heading[1] + by];
  }
  if (span.footer) moved.footer = [span.footer[0] + by, span.footer[1] + by];
  if (span.items) moved.items = span.items.map((s) => shift(s, by));
  return moved;
}
