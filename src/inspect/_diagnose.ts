/**
 * What `checkPrompt` finds in one assembly: what rendering it would throw
 * (every problem, not only the first), the references its texts make, the
 * same sentence under two owners, tool guidance outside its band, and
 * per-step text inside the cached system prompt; and the one wording of
 * every warning, around the grammar's name for what it is about.
 *
 * @module
 */

import { describeWhere, messageOf, PromptError } from "../core/errors.ts";
import type { Where } from "../core/errors.ts";
import { didYouMean } from "../core/names.ts";
import { toolOwner } from "../core/tools.ts";
import type { PromptAssembly, ToolSchema } from "../core/types.ts";
import type { DiagnosticCode, PromptDiagnostic } from "./diagnostics.ts";
import { whereOf } from "../render/_problems.ts";
import * as explain from "./explain.ts";

/** What the checks of several assemblies share: the variables referenced, the tools listed. */
export type Seen = { references: Set<string>; tools: Set<string> };

/** What a warning is about, and the facts its wording needs. */
type About = Where & { [fact: string]: unknown };

/** Each warning's wording, given the grammar's name for what it is about. */
const SAY: { [code in DiagnosticCode]?: (what: string, _: About) => string } = {
  "tool-guidance-band": (what, { order }) =>
    `Tool guidance belongs at orders 100–199: ${what} has order ${order}`,
  "volatile-section": (what) =>
    "Text that changes every step invalidates the provider's prefix " +
    `cache from where it sits: ${what} has stability "step"; register ` +
    "it with context() instead, as a runtime-context entry outside " +
    "the cached system prompt",
  "duplicate-sentence": (_, { sentence, earlier, label }) =>
    `The sentence ${JSON.stringify(sentence)} appears in ` +
    `${earlier} and in ${label}: one fact, two owners`,
  "unknown-tool-order": (what, { checked, suggestion }) =>
    `No tool provider returns ${what}, listed in toolOrder, in ` +
    `${checked}${didYouMean(suggestion)}`,
  "unused-variable": (what, { checked }) =>
    `No section, context entry or item of ${checked} references ${what}`,
};

/** A reference-shaped group; an escaped one (`\{{x}}`) is no use of `x`. */
const REFERENCE =
  /(?<!\\)\{\{[ \t]*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)[ \t]*\}\}/g;
/** The value a probe gives a variable that failed, to find the next problem. */
const PLACEHOLDER = "…";
const FIELDS =
  "owner layer section context item variable tool handler suggestion"
    .split(" ") as (keyof Where & keyof PromptDiagnostic)[];

/** Diagnoses one assembly, in prompt order (sections, contexts, tools). */
export function diagnoseAssembly(
  assembly: PromptAssembly,
  seen: Seen,
): PromptDiagnostic[] {
  const { sections, contexts = [], tools = [] } = assembly ?? {};
  const out: PromptDiagnostic[] = [];
  /** `run()`, or its PromptError as a diagnostic (anything else is thrown on). */
  const attempt = <T>(run: () => T): T | PromptError => {
    try {
      return run();
    } catch (error) {
      if (!(error instanceof PromptError)) throw error;
      out.push(fromError(error));
      return error;
    }
  };
  if (![sections, contexts, tools].every(Array.isArray)) {
    // Not an assembly: what explainPrompt says of it is the finding.
    attempt(() => explain.explainPrompt(assembly));
    return out;
  }
  // Where each sentence was first seen; seen elsewhere, it is reported once.
  const labels = new Map<string, Set<string>>();
  const sentence = (text: string, where: Where): void => {
    const label = (where.tool === undefined ? "" : "the description of ") +
      describeWhere(where);
    for (const sentence of sentences(text)) {
      const seen = labels.get(sentence) ?? new Set([label]);
      labels.set(sentence, seen);
      if (seen.has(label)) continue;
      seen.add(label);
      const [earlier] = seen;
      const about = { ...where, sentence, earlier, label };
      out.push(warning("duplicate-sentence", about));
    }
  };
  const owners = new Set(tools.map(toolOwner));
  owners.delete(undefined); // a tool without owner makes no section guidance
  for (const kind of ["section", "context"] as const) {
    for (const part of kind === "section" ? sections : contexts) {
      referencesOf(part, seen.references);
      // Rendered on its own, again and again: after a variable's problem
      // with a placeholder for it, after an item's without that item, until
      // it renders or the problem has no such cure.
      const variables = Object.assign(Object.create(null), assembly.variables);
      let current: unknown = part;
      let rendered;
      do {
        const one = { sections: [current], contexts: [current], variables };
        rendered = attempt(() => explain.explainSequence(one as never, kind));
        if (!(rendered instanceof PromptError)) break;
        const { variable, item } = rendered;
        if (variable !== undefined && variables[variable] !== PLACEHOLDER) {
          variables[variable] = PLACEHOLDER;
        } else current = withoutItem(current, item);
      } while (current !== undefined);
      if (rendered instanceof PromptError) continue;
      const all: explain.Part[] = [];
      explain.partsOf(rendered, all);
      for (const part of all) {
        const { name, order, owner, stability, items, list } = part;
        const where = whereOf(part, { kind, path: list });
        const guidance = name.startsWith("tool:") || owners.has(owner);
        const top = kind === "section" && list.length === 0;
        if (top && guidance && (order < 100 || order > 199)) {
          out.push(warning("tool-guidance-band", { ...where, order }));
        }
        sentence(part.own, where);
        // A list whose items change every step is not itself at fault.
        const own = !items?.some((item) => item.stability === "step");
        if (kind === "section" && stability === "step" && own) {
          out.push(warning("volatile-section", { ...where }));
        }
      }
    }
  }
  // A tool that cannot be explained (a getter that throws) fails the check.
  explain.explainPrompt({ sections: [], tools, variables: {} });
  for (const tool of tools as Partial<ToolSchema>[]) {
    const { name, description } = tool ?? {};
    if (typeof name !== "string") continue;
    seen.tools.add(name);
    if (typeof description !== "string") continue;
    sentence(description, { tool: name, owner: toolOwner(tool as ToolSchema) });
  }
  return out;
}

