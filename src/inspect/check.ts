/**
 * `checkPrompt`: what would fail, or read worse, before the first step;
 * what it finds in one assembly (what rendering it would throw, every
 * problem and not only the first; the references its texts make; the same
 * sentence under two owners; tool guidance outside its band; per-step text
 * inside the cached system prompt); and the one wording of every warning,
 * around the grammar's name for what it is about.
 *
 * @module
 */

import { describeValue, messageOf } from "../core/_describe.ts";
import { PromptError } from "../core/errors.ts";
import {
  describeWhere,
  sentence,
  unreadable,
  type Where,
} from "../core/_messages.ts";
import { closestName, didYouMean } from "../core/_names.ts";
import { PINS_OF } from "../core/_provenance.ts";
import { TOOL_ORDER_REST } from "../core/tool_order.ts";
import { toolOwner } from "../core/tools.ts";
import type * as types from "../core/types.ts";
import { whereOf } from "../render/_problems.ts";
import { referencesOf } from "../render/_template.ts";
import { tryRead } from "../core/_guards.ts";
import type { DiagnosticCode, PromptDiagnostic } from "./diagnostics.ts";
import * as explain from "./explain.ts";
import * as sequence from "./_sequence.ts";
import { sentences } from "./_sentences.ts";

/**
 * Options of {@linkcode checkPrompt}: `assemble()`'s (`layer`, `signal`),
 * and more contexts to check.
 *
 * @typeParam C The registry's context type.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { CheckOptions } from "@dsh/system-prompt/inspect";
 *
 * const options: CheckOptions<{ cwd?: string }> = { contexts: [{}, { cwd: "/" }] };
 * assert.equal(options.contexts?.length, 2);
 * ```
 */
export interface CheckOptions<C = types.AssembleContext>
  extends types.AssembleOptions {
  /**
   * Contexts checked after the `context` argument (when one is given): a
   * variable is unused only when no checked context's parts reference it.
   * @default {undefined}
   */
  contexts?: readonly C[];
}

/**
 * What {@linkcode checkPrompt} needs of a registry: a `SystemPrompt` is one.
 *
 * @typeParam C The registry's context type.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 * import type { CheckablePrompt } from "@dsh/system-prompt/inspect";
 *
 * const prompt: CheckablePrompt<object> = new SystemPrompt();
 * assert.equal(typeof prompt.registrations, "function");
 * ```
 */
export interface CheckablePrompt<C = types.AssembleContext> {
  /** What the registry holds. */
  registrations(): types.PromptRegistrations;
  /** One step's assembly. */
  assemble(...args: types.AssembleArgs<C>): Promise<types.PromptAssembly>;
}

/**
 * Diagnoses a registry before the first step. It assembles it for each
 * checked context (awaiting async providers, for `options.layer` when
 * given) and reports, in prompt order: what rendering would throw (every
 * unresolvable or malformed reference of sections, context entries and
 * items at any depth; literal text has none), items whose list is not live
 * (`orphan-item`), tool guidance outside its band, sections that change
 * every step (better as context entries), the same sentence under two
 * owners; then `toolOrder` names no provider returns (checked against
 * what the providers returned, before any handler filtered it: it asks
 * `assemble()` for the audit) and variables no checked context's parts
 * reference.
 *
 * The checked contexts are `context` (`{}` when left out and no
 * `options.contexts` is given) followed by `options.contexts`, so
 * `checkPrompt(prompt, context)` is unchanged and
 * `checkPrompt(prompt, undefined, { contexts: [a, b] })` checks `a` and `b`.
 *
 * @typeParam C The registry's context type.
 * @param prompt The registry.
 * @param args The context, then {@linkcode CheckOptions}.
 * @returns The diagnostics; empty when there is nothing to report. It never
 * rejects: a failing assembly is an `assemble-failed` diagnostic.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 * import { checkPrompt } from "@dsh/system-prompt/inspect";
 *
 * const prompt = new SystemPrompt();
 * prompt.scope("agent-loop").variable("model", () => "m-1");
 * prompt.scope("agent-loop").section({ name: "agent:persona", order: 0, text: "I am {{modle}}." });
 * prompt.scope("bash").section({ name: "tool:bash", order: 5, text: "Check exit codes." });
 * const codes = (await checkPrompt(prompt)).map((d) => `${d.code} ${d.owner}`);
 * assert.deepEqual(codes, [
 *   "unknown-variable agent-loop",
 *   "tool-guidance-band bash",
 *   "unused-variable agent-loop",
 * ]);
 * ```
 */
