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
import { type Template, templateOf, TEMPLATES } from "./_template.ts";
import {
  firstProblem,
  invalidPart,
  isWalkable,
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
const SLOT_TEXT: string[] = [];
const SLOT_TPL: Template[] = [];
/** Inlined by V8 where `Object.hasOwn` is a call: the same check, cheaper. */
const HAS_OWN = Object.prototype.hasOwnProperty;

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
    throw badAssembly(kind, "the assembly", assembly, "an object");
  }
  const { variables, separator = "\n\n" } = assembly;
  const parts = kind === "section"
    ? assembly.sections
    : assembly.contexts ?? NONE;
  if (typeof variables !== "object" || variables === null) {
    throw badAssembly(kind, "its variables", variables, "an object");
  }
  if (!Array.isArray(parts)) {
    throw badAssembly(kind, `its ${kind}s`, parts, "an array");
  }
  if (typeof separator !== "string" && kind === "section") {
    throw badAssembly(kind, "its separator", separator, "a string");
  }
  return new Walk(how, variables).sequence(
    parts,
    kind === "section" ? separator : "\n\n",
  );
}

function badAssembly(
  kind: "section" | "context",
  field: string,
  value: unknown,
  expected: string,
): Error {
  return failure(
    "invalid-value",
    `render the ${kind === "section" ? "prompt" : "context"}`,
    {},
    `${field} is ${describeValue(value)}, not ${expected}`,
  );
}

/** One render: what it reads, and where in the parts it is. */
class Walk {
  readonly how: RenderHow;
  readonly variables: Record<string, unknown>;
  readonly own: boolean;
  readonly cache: BoundedCache<Template>;
  /** Names of the lists being rendered, from the top-level part down. */
  readonly path: string[] = [];
  /** The part whose text (or footer, when `footer`) is being interpolated, and its template. */
  at: AssembledItem | undefined;
  footer = false;
  template: Template | undefined;
  /** Where the sequence being rendered collects its parts' spans. */
  spans: PartSpan[] | undefined;
  /** In a span render, the span of the part `part()` rendered last. */
  span: PartSpan | undefined;
  slot = 0;

  constructor(how: RenderHow, variables: object) {
    this.how = how;
    this.variables = variables as Record<string, unknown>;
    this.own = how.own === true;
    this.cache = how.cache ?? TEMPLATES;
    this.spans = how.spans;
  }

