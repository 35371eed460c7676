/**
 * The one renderer walk over parts (sections, context entries, a list's
 * items), each a text or a list, checked, interpolated, trimmed and joined;
 * with `spans` it records where each landed, for `explainPrompt`.
 * @module
 */

import { isRenderable } from "../core/_fields.ts";
import type { AssembledItem, PromptAssembly } from "../core/types.ts";
import type { BoundedCache } from "./_bounded_cache.ts";
import { type Template, templateOf, TEMPLATES } from "./_template.ts";
import * as problems from "./_problems.ts";

/** What to render of an assembly, and what to record. */
export interface RenderHow {
  /** The sections (`"section"`) or the runtime context (`"context"`). */
  readonly kind: "section" | "context";
  /** The caller built `variables` as an ordinary null-prototype object. */
  readonly own?: boolean;
  /** The parse cache. @default {TEMPLATES} */
  readonly cache?: BoundedCache<Template>;
  /** Collects the span of each rendered top-level part, in order. */
  readonly spans?: PartSpan[];
  /** Collects the names of the top-level parts that rendered empty. */
  readonly dropped?: string[];
  /**
   * Top-level texts of an earlier render, part `i`'s at `from + i`: a part
   * whose text is there is joined as it is, the text of any other is
   * written there.
   */
  readonly rendered?: (string | undefined)[];
  readonly from?: number;
}

/**
 * Where one rendered part sits, relative to the start of the text of the
 * part that holds it (of the sequence, for a top-level part):
 * `[separatorStart, start)` is the separator before it, `[start, end)` its
 * text. A list's items, relative to its `start`, lie between its heading
 * (up to the first item's `separatorStart`) and its footer; when no item
 * remained `items` is empty and the text is the list's `empty`.
 */
export interface PartSpan {
  readonly part: AssembledItem;
  separatorStart: number;
  start: number;
  end: number;
  items?: PartSpan[];
}

/** A list's layout. */
type List = NonNullable<AssembledItem["list"]>;

/** `text.trim()`: called from `text()` itself, V8 calls it slowly. */
const trim = (text: string) => text.trim();

const NONE: readonly unknown[] = [];
/** Inlined by V8 where `Object.hasOwn` is a call: the same check, cheaper. */
const HAS_OWN = Object.prototype.hasOwnProperty;

/**
 * Renders an assembly's sections (or contexts), its fields checked:
 * `contexts` may be absent, the rest may not.
 */
export function renderAssembly(input: PromptAssembly, how: RenderHow): string {
  let walk: Walk | undefined;
  let parts: unknown;
  // One try for the whole render: a read that throws (a revoked proxy, a
  // getter) is the input's fault, named by the top-level part it was in.
  try {
    const section = how.kind === "section";
    const object = typeof input === "object" && input !== null;
    const { variables, separator = "\n\n" } = object ? input : {} as never;
    parts = section ? input?.sections : input?.contexts ?? NONE;
    const bad: [string, unknown, string] | undefined = !object
      ? ["the assembly", input, "an object"]
      : typeof variables !== "object" || variables === null
      ? ["its variables", variables, "an object"]
      : !Array.isArray(parts)
      ? [`its ${how.kind}s`, parts, "an array"]
      : typeof separator !== "string" && section
      ? ["its separator", separator, "a string"]
      : undefined;
    if (bad !== undefined) throw problems.assemblyError(how.kind, bad);
    walk = new Walk(how, variables);
    walk.separator = section ? separator : "\n\n";
    const text = walk.sequence(parts as readonly unknown[], undefined);
    (how.cache ?? TEMPLATES).fit(walk.texts, walk.chars);
    return text;
  } catch (error) {
    throw problems.readError(error, { kind: how.kind, parts, top: walk?.top });
  }
}

/**
 * One render: what it reads, and where in the parts it is. Each text is
 * found through the template of the text before it (`Template.next`), its
 * values read once each.
 */
class Walk {
  /** Placed between two rendered top-level parts that set no separator. */
  separator = "\n\n";
  /** Names of the lists being rendered, from the top-level part down. */
  path: string[] = [];
  /** The part whose text (or footer) is interpolated, its template. */
  at: AssembledItem | undefined;
  footer = false;
  template: Template | undefined;
  /** Texts looked up in the cache and their characters. */
  texts = 0;
  chars = 0;
  /** Where the sequence adds spans, from where its text starts; a list's. */
  spans: PartSpan[] | undefined;
  base = 0;
  layout: { items: PartSpan[] } | undefined;
  /** The top-level part being rendered, for an error no check foresaw. */
  top = -1;

  constructor(
    readonly how: RenderHow,
    readonly variables: Record<string, unknown>,
  ) {
    this.spans = how.spans;
  }