export async function checkPrompt<C>(
  prompt: CheckablePrompt<C>,
  ...args: types.AssembleArgs<C, CheckOptions<C>>
): Promise<PromptDiagnostic[]> {
  const found = new Map<string, PromptDiagnostic>();
  try {
    const [context, options] = args as [C?, CheckOptions<C>?];
    if (options !== undefined && (typeof options !== "object" || !options)) {
      return checkFailed(
        `its options are ${describeValue(options)}, not an object`,
      );
    }
    const { contexts: more, layer, signal } = options ?? {};
    if (more !== undefined && !Array.isArray(more)) {
      // A list of contexts that is none would check one silently.
      const state = `its contexts option is ${describeValue(more)}`;
      return checkFailed(`${state}, not an array`);
    }
    const contexts: C[] = !Array.isArray(more) || more.length === 0
      ? [context ?? {} as C]
      : [...(context === undefined ? [] : [context]), ...more];
    // Taken first: the registrations the assemblies resolve.
    const registrations = prompt.registrations();
    const many = contexts.length > 1;
    const add = (diagnostic: PromptDiagnostic, index?: number) => {
      const key = JSON.stringify(diagnostic);
      const held = found.get(key) ?? diagnostic;
      found.set(key, held);
      if (many && index !== undefined) (held.contexts ??= []).push(index);
    };
    const seen = { references: new Set<string>(), tools: new Set<string>() };
    const provided = new Set<string>(); // before any handler filtered them
    let assembled = false;
    // The audit says which tools the handlers removed or added.
    const how = {
      audit: true,
      ...(layer && { layer }),
      ...(signal && { signal }),
    };
    for (const [i, each] of contexts.entries()) {
      let assembly: types.PromptAssembly;
      const step = [each, how] as types.AssembleArgs<C>;
      try {
        assembly = await prompt.assemble(...step);
      } catch (error) {
        add(fromError(error, "assemble-failed"), i);
        continue;
      }
      assembled = true;
      let diagnosed: PromptDiagnostic[];
      try {
        diagnosed = diagnoseAssembly(assembly, seen);
        diagnosed.push(...unpinned(prompt, layer, assembly));
      } catch (error) {
        // An assembly that throws when read (a revoked proxy, a getter)
        // is a finding about it, not a failed check.
        const read = { action: "check the assembly", what: "it" };
        const failed = unreadable(error, read);
        diagnosed = [fromError(failed)];
      }
      diagnosed.forEach((d) => add(d, i));
      // A value that is no assembly holds no tools.
      tryRead(() => providedTools(assembly, provided));
    }
    // Registry-wide findings need some assembly to have succeeded.
    const checked = `the checked context${many ? "s" : ""}`;
    for (const tool of assembled ? registrations.toolOrder : []) {
      if (tool === TOOL_ORDER_REST || provided.has(tool)) continue;
      const suggestion = closestName(tool, provided);
      add(warning("unknown-tool-order", { tool, suggestion, checked }));
    }
    const variables = assembled ? variablesFor(registrations, layer) : [];
    for (const { name, owner, layer: at } of variables) {
      if (seen.references.has(name)) continue;
      const variable = { variable: name, owner, ...(at && { layer: at }) };
      add(warning("unused-variable", { ...variable, checked }));
    }
  } catch (error) {
    return checkFailed(messageOf(error));
  }
  return [...found.values()];
}

/** The one diagnostic of a check that could not run. */
function checkFailed(problem: string): PromptDiagnostic[] {
  const message = sentence({ action: "check the prompt", problem });
  return [{ code: "check-failed", severity: "error", message }];
}

/** The tools of an assembly that have no pin, when the chain has pins. */
function unpinned(
  prompt: object,
  layer: string | undefined,
  assembly: types.PromptAssembly,
): PromptDiagnostic[] {
  const pins = PINS_OF.get(prompt)?.(layer);
  if (pins === undefined) return [];
  return assembly.tools.filter((tool) => !pins.has(tool.name)).map((tool) =>
    warning("unpinned-tool", { tool: tool.name, owner: toolOwner(tool) })
  );
}

type Variable = types.PromptRegistrations["variables"][number];

/**
 * Adds the names of the tools the providers returned, which `toolOrder`
 * sorts before the handlers run: those the assembly holds and those a
 * handler removed, without those a handler added. (Without an audit, as
 * from a hand-written `CheckablePrompt`, the assembly's tools.)
 */
