/**
 * What `checkPrompt` finds in one assembly: what rendering it would throw
 * (every problem, not only the first), the references its texts make, the
 * same sentence under two owners, tool guidance outside its band, and
 * per-step text inside the cached system prompt.
 *
 * @module
 */

import { describeWhere, PromptError, type Where } from "../core/errors.ts";
import { toolOwner } from "../core/tools.ts";
import { explainPrompt, type ItemExplanation } from "./explain.ts";
import { ownText } from "./_parts.ts";
import type { PromptDiagnostic } from "./diagnostics.ts";
import type { PromptAssembly, ToolSchema } from "../core/types.ts";

/** What the checks of several assemblies share. */
export interface Seen {
  /** Every variable name a text references. */
  readonly references: Set<string>;
  /** Every tool name an assembly listed. */
  readonly tools: Set<string>;
}

type Kind = "section" | "context";

const TOOL_BAND = [100, 199] as const;
/** A reference-shaped group; an escaped one (`\{{x}}`) is no use of `x`. */
const REFERENCE =
  /(?<!\\)\{\{[ \t]*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)[ \t]*\}\}/g;
/** A step part's warning, around its description (deepest step parts only). */
const VOLATILE = [
  "Text that changes every step invalidates the provider's prefix cache from where it sits: ",
  ' has stability "step"; register it with context() instead, as a ' +
  "runtime-context entry outside the cached system prompt",
] as const;
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
  if (![sections, contexts, tools].every(Array.isArray)) {
    // Not an assembly: what explainPrompt says of it is the finding.
    return errorsOf(() => explainPrompt(assembly));
  }
  const out: PromptDiagnostic[] = [];
  const sentence = sentenceChecker(out);
  const owners = new Set(tools.map((tool) => toolOwner(tool)));
  for (const kind of ["section", "context"] as const) {
    for (const part of kind === "section" ? sections : contexts) {
      referencesOf(part, seen.references);
      const { errors, text, explained } = probe(kind, part, assembly.variables);
      out.push(...errors);
      if (explained === undefined) continue;
      const { name, order, owner } = explained;
      if (
        kind === "section" && (order < TOOL_BAND[0] || order > TOOL_BAND[1]) &&
        (name.startsWith("tool:") || (owner !== undefined && owners.has(owner)))
      ) {
        out.push(warning("tool-guidance-band", placeOf(kind, [], explained), [
          `Tool guidance belongs at orders ${TOOL_BAND.join("–")}: `,
          ` has order ${order}`,
        ]));
      }
      eachPart(explained, [], (part, path) => {
        const where = placeOf(kind, path, part);
        sentence(ownText(text, part), where);
        if (
          kind === "section" && part.stability === "step" &&
          !part.items?.some((item) => item.stability === "step")
        ) out.push(warning("volatile-section", where, VOLATILE));
      });
    }
  }
  // What rendering the tools throws (a tool that is no tool), once.
  out.push(
    ...errorsOf(() => explainPrompt({ sections: [], tools, variables: {} })),
  );
  for (const tool of tools as Partial<ToolSchema>[]) {
    const { name, description } = tool ?? {};
    if (typeof name !== "string") continue;
    seen.tools.add(name);
    if (typeof description !== "string") continue;
    sentence(description, { tool: name, owner: toolOwner(tool as ToolSchema) });
  }
  return out;
}

/** A diagnostic from an error: its code (or `code`), message and fields. */
export function fromError(
  error: PromptError,
  code: PromptDiagnostic["code"] = error.code,
): PromptDiagnostic {
  const found: PromptDiagnostic = {
    code,
    severity: "error",
    message: error.message,
  };
  if (code !== error.code) found.errorCode = error.code;
  return withFields(found, error);
}

/** A warning about a part: `[before, after]` its description. */
function warning(
  code: PromptDiagnostic["code"],
  where: Where,
  [before, after]: readonly [string, string],
): PromptDiagnostic {
  const message = before + describeWhere(where) + after;
  return withFields({ code, severity: "warning", message }, where);
}

function withFields(
  diagnostic: PromptDiagnostic,
  from: Where | PromptError,
): PromptDiagnostic {
  for (const key of FIELDS) {
    const value = from[key];
    if (typeof value === "string") diagnostic[key] = value;
  }
  return diagnostic;
}

