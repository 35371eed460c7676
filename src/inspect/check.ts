/**
 * `checkPrompt`: what would fail, or read worse, before the first step.
 *
 * @module
 */

import { messageOf, PromptError } from "../core/errors.ts";
import { closestName } from "../core/names.ts";
import { TOOL_ORDER_REST } from "../core/tools.ts";
import type * as types from "../core/types.ts";
import { diagnoseAssembly, fromError, warning } from "./_diagnose.ts";
import type { PromptDiagnostic } from "./diagnostics.ts";

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
 * owners; then `toolOrder` names no provider returns and variables no
 * checked context's parts reference.
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
    const { contexts: more, layer, signal } = options ?? {};
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
    let assembled = false;
    const how = { ...(layer && { layer }), ...(signal && { signal }) };
    for (const [i, each] of contexts.entries()) {
      let assembly: types.PromptAssembly;
      const step = [each, how] as types.AssembleArgs<C>;
      try {
        assembly = await prompt.assemble(...step);
      } catch (error) {
        // An orphan item is a fault of the registrations, reported as such.
        const orphan = error instanceof PromptError &&
          error.code === "orphan-item";
        add(fromError(error, orphan ? "orphan-item" : "assemble-failed"), i);
        continue;
      }
      assembled = true;
      diagnoseAssembly(assembly, seen).forEach((d) => add(d, i));
    }
    // Registry-wide findings need some assembly to have succeeded.
    const checked = `the checked context${many ? "s" : ""}`;
    for (const tool of assembled ? registrations.toolOrder : []) {
      if (tool === TOOL_ORDER_REST || seen.tools.has(tool)) continue;
      const suggestion = closestName(tool, seen.tools);
      add(warning("unknown-tool-order", { tool, suggestion, checked }));
    }
    const variables = assembled ? variablesFor(registrations, layer) : [];
    for (const { name, owner, layer: at } of variables) {
      if (seen.references.has(name)) continue;
      const variable = { variable: name, owner, ...(at && { layer: at }) };
      add(warning("unused-variable", { ...variable, checked }));
    }
  } catch (error) {
    const message = `Cannot check the prompt: ${messageOf(error)}`;
    return [{ code: "check-failed", severity: "error", message }];
  }
  return [...found.values()];
}

type Variable = types.PromptRegistrations["variables"][number];

/** The registered variables an assembly for `layer` sees: per name, the nearest layer's. */
function variablesFor(
  { variables, layers }: types.PromptRegistrations,
  layer: string | undefined,
): Iterable<Variable> {
  const parents = new Map(layers.map((l) => [l.key, l.parent]));
  // How near each layer of the chain is; the global registrations are farthest.
  const near = new Map<string | undefined, number>([[undefined, 0]]);
  for (let key = layer; key !== undefined && parents.has(key);) {
    if (near.has(key)) break;
    near.set(key, layers.length + 1 - near.size);
    key = parents.get(key);
  }
  const rank = (v?: Variable) => v === undefined ? -1 : near.get(v.layer) ?? -1;
  const nearest = new Map<string, Variable>();
  for (const v of variables) {
    if (rank(v) > rank(nearest.get(v.name))) nearest.set(v.name, v);
  }
  return nearest.values();
}