  /** The parts of `list` (or the top-level ones) joined; a dropped part takes its separator with it. */
  sequence(parts: readonly unknown[], list: List | undefined): string {
    const { how: { kind, dropped, from = 0 }, spans, base } = this;
    const separator = list ? list.separator ?? "\n" : this.separator;
    const seen = list?.dedupe === true ? new Set<string>() : undefined;
    const section = list === undefined && kind === "section";
    const rendered = list === undefined ? this.how.rendered : undefined;
    let out = "";
    for (let i = 0; i < parts.length; i++) {
      if (list === undefined) this.top = i;
      const part = parts[i] as AssembledItem;
      let text = rendered?.[from + i];
      if (text === undefined) {
        if (!isRenderable(part, section ? "section" : "item")) {
          throw problems.invalidPart(part, { kind, path: this.path, index: i });
        }
        text = part.list === undefined
          ? this.text(part, false)
          : this.list(part, part.list);
        if (rendered !== undefined) rendered[from + i] = text;
      }
      if (text === "") {
        if (list === undefined) dropped?.push(part.name);
        continue;
      }
      if (seen?.has(text)) continue;
      seen?.add(text);
      const separatorStart = out.length;
      if (separatorStart > 0) out += part.separator ?? separator;
      if (spans !== undefined) {
        const at = { part, separatorStart: base + separatorStart };
        const start = base + out.length;
        const layout = part.list && this.layout; // set by this part's list()
        spans.push({ ...at, start, end: start + text.length, ...layout });
      }
      out += text;
    }
    return out;
  }

  /**
   * A list: its heading, the items that remain and its footer, or its
   * `empty` text; in a span render, their spans in `layout`.
   */
  list(part: AssembledItem, list: List): string {
    const heading = this.text(part, false);
    const separator = list.separator ?? "\n";
    const lead = heading && heading + (list.headingSeparator ?? separator);
    const { spans, base, path } = this;
    const items: PartSpan[] | undefined = spans && [];
    this.spans = items;
    this.base = lead.length;
    this.path = [...path, part.name]; // left as it is when a part throws
    const body = this.sequence(part.items ?? NONE, list);
    this.spans = spans;
    this.base = base;
    this.path = path;
    const footer = list.footer === undefined ? "" : this.text(part, true);
    this.layout = items && { items };
    if (body === "") return list.empty ?? "";
    // The heading's separator is the first item's.
    if (items !== undefined) items[0]!.separatorStart = heading.length;
    return lead + body +
      (footer && (list.footerSeparator ?? separator) + footer);
  }

  /**
   * A part's text, or its list's footer, rendered as the part's flags say.
   * No render of a text is remembered: comparing the values with the last
   * ones costs about what joining them does, and a remembered render
   * outlives young objects (`render()` reuses whole parts instead). A
   * trimmed render trims its edge values, not its result (that would
   * flatten it), unless one trims to nothing.
   */
  text(part: AssembledItem, footer: boolean): string {
    const text = footer ? part.list!.footer! : part.text;
    const trims = part.trim !== false;
    if (part.literal === true) return trims ? trim(text) : text;
    // The template that came next the last time, when its text is this one.
    const last = this.template;
    let template = last?.next;
    if (template?.source !== text) {
      template = templateOf(text, this.how.cache);
      if (last !== undefined) last.next = template;
      this.texts++;
      this.chars += text.length;
    }
    // An equal copy of the text is compared character by character; kept,
    // it is the same string at the next render, and compares by identity.
    template.source = text;
    this.template = template;
    this.at = part;
    this.footer = footer;
    const { malformed, offsets } = template;
    const parts = trims ? template.trimmed : template.parts;
    if (malformed !== undefined) {
      // The first problem in the text: a reference before the group, or it.
      for (let k = 0; offsets[k]! < malformed[0]; k++) this.read(parts, k);
      throw problems.textError({ ...this.site(), span: malformed });
    }
    const n = (parts.length - 1) >> 1;
    // Fast path: no reference, the text (trimmed once, when parsed) is it.
    if (n === 0) return parts[0]!;
    // A reference at an edge: the static text there was trimmed to nothing.
    const first = trims && parts[0] === "" ? 0 : -1;
    const end = trims && parts[2 * n] === "" ? n - 1 : -1;
    let head: string | undefined; // the edge values, trimmed
    let tail: string | undefined;
    let out = parts[0]!;
    for (let k = 0; k < n; k++) {
      let value = this.read(parts, k);
      if (k === first) value = head = value.trimStart();
      if (k === end) value = tail = value.trimEnd();
      out += value + parts[2 * k + 2]!;
    }
    if (head === "" || tail === "") out = out.trim();
    return out;
  }

  /** Reference `k`'s value: an own property that is a string, or its error. */
  read(parts: readonly string[], k: number): string {
    const { variables } = this;
    const name = parts[2 * k + 1]!;
    const value = variables[name];
    const own = this.how.own || HAS_OWN.call(variables, name);
    if (typeof value === "string" && own) return value;
    const offset = this.template!.offsets[k]!;
    throw problems.textError({ ...this.site(), offset, name, value });
  }

  /** Where the text being interpolated sits, for its errors. */
  site() {
    const { how: { kind }, path, at, footer, variables } = this;
    const text = this.template!.source;
    const where = problems.whereOf(at, { kind, path });
    return { text, variables, where, footer };
  }
}