/** The PromptError `run` throws, as diagnostics; anything else passes through. */
function errorsOf(run: () => unknown): PromptDiagnostic[] {
  try {
    run();
    return [];
  } catch (error) {
    if (error instanceof PromptError) return [fromError(error)];
    throw error;
  }
}

/**
 * Renders one part on its own, again and again: after a variable's problem
 * with a placeholder for it, after an item's problem without that item,
 * until it renders or the problem has no such cure. The errors met on the
 * way, and the explanation of what finally rendered.
 */
function probe(kind: Kind, part: unknown, variables: unknown) {
  const values = Object.assign(Object.create(null), variables);
  const errors: PromptDiagnostic[] = [];
  for (let current = part;;) {
    const one = { sections: [current], tools: [], variables: values };
    try {
      const explained = explainPrompt(
        (kind === "section"
          ? one
          : { ...one, sections: [], contexts: [current] }) as never,
      );
      const { text, sections } = kind === "section"
        ? explained
        : explained.context;
      return { errors, text, explained: sections[0] };
    } catch (error) {
      if (!(error instanceof PromptError)) throw error;
      errors.push(fromError(error));
      const name = error.variable;
      if (name !== undefined && values[name] !== PLACEHOLDER) {
        values[name] = PLACEHOLDER;
        continue;
      }
      current = withoutItem(current, error.item);
      if (current === undefined) {
        return { errors, text: "", explained: undefined };
      }
    }
  }
}

/** `part` without its first item (depth first) named `name`; undefined when none is. */
function withoutItem(part: unknown, name: string | undefined): unknown {
  const items = (part as { items?: unknown } | null)?.items;
  if (name === undefined || !Array.isArray(items)) return undefined;
  for (let i = 0; i < items.length; i++) {
    const hit = (items[i] as { name?: unknown } | null)?.name === name;
    const inner = hit ? undefined : withoutItem(items[i], name);
    if (!hit && inner === undefined) continue;
    const copy = items.slice();
    copy.splice(i, 1, ...(hit ? [] : [inner]));
    return { ...(part as object), items: copy };
  }
  return undefined;
}

/** The names `part` (its heading, footer, items at any depth) references; none when literal. */
function referencesOf(part: unknown, into: Set<string>): void {
  const { text, literal, list, items } = (part ?? {}) as Record<
    string,
    unknown
  >;
  const footer = (list as { footer?: unknown } | null)?.footer;
  for (const source of literal === true ? [] : [text, footer]) {
    if (typeof source !== "string") continue;
    for (const match of source.matchAll(REFERENCE)) into.add(match[1]!);
  }
  for (const item of Array.isArray(items) ? items : []) {
    referencesOf(item, into);
  }
}

/** Where a rendered part sits: a top-level part, or an item under `path`. */
function placeOf(kind: Kind, path: readonly string[], part: ItemExplanation) {
  const { name, owner, layer } = part;
  const where: Where = path.length === 0
    ? { [kind]: name, owner }
    : { [kind]: path[0], item: name, list: path, owner };
  return layer === undefined ? where : { ...where, layer };
}

/** Visits a rendered part and its items at any depth, with the lists above each. */
function eachPart(
  part: ItemExplanation,
  path: readonly string[],
  visit: (part: ItemExplanation, path: readonly string[]) => void,
): void {
  visit(part, path);
  for (const item of part.items ?? []) {
    eachPart(item, [...path, part.name], visit);
  }
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

/** Remembers where each sentence was first seen; reports it seen elsewhere. */
function sentenceChecker(out: PromptDiagnostic[]) {
  const first = new Map<string, string>();
  const reported = new Set<string>();
  return (text: string, where: Where): void => {
    const label = (where.tool === undefined ? "" : "the description of ") +
      describeWhere(where);
    for (const sentence of sentences(text)) {
      const earlier = first.get(sentence) ?? label;
      first.set(sentence, earlier);
      const pair = `${earlier}\0${label}\0${sentence}`;
      if (earlier === label || reported.has(pair)) continue;
      reported.add(pair);
      const message = `The sentence ${JSON.stringify(sentence)} appears in ` +
        `${earlier} and in ${label}: one fact, two owners`;
      out.push(
        withFields(
          { code: "duplicate-sentence", severity: "warning", message },
          where,
        ),
      );
    }
  };
}