  /**
   * Parts joined by their separators (a list's, or the place's at the top);
   * a dropped part takes its separator with it.
   */
  sequence(
    parts: readonly unknown[],
    separator: string,
    list?: AssembledList,
  ): string {
    const seen = list?.dedupe === true ? new Set<string>() : undefined;
    const spans = this.spans;
    let out = "";
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as AssembledItem;
      const text = this.part(part, i);
      if (text === "") {
        if (list === undefined) this.how.dropped?.push(part.name);
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
    if (
      !isWalkable(part, this.how.kind === "section" && this.path.length === 0)
    ) {
      throw invalidPart(part, { kind: this.how.kind, path: this.path, index });
    }
    if (this.how.spans !== undefined) {
      this.span = { part, separatorStart: 0, start: 0, end: 0 };
    }
    if (part.list !== undefined) return this.list(part);
    return this.text(part, part.text, false);
  }

  /** A list: its heading, the items that remain and its footer, or its `empty` text. */
  list(part: AssembledItem): string {
    const list = part.list!;
    const own = this.span;
    const outer = this.spans;
    const heading = this.text(part, part.text, false);
    const separator = list.separator ?? "\n";
    const spans: PartSpan[] | undefined = own === undefined ? undefined : [];
    this.spans = spans;
    this.path.push(part.name);
    let body: string;
    try {
      body = this.sequence(part.items ?? NONE, separator, list);
    } finally {
      this.path.pop();
    }
    this.spans = outer;
    this.span = own;
    const footer = list.footer === undefined
      ? ""
      : this.text(part, list.footer, true);
    if (body === "") {
      if (own !== undefined) own.items = [];
      return list.empty ?? "";
    }
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
  text(part: AssembledItem, text: string, footer: boolean): string {
    const trims = part.trim !== false;
    if (part.literal === true) return trims ? text.trim() : text;
    const i = this.slot++;
    let template: Template;
    if (SLOT_TEXT[i] === text) template = SLOT_TPL[i]!;
    else {
      template = templateOf(text, this.cache);
      SLOT_TEXT[i] = text;
      SLOT_TPL[i] = template;
    }
    this.template = template;
    this.at = part;
    this.footer = footer;
    if (template.malformed !== undefined) {
      throw firstProblem(template, this.site());
    }
    const parts = trims ? template.trimmed : template.parts;
    // No reference: the text (trimmed once, when parsed) is it.
    if (parts.length === 1) return parts[0]!;
    return this.interpolate(template, parts, trims);
  }

  /**
   * Reads each value once and checks it. While the values equal the memo's
   * (a snapshot: a getter that renders again may replace it meanwhile) they
   * are only compared, and if all do, the memo's result is returned. A
   * render is remembered only once every value was read, so a throw leaves
   * the memo as it was. A text's first render is not remembered, and in a
   * run of misses ever fewer renders compare and remember (a remembered
   * render outlives young objects, which costs more than building it), so
   * a text rendered once, or whose values change at every render, costs
   * what a render without memo costs. A trimmed render trims the values at
   * its edges, not its result (which would flatten it), unless one of them
   * trims to nothing.
   */
  interpolate(
    template: Template,
    parts: readonly string[],
    trims: boolean,
  ): string {
    const { variables, own } = this;
    const n = (parts.length - 1) >> 1;
    const m = template.misses;
    // Compare (and remember) at misses 0–3, then around each power of two
    // up to 1,024, then twice in every 1,024.
    const probe = m < 4 || (m & (m - 1)) === 0 ||
      ((m - 1) & (m - 2)) === 0 || (m & 1023) < 2;
    const memo = probe && template.memo?.trim === trims
      ? template.memo
      : undefined;
    const last = memo?.values;
    const record = probe && m > 0;
    const first = trims && template.trimStart ? 0 : -1;
    const end = trims && template.trimEnd ? n - 1 : -1;
    let same = last !== undefined;
    let values = record && !same ? new Array<string>(n) : undefined;
    let head: string | undefined; // the edge values, trimmed
    let tail: string | undefined;
    let out = parts[0]!;
    for (let k = 0; k < n; k++) {
      const name = parts[2 * k + 1]!;
      const read = variables[name];
      if (
        typeof read !== "string" || (!own && !HAS_OWN.call(variables, name))
      ) throw this.badReference(k, read);
      let value = read;
      if (same) {
        if (value === last![k]) continue;
        // The first value that differs: what came before it is the memo's.
        same = false;
        if (record) values = last!.slice(0, n);
        for (let j = 0; j < k; j++) {
          const v = last![j]!;
          out += (j === first ? head = v.trimStart() : v) + parts[2 * j + 2]!;
        }
      }
      if (values !== undefined) values[k] = value;
      if (k === first) value = head = value.trimStart();
      if (k === end) value = tail = value.trimEnd();
      out += value + parts[2 * k + 2]!;
    }
    if (same) {
      if (m !== 1) template.misses = 1;
      return memo!.result;
    }
    template.misses = m + 1;
    // An edge value trimmed to nothing: the static text next to it is at the edge.
    if (head === "" || tail === "") out = out.trim();
    if (values !== undefined) {
      template.memo = { values, trim: trims, result: out };
      this.cache.charge(out.length);
    }
    return out;
  }

  /** Where the text being interpolated sits, for its errors. */
  site() {
    return {
      text: this.template!.source,
      variables: this.variables,
      where: whereOf(this.at, { kind: this.how.kind, path: this.path }),
      footer: this.footer,
    };
  }

  /** The error for reference `k` of the text being interpolated, read as `value`. */
  badReference(k: number, value: unknown): Error {
    const { offsets, parts } = this.template!;
    return textError({
      ...this.site(),
      offset: offsets[k]!,
      name: parts[2 * k + 1]!,
      value,
    });
  }
}
