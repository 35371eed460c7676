/**
 * `checkPrompt`: what would fail, or read worse, before the first step.
 *
 * @module
 */

import {
  describeWhere,
  failure,
  messageOf,
  PromptError,
} from "../core/errors.ts";
import type { PromptErrorCode, Where } from "../core/errors.ts";
import { closestName, didYouMean } from "../core/names.ts";
import { diagnoseAssembly, fromError, type Seen } from "./_diagnose.ts";
import type {
  AssembleArgs,
  AssembleContext,
  AssembleOptions,
  PromptAssembly,
  PromptRegistrations,
} from "../core/types.ts";

/** The `toolOrder` entry where unlisted tools go (the registry's `TOOL_ORDER_REST`). */
const TOOL_ORDER_REST = "<unlisted-tools>";

/**
 * What a diagnostic is about: a {@linkcode PromptErrorCode} for what
 * rendering the assembly would throw (`unknown-variable`, `missing-value`,
 * `malformed-reference`, `invalid-value`, `invalid-section`, …) or what
 * `assemble()` will reject with (`orphan-item`), and these:
 *
 * | code | severity | finding |
 * | --- | --- | --- |
 * | `assemble-failed` | error | `assemble()` rejected (its code in `errorCode`); nothing else was checked for that context |
 * | `check-failed` | error | the check itself could not read a value (a getter that throws); nothing else was checked |
 * | `orphan-item` | error | an item (or item provider) whose list is no live section, context entry or item declaring `list` |
 * | `unused-variable` | warning | a registered variable no section, context entry or item references in any checked context |
 * | `duplicate-sentence` | warning | one sentence in two parts, or in a part and a tool description: two owners for one fact |
 * | `tool-guidance-band` | warning | tool guidance (a `tool:` section, or a section of a scope that provides tools) outside orders 100–199 |
 * | `volatile-section` | warning | a section or item with stability `"step"` in the system prompt: it belongs in a context entry |
 * | `unknown-tool-order` | warning | a `toolOrder` name that no tool provider returns in any checked context |
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { DiagnosticCode } from "@dsh/system-prompt/inspect";
 *
 * const code: DiagnosticCode = "unused-variable";
 * assert.equal(code, "unused-variable");
 * ```
 */
export type DiagnosticCode =
  | PromptErrorCode
  | "assemble-failed"
  | "check-failed"
  | "unused-variable"
  | "duplicate-sentence"
  | "tool-guidance-band"
  | "volatile-section"
  | "unknown-tool-order";

/**
 * One finding of {@linkcode checkPrompt}.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 * import { checkPrompt, type PromptDiagnostic } from "@dsh/system-prompt/inspect";
 *
 * const prompt = new SystemPrompt();
 * prompt.scope("git").variable("branch", () => "main");
 * const [diagnostic]: PromptDiagnostic[] = await checkPrompt(prompt);
 * assert.deepEqual(diagnostic, {
 *   code: "unused-variable",
 *   severity: "warning",
 *   owner: "git",
 *   variable: "branch",
 *   message: 'No section, context entry or item of the checked context references variable "branch" of "git"',
 * });
 * ```
 */