function providedTools(assembly: types.PromptAssembly, into: Set<string>) {
  const first = new Map<string, types.AuditEntry["change"]>();
  for (const entry of assembly.audit ?? []) {
    if (entry.kind === "tool" && !first.has(entry.name)) {
      first.set(entry.name, entry.change);
    }
  }
  const tools: unknown[] = Array.isArray(assembly.tools) ? assembly.tools : [];
  for (const tool of tools) {
    const name = (tool as { name?: unknown } | null)?.name;
    if (typeof name === "string" && first.get(name) !== "added") into.add(name);
  }
  for (const [name, change] of first) if (change !== "added") into.add(name);
}

/** The registered variables an assembly for `layer` sees: per name, the nearest layer's. */
function variablesFor(
  { variables, layers }: types.PromptRegistrations,
  layer: string | undefined,
): Iterable<Variable> {
  const parents = new Map(layers.map((l) => [l.key, l.parent]));
  // How near each layer of the chain is; the global registrations are farthest.
  const near = new Map<string | undefined, number>([[undefined, 0]]);
  for (let key = layer; parents.has(key!) && !near.has(key);) {
    near.set(key, layers.length + 1 - near.size);
    key = parents.get(key!);
  }
  const rank = (v?: Variable) => v === undefined ? -1 : near.get(v.layer) ?? -1;
  const nearest = new Map<string, Variable>();
  for (const v of variables) {
    if (rank(v) > rank(nearest.get(v.name))) nearest.set(v.name, v);
  }
  return nearest.values();
}

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
  "unpinned-tool": (what) =>
    `toolPins are configured, and ${what} has no pin: its owner can ` +
    "change it unnoticed",
  "unused-variable": (what, { checked }) =>
    `No section, context entry or item of ${checked} references ${what}`,
};

/** The value a probe gives a variable that failed, to find the next problem. */
const PLACEHOLDER = "…";
const FIELDS =
  "owner layer section context item variable tool handler suggestion"
    .split(" ") as (keyof Where & keyof PromptDiagnostic)[];

/**
 * Diagnoses one assembly, in prompt order (sections, contexts, tools);
 * `seen` is what the checks of several assemblies share: the variables
 * referenced, the tools listed.
 */
function diagnoseAssembly(
  assembly: types.PromptAssembly,
  seen: { references: Set<string>; tools: Set<string> },
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
      // A part that is no object is reported by its render below.
      if (typeof part === "object" && part !== null) {
        referencesOf(part, seen.references, { items: true });
      }
      // Rendered on its own, again and again: after a variable's problem
      // with a placeholder for it, after an item's without that item, until
      // it renders or the problem has no such cure.
      const variables = Object.assign(Object.create(null), assembly.variables);
      let current: unknown = part;
      let rendered;
      do {
        const one = { sections: [current], contexts: [current], variables };
        rendered = attempt(() => sequence.explainSequence(one as never, kind));
        if (!(rendered instanceof PromptError)) break;
        const { variable, item } = rendered;
        if (variable !== undefined && variables[variable] !== PLACEHOLDER) {
          variables[variable] = PLACEHOLDER;
        } else current = withoutItem(current, item);
      } while (current !== undefined);
      if (rendered instanceof PromptError) continue;
      const all: sequence.Part[] = [];
      sequence.partsOf(rendered, all);
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
  // A tool that cannot be explained (a getter that throws) is the finding.
  const explained = attempt(() =>
    explain.explainPrompt({ sections: [], tools, variables: {} })
  );
  if (explained instanceof PromptError) return out;
  for (const tool of tools as Partial<types.ToolSchema>[]) {
    const { name, description } = tool ?? {};
    if (typeof name !== "string") continue;
    seen.tools.add(name);
    if (typeof description !== "string") continue;
    sentence(description, { tool: name, owner: toolOwner(tool as never) });
  }
  return out;
}

/**
 * A diagnostic from anything thrown: its message, and for a PromptError its
 * fields and its code, or `as` with the error's as `errorCode` (an orphan
 * item keeps its code).
 */
function fromError(error: unknown, as?: DiagnosticCode): PromptDiagnostic {
  const known: Partial<PromptError> = error instanceof PromptError ? error : {};
  // An orphan item is a fault of the registrations, reported as such.
  const code = known.code === "orphan-item" ? known.code : as ?? known.code!;
  const message = messageOf(error);
  const found: PromptDiagnostic = { code, severity: "error", message };
  if (known.code && known.code !== code) found.errorCode = known.code;
  return withFields(found, known);
}

/** A warning about `about`, worded by {@linkcode SAY}. */
function warning(code: DiagnosticCode, about: About): PromptDiagnostic {
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
