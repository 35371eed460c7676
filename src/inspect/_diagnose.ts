/**
 * What `checkPrompt` finds in one assembly: what rendering it would throw
 * (every problem, not only the first), the references its texts make, the
 * same sentence under two owners, tool guidance outside its band, and
 * per-step text inside the cached system prompt.
 *
 * @module
 */

import { describeWhere, PromptError, type Where } from "../core/errors.ts";
import { toolOwner } from "../registry/tool_owner.ts";
import {
  explainPrompt,
  type ItemExplanation,
  type PromptExplanation,
} from "./explain.ts";
import type { PromptDiagnostic } from "./check.ts";
import type { PromptAssembly } from "../core/types.ts";

/** What the checks of several assemblies share. */
export interface Seen {
  /** Every variable name a text references. */
  readonly references: Set<string>;
  /** Every tool name an assembly listed. */
  readonly tools: Set<string>;
}

type Kind = "section" | "context";

const TOOL_BAND = { min: 100, max: 199 };
/** Sentences shorter than this many words are too generic to flag. */
const MIN_SENTENCE_WORDS = 5;
const SENTENCE_END = /(?<=[.!?])\s+/;
const WHITESPACE = /\s+/g;
/** A reference-shaped group; an escaped one (`\{{x}}`) is no use of `x`. */
const REFERENCE =
  /(?<!\\)\{\{[ \t]*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)[ \t]*\}\}/g;
/** The value a probe gives a variable that failed, to find the next problem. */
const PLACEHOLDER = "…";
const FIELDS = [
  "owner",
  "layer",
  "section",
  "context",
  "item",
  "variable",
  "tool",
  "handler",
  "suggestion",
] as const;

/** Diagnoses one assembly, in prompt order (sections, then contexts, then tools). */
export function diagnoseAssembly(
  assembly: PromptAssembly,
  seen: Seen,
): PromptDiagnostic[] {
  const { sections, contexts = [] } = assembly ?? {};
  if (!Array.isArray(sections) || !Array.isArray(contexts)) {
    // Not an assembly: what explainPrompt says of it is the finding.
    const error = attempt(() => explainPrompt(assembly));
    return error === undefined ? [] : [fromError(error)];
  }
  const out: PromptDiagnostic[] = [];
  const sentence = sentenceChecker(out);
  const tools: unknown[] = Array.isArray(assembly.tools) ? assembly.tools : [];
  const toolOwners = new Set<string | undefined>();
  for (const tool of tools) {
    const name = (tool as { name?: unknown } | null)?.name;
    if (typeof name === "string") seen.tools.add(name);
    toolOwners.add(toolOwner(tool as never));
  }
  for (const kind of ["section", "context"] as const) {
    for (const part of kind === "section" ? sections : contexts) {
      referencesOf(part, seen.references);
      const probed = probe(kind, part, assembly.variables);
      for (const error of probed.errors) out.push(fromError(error));
      const explained = probed.explained;
      if (explained === undefined) continue;
      if (kind === "section") {
        const { name, order, owner } = explained;
        const where = placeOf(kind, [], explained);
        if (
          (name.startsWith("tool:") ||
            (owner !== undefined && toolOwners.has(owner))) &&
          (order < TOOL_BAND.min || order > TOOL_BAND.max)
        ) {
          out.push(finding("tool-guidance-band", where, [
            `Tool guidance belongs at orders ${TOOL_BAND.min}–${TOOL_BAND.max}: `,
            ` has order ${order}`,
          ]));
        }
        volatileParts(explained, [], out);
      }
      sentencesOf(probed.text, kind, [], explained, sentence);
    }
  }
  // What rendering the tools throws (a tool that is no tool), once.
  const error = attempt(() =>
    explainPrompt({ sections: [], tools, variables: {} } as never)
  );
  if (error !== undefined) out.push(fromError(error));
  for (const tool of tools) {
    const { name, description } = (tool ?? {}) as {
      name?: unknown;
      description?: unknown;
    };
    if (typeof name !== "string" || typeof description !== "string") continue;
    sentence(description, { tool: name, owner: toolOwner(tool as never) });
  }
  return out;
}

/** A diagnostic from an error, with its code, message and fields. */
export function fromError(
  error: PromptError,
  code: PromptDiagnostic["code"] = error.code,
): PromptDiagnostic {
  const diagnostic: PromptDiagnostic = {
    code,
    severity: "error",
    message: error.message,
  };
  if (code !== error.code) diagnostic.errorCode = error.code;
  return withFields(diagnostic, error);
}

/** A warning about a part: `[before, after]` the part's description. */
function finding(
  code: PromptDiagnostic["code"],
  where: Where,
  [before, after]: readonly [string, string],
): PromptDiagnostic {
  return withFields({
    code,
    severity: "warning",
    message: before + describeWhere(where) + after,
  }, where);
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

/** Whether `run` threw a PromptError (returned) or nothing; anything else passes through. */
function attempt(run: () => unknown): PromptError | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof PromptError) return error;
    throw error;
  }
}