export interface PromptDiagnostic {
  /** What it is about. */
  code: DiagnosticCode;
  /** `error`: the first step would fail; `warning`: it would work, worse. */
  severity: "error" | "warning";
  /** The finding, for people. */
  message: string;
  /** The owner of the part at fault, when it has one. */
  owner?: string;
  /** The layer of the part at fault, when it has one. */
  layer?: string;
  /** The section at fault (for an item, its top-level list). */
  section?: string;
  /** The context entry at fault (for an item, its top-level list). */
  context?: string;
  /** The item at fault. */
  item?: string;
  /** The variable at fault. */
  variable?: string;
  /** The tool at fault. */
  tool?: string;
  /** The assemble handler at fault. */
  handler?: string;
  /** A close name ("did you mean"). */
  suggestion?: string;
  /** For `assemble-failed`: the code `assemble()` rejected with. */
  errorCode?: PromptErrorCode;
  /**
   * When several contexts were checked and the finding comes from their
   * assemblies: the indexes (in checked order) of those it holds for.
   */
  contexts?: number[];
}

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
export interface CheckOptions<C = AssembleContext> extends AssembleOptions {
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
export interface CheckablePrompt<C = AssembleContext> {
  /** What the registry holds. */
  registrations(): PromptRegistrations;
  /** One step's assembly. */
  assemble(...args: AssembleArgs<C>): Promise<PromptAssembly>;
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
  ...args: AssembleArgs<C, CheckOptions<C>>
): Promise<PromptDiagnostic[]> {
  const [context, options] = args as [C?, CheckOptions<C>?];
  try {
    return await check(prompt, context, options ?? {});
  } catch (error) {
    return [{
      code: "check-failed",
      severity: "error",
      message: `Cannot check the prompt: ${messageOf(error)}`,
    }];
  }
}

async function check<C>(
  prompt: CheckablePrompt<C>,
  context: C | undefined,
  options: CheckOptions<C>,
): Promise<PromptDiagnostic[]> {
  const more = Array.isArray(options.contexts) ? options.contexts : undefined;
  const contexts: C[] = more === undefined || more.length === 0
    ? [context ?? {} as C]
    : context === undefined
    ? [...more]
    : [context, ...more];
  const { layer, signal } = options;
  // Taken first: the registrations the assemblies resolve.
  const registrations = prompt.registrations();
  const rank = layerRanks(registrations, layer);
  const found = new Map<string, PromptDiagnostic>();
  const add = (diagnostic: PromptDiagnostic, index?: number) => {
    const key = JSON.stringify(diagnostic);
    const held = found.get(key) ?? diagnostic;
    found.set(key, held);
    if (index !== undefined && contexts.length > 1) {
      (held.contexts ??= []).push(index);
    }
  };
  const orphans = orphanItems(registrations, rank);
  for (const orphan of orphans) add(orphan);
  const seen: Seen = { references: new Set(), tools: new Set() };
  let assembled = 0;
  for (let i = 0; i < contexts.length; i++) {
    let assembly: PromptAssembly;
    try {
      assembly = await prompt.assemble(
        ...[contexts[i], {
          ...(layer === undefined ? {} : { layer }),
          ...(signal === undefined ? {} : { signal }),
        }] as AssembleArgs<C>,
      );
    } catch (error) {
      // The orphans found above are what it rejected for.
      if (isCode(error, "orphan-item") && orphans.length > 0) continue;
      add(
        error instanceof PromptError ? fromError(error, "assemble-failed") : {
          code: "assemble-failed",
          severity: "error",
          message: messageOf(error),
        },
        i,
      );
      continue;
    }
    assembled++;
    for (const diagnostic of diagnoseAssembly(assembly, seen)) {
      add(diagnostic, i);
    }
  }
  if (assembled > 0) {
    const checked = `the checked context${contexts.length > 1 ? "s" : ""}`;
    for (const name of registrations.toolOrder) {
      if (name === TOOL_ORDER_REST || seen.tools.has(name)) continue;
      const suggestion = closestName(name, seen.tools);
      add({
        code: "unknown-tool-order",
        severity: "warning",
        message: `No tool provider returns ${describeWhere({ tool: name })}, ` +
          `listed in toolOrder, in ${checked}${didYouMean(suggestion)}`,
        tool: name,
        ...(suggestion === undefined ? {} : { suggestion }),
      });
    }
    const variables = effective(registrations.variables, rank, (v) => v.name);
    for (const { name, owner, layer } of variables.values()) {
      if (seen.references.has(name)) continue;
      const where: Where = {
        variable: name,
        owner,
        ...(layer ? { layer } : {}),
      };
      add({
        code: "unused-variable",
        severity: "warning",
        message: `No section, context entry or item of ${checked} ` +
          `references ${describeWhere(where)}`,
        ...(owner === undefined ? {} : { owner }),
        ...(layer === undefined ? {} : { layer }),
        variable: name,
      });
    }
  }
  return [...found.values()];
}

function isCode(error: unknown, code: PromptErrorCode): boolean {
  return error instanceof PromptError && error.code === code;
}

/** Rank of each layer an assembly for `layer` resolves: 0 global, nearest highest. */
function layerRanks(
  registrations: PromptRegistrations,
  layer: string | undefined,
): Map<string | undefined, number> {
  const parents = new Map(registrations.layers.map((l) => [l.key, l.parent]));
  const chain: string[] = [];
  for (
    let key = layer;
    key !== undefined && parents.has(key) && !chain.includes(key);
    key = parents.get(key)
  ) chain.unshift(key);
  return new Map([
    [undefined, 0],
    ...chain.map((key, i) => [key, i + 1] as const),
  ]);
}

/** The registrations an assembly sees: per key, the one of the nearest layer. */
function effective<T extends { layer?: string }>(
  entries: readonly T[],
  rank: ReadonlyMap<string | undefined, number>,
  keyOf: (entry: T) => string,
): Map<string, T> {
  const found = new Map<string, T>();
  for (const entry of entries) {
    const at = rank.get(entry.layer);
    if (at === undefined) continue;
    const held = found.get(keyOf(entry));
    if (held === undefined || rank.get(held.layer)! < at) {
      found.set(keyOf(entry), entry);
    }
  }
  return found;
}

/** An `orphan-item` error for each item and item provider whose list is not live. */
function orphanItems(
  registrations: PromptRegistrations,
  rank: ReadonlyMap<string | undefined, number>,
): PromptDiagnostic[] {
  const tops = new Set<string>();
  for (const parts of [registrations.sections, registrations.contexts]) {
    for (const [name, part] of effective(parts, rank, (p) => p.name)) {
      if (part.list === true) tops.add(name);
    }
  }
  const key = (path: readonly string[]) => JSON.stringify(path);
  const items = effective(
    registrations.items,
    rank,
    (i) => key([...i.path, i.name]),
  );
  const live = (path: readonly string[]): boolean =>
    path.length === 1
      ? tops.has(path[0]!)
      : path.length > 1 && items.get(key(path))?.declaresList === true &&
        live(path.slice(0, -1));
  const lists = [...tops];
  for (const item of items.values()) {
    const path = [...item.path, item.name];
    if (item.declaresList === true && live(path)) lists.push(path.join("/"));
  }
  const orphan = (action: string, where: Where, path: readonly string[]) => {
    const suggestion = closestName(path.join("/"), lists);
    const list = where.item === undefined
      ? "list " + path.map((name) => JSON.stringify(name)).join(" > ")
      : "that list";
    const state = `no live section, context entry or item declares ${list}`;
    return fromError(
      failure("orphan-item", action, where, state + didYouMean(suggestion), {
        suggestion,
      }),
    );
  };
  const found: PromptDiagnostic[] = [];
  for (const { path, name, owner, layer } of items.values()) {
    if (live(path)) continue;
    const at = layer === undefined ? {} : { layer };
    found.push(
      orphan("assemble", { item: name, list: path, owner, ...at }, path),
    );
  }
  for (const { path, owner, layer } of registrations.itemProviders) {
    if (!rank.has(layer) || live(path)) continue;
    const at = layer === undefined ? {} : { layer };
    found.push(orphan("call the item provider", { owner, ...at }, path));
  }
  return found;
}