/**
 * A diagnostic from anything thrown: its message, and for a PromptError its
 * fields and its code, or `as` with the error's as `errorCode`.
 */
export function fromError(
  error: unknown,
  as?: DiagnosticCode,
): PromptDiagnostic {
  const known: Partial<PromptError> = error instanceof PromptError ? error : {};
  const code = as ?? known.code!;
  const message = messageOf(error);
  const found: PromptDiagnostic = { code, severity: "error", message };
  if (known.code && known.code !== code) found.errorCode = known.code;
  return withFields(found, known);
}

/** A warning about `about`, worded by {@linkcode SAY}. */
export function warning(code: DiagnosticCode, about: About): PromptDiagnostic {
  const message = SAY[code]!(describeWhere(about), about);
  return withFields({ code, severity: "warning", message }, about);
}

/** `found` with the fields of `from` that hold a string. */
function withFields(found: PromptDiagnostic, from: Where): PromptDiagnostic {
  for (const key of FIELDS) {
    if (typeof from[key] === "string") found[key] = from[key];
  }
  return found;
}

type Loose = Record<string, unknown>;

/** `part` without its first item (depth first) named `name`; undefined when none is. */
function withoutItem(part: unknown, name: string | undefined): unknown {
  const items = (part as Loose | null)?.items;
  if (name === undefined || !Array.isArray(items)) return undefined;
  for (const [i, item] of items.entries()) {
    const hit = (item as Loose | null)?.name === name;
    const inner = hit ? [] : [withoutItem(item, name)];
    if (!hit && inner[0] === undefined) continue;
    const rest = [...items.slice(0, i), ...inner, ...items.slice(i + 1)];
    return { ...(part as object), items: rest };
  }
}

/** The names `part` (its heading, footer, items at any depth) references; none when literal. */
function referencesOf(part: unknown, into: Set<string>): void {
  const { text, literal, list, items } = (part ?? {}) as Loose;
  const footer = (list as Loose | null)?.footer;
  for (const source of literal === true ? [] : [text, footer]) {
    if (typeof source !== "string") continue;
    for (const match of source.matchAll(REFERENCE)) into.add(match[1]!);
  }
  if (Array.isArray(items)) items.forEach((item) => referencesOf(item, into));
}

/**
 * The sentences of `text` with at least five words (shorter ones are too
 * generic to flag), lower-cased, with whitespace collapsed.
 */
export function sentences(text: string): string[] {
  return text.replace(/\s+/g, " ").trim().split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.toLowerCase())
    .filter((sentence) => sentence.split(" ").length >= 5);
}