/**
 * Renders one part on its own, again and again: after a variable's
 * problem with a placeholder for it, after an item's problem without that
 * item, until it renders or the problem has no such cure. Every error met
 * on the way, and the explanation of what finally rendered.
 */
function probe(kind: Kind, part: unknown, variables: unknown): {
  errors: PromptError[];
  explained?: ItemExplanation;
  text: string;
} {
  const values: Record<string, unknown> = Object.assign(
    Object.create(null),
    variables,
  );
  const errors: PromptError[] = [];
  let current = part;
  for (;;) {
    let explained: PromptExplanation | undefined;
    const error = attempt(() =>
      explained = explainPrompt({
        sections: kind === "section" ? [current] : [],
        contexts: kind === "context" ? [current] : [],
        tools: [],
        variables: values,
      } as unknown as PromptAssembly)
    );
    if (error === undefined) {
      const { text, sections } = kind === "section"
        ? explained!
        : explained!.context;
      return sections[0] === undefined
        ? { errors, text }
        : { errors, text, explained: sections[0] };
    }
    errors.push(error);
    const name = error.variable;
    if (name !== undefined && values[name] !== PLACEHOLDER) {
      values[name] = PLACEHOLDER;
      continue;
    }
    current = withoutItem(current, error.item);
    if (current === undefined) return { errors, text: "" };
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
    if (hit) copy.splice(i, 1);
    else copy[i] = inner;
    return { ...(part as object), items: copy };
  }
  return undefined;
}

/** The names `part` (a heading, a footer, its items at any depth) references; none when literal. */
function referencesOf(part: unknown, into: Set<string>): void {
  if (typeof part !== "object" || part === null) return;
  const { text, literal, list, items } = part as Record<string, unknown>;
  if (literal !== true) {
    const footer = (list as { footer?: unknown } | null | undefined)?.footer;
    for (const source of [text, footer]) {
      if (typeof source !== "string") continue;
      for (const match of source.matchAll(REFERENCE)) into.add(match[1]!);
    }
  }
  if (Array.isArray(items)) {
    for (const item of items) {
      referencesOf(item, into);
    }
  }
}

/** Where a rendered part sits: a top-level part, or an item under `path`. */
function placeOf(kind: Kind, path: readonly string[], part: ItemExplanation) {
  const where: Where = path.length === 0
    ? { [kind]: part.name, owner: part.owner }
    : { [kind]: path[0], item: part.name, list: path, owner: part.owner };
  return part.layer === undefined ? where : { ...where, layer: part.layer };
}

/** A `volatile-section` warning for the deepest parts that change every step. */
function volatileParts(
  part: ItemExplanation,
  path: readonly string[],
  out: PromptDiagnostic[],
): void {
  const inner = [...path, part.name];
  const steps = (part.items ?? []).filter((item) => item.stability === "step");
  for (const item of steps) volatileParts(item, inner, out);
  if (steps.length > 0 || part.stability !== "step") return;
  out.push(finding("volatile-section", placeOf("section", path, part), [
    "Text that changes every step invalidates the provider's prefix cache " +
    "from where it sits: ",
    ' has stability "step"; register it with context() instead, as a ' +
    "runtime-context entry outside the cached system prompt",
  ]));
}

/** Feeds the rendered text of a part (its own, then each item's) to `add`. */
function sentencesOf(
  text: string,
  kind: Kind,
  path: readonly string[],
  part: ItemExplanation,
  add: (text: string, where: Where) => void,
): void {
  let own = "";
  let at = part.start;
  for (const item of part.items ?? []) {
    own += text.slice(at, item.separatorStart);
    at = item.end;
  }
  add(own + text.slice(at, part.end), placeOf(kind, path, part));
  const inner = [...path, part.name];
  for (const item of part.items ?? []) {
    sentencesOf(text, kind, inner, item, add);
  }
}

/**
 * The sentences of `text` with at least five words, lower-cased, with
 * whitespace collapsed.
 */
export function sentences(text: string): string[] {
  return text.replace(WHITESPACE, " ").trim().split(SENTENCE_END)
    .map((sentence) => sentence.toLowerCase())
    .filter((sentence) => sentence.split(" ").length >= MIN_SENTENCE_WORDS);
}

/** Remembers where each sentence was first seen; reports it seen elsewhere. */
function sentenceChecker(
  out: PromptDiagnostic[],
): (text: string, where: Where) => void {
  const first = new Map<string, string>();
  const reported = new Set<string>();
  return (text, where) => {
    const label = (where.tool === undefined ? "" : "the description of ") +
      describeWhere(where);
    for (const sentence of sentences(text)) {
      const earlier = first.get(sentence);
      if (earlier === undefined) first.set(sentence, label);
      if (earlier === undefined || earlier === label) continue;
      const pair = `${earlier}\0${label}\0${sentence}`;
      if (reported.has(pair)) continue;
      reported.add(pair);
      out.push(withFields({
        code: "duplicate-sentence",
        severity: "warning",
        message: `The sentence ${JSON.stringify(sentence)} appears in ` +
          `${earlier} and in ${label}: one fact, two owners`,
      }, where));
    }
  };
}
