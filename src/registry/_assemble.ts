/**
 * One `assemble()`: resolution, the waterfall, the check of what the
 * handlers left, and a complete section.
 *
 * @module
 */

import { checkPart, isValidAssembled } from "../core/_fields.ts";
import {
  describeValue,
  describeWhere,
  failure,
  messageOf,
  type PromptError,
  type PromptErrorCode,
  type PromptErrorOptions,
  type Where,
} from "../core/errors.ts";
import { TOOL_ORDER_REST } from "../core/tools.ts";
import type {
  AssembledItem,
  AssembledSection,
  PromptAssembly,
  ToolSchema,
} from "../core/types.ts";
import { isPromptError, isThenable } from "./_guard.ts";
import { part, readProvided } from "./_parts.ts";
import { build, resolveStep, toolRecords } from "./_resolve.ts";
import type { Node, Snapshot } from "./_snapshot.ts";
import type { FunctionEntry } from "./_store.ts";
import type { ToolOrder } from "./_tool_order.ts";
import type { ToolCopies, ToolRecord } from "./_tools.ts";
import { handlerWhere, Waterfall } from "./_waterfall.ts";

/** What the registry lends one assembly. */
export interface AssembleState {
  readonly copies: ToolCopies;
  readonly order: ToolOrder;
  readonly separator: string | undefined;
  readonly audit: boolean;
  readonly signal: AbortSignal | undefined;
}

/** Assembles one step; every failure is a rejection, never a throw. */
export function assemble<C>(
  snapshot: Snapshot,
  context: C,
  state: AssembleState,
): Promise<PromptAssembly> {
  return resolveStep(snapshot, { context, signal: state.signal }, (values) => {
    readProvided(snapshot, values);
    const { copies } = state;
    const records = toolRecords(snapshot, values, copies, state.order);
    const assembly = build(snapshot, values, {
      records,
      separator: state.separator,
    });
    const { handlers, complete: node } = snapshot;
    // Fast path: no handler to run, nothing to check again.
    if (handlers.length === 0 && !state.audit) {
      if (node !== undefined) {
        assembly.sections = assembly.sections.filter((s) =>
          s.name === node.entry.name
        );
      }
      return assembly;
    }
    // Its own copy, as resolved before any handler could touch it.
    const complete = node === undefined
      ? undefined
      : part(snapshot, values, node) as AssembledSection;
    const run = new Waterfall(handlers, context, state);
    const done = (result: PromptAssembly) => {
      if (!proven(result, { snapshot, records })) {
        const last = run.blame ?? handlers[handlers.length - 1];
        new Diagnosis(last, copies).check(result);
      }
      if (complete === undefined && run.log === undefined) return result;
      // Never written into: the object a handler returned may be shared.
      const final = { ...result };
      if (complete !== undefined) final.sections = [complete];
      if (run.log !== undefined) final.audit = run.log;
      return final;
    };
    const result = run.run(assembly);
    return isThenable(result) ? result.then(done) : done(result);
  });
}

// No closure in the walks: a captured loop variable allocates per iteration.

/**
 * The waterfall's result is checked before it is returned: the same field
 * table as registration, names unique per sequence, tools and variables.
 *
 * Fast path: a walk that allocates nothing but the variables' names proves
 * it valid when every part and tool is the step's own, in the step's order
 * (which holds each name once), each tool with the schema the registry
 * checked. Else the {@linkcode Diagnosis} walks it in full.
 */
function proven(
  assembly: PromptAssembly,
  step: { snapshot: Snapshot; records: readonly ToolRecord[] },
): boolean {
  const { snapshot, records } = step;
  try {
    const { sections, contexts } = snapshot;
    if (!inOrder(assembly.sections, sections, "section")) return false;
    const parts = assembly.contexts;
    if (parts !== undefined && !inOrder(parts, contexts, "context")) {
      return false;
    }
    const separator: unknown = assembly.separator;
    if (separator !== undefined && typeof separator !== "string") return false;
    const tools = assembly.tools;
    for (let i = 0, next = 0; i < tools.length; i++, next++) {
      const tool: unknown = tools[i];
      if (tools[i] !== tool) return false;
      const { name, description, parameters } = (tool ?? {}) as ToolSchema;
      while (next < records.length && records[next]!.name !== name) next++;
      if (
        next === records.length ||
        records[next]!.copy.parameters !== parameters ||
        typeof tool !== "object" || typeof description !== "string"
      ) return false;
    }
    return wrongVariable(assembly.variables) === undefined;
  } catch {
    // The full walk says what threw.
    return false;
  }
}

function inOrder(
  parts: unknown,
  nodes: readonly Node[],
  kind: "section" | "context",
): boolean {
  if (!Array.isArray(parts)) return false;
  for (let i = 0, next = 0; i < parts.length; i++, next++) {
    const part = parts[i];
    if (!isValidAssembled(part, kind)) return false;
    const { name } = part as AssembledItem;
    while (next < nodes.length && nodes[next]!.entry.name !== name) next++;
    if (next === nodes.length) return false;
  }
  return true;
}

/** The first variable that holds neither a string nor `undefined`. */
function wrongVariable(
  variables: Record<string, unknown>,
): readonly [string, unknown] | undefined {
  const keys = Object.keys(variables);
  for (let i = 0; i < keys.length; i++) {
    const value: unknown = variables[keys[i]!];
    if (value !== undefined && typeof value !== "string") {
      return [keys[i]!, value];
    }
  }
  return undefined;
}

/**
 * The full walk: throws the first fault, in the order of the quick walk,
 * naming the last handler that changed the assembly's shape; or finds
 * none (a handler added a tool, say).
 */
class Diagnosis {
  readonly #at: Where;
  readonly #action: string;
  readonly #copies: ToolCopies;

  constructor(last: FunctionEntry | undefined, copies: ToolCopies) {
    this.#at = last === undefined ? {} : handlerWhere(last);
    this.#action = last === undefined
      ? "accept the assembly"
      : `accept what ${describeWhere(this.#at)} left`;
    this.#copies = copies;
  }

  check(assembly: PromptAssembly): void {
    try {
      this.#walk(assembly);
    } catch (error) {
      if (isPromptError(error)) throw error;
      const state = `reading it threw: ${messageOf(error)}`;
      throw this.#error(state, { cause: error });
    }
  }

  #error(
    state: string,
    fields?: PromptErrorOptions & { code?: PromptErrorCode },
  ): PromptError {
    const { code = "invalid-value", ...rest } = fields ?? {};
    return failure(code, this.#action, {}, state, { ...this.#at, ...rest });
  }

  #walk(assembly: PromptAssembly): void {
    this.#sequence(assembly.sections, "section");
    const contexts = assembly.contexts;
    if (contexts !== undefined) this.#sequence(contexts, "context");
    const separator: unknown = assembly.separator;
    if (separator !== undefined && typeof separator !== "string") {
      const state = `its separator is ${describeValue(separator)}`;
      throw this.#error(`${state}, not a string`);
    }
    const names = new Set<string>();
    const tools = assembly.tools;
    for (let i = 0; i < tools.length; i++) {
      const tool: unknown = tools[i];
      if (tools[i] !== tool) {
        throw this.#error(`item ${i} of tools changed while it was checked`);
      }
      const { name, description, parameters } = (tool ?? {}) as ToolSchema;
      if (
        typeof tool !== "object" || tool === null || typeof name !== "string" ||
        name === "" || name === TOOL_ORDER_REST
      ) {
        const state = "is not a tool with a non-empty name";
        throw this.#error(`item ${i} of tools ${state}`);
      }
      const fields = { tool: name };
      if (typeof description !== "string") {
        const state = `has ${describeValue(description)} as description`;
        throw this.#error(`tool "${name}" ${state}, not a string`, fields);
      }
      // A schema the registry did not copy must be JSON data too.
      const what = `the parameters of tool "${name}"`;
      const fail = (state: string) => this.#error(`${what} ${state}`, fields);
      this.#copies.checkSchema(parameters, fail);
      if (names.has(name)) {
        const state = `tool "${name}" appears twice`;
        throw this.#error(state, { ...fields, code: "duplicate-tool" });
      }
      names.add(name);
    }
    const wrong = wrongVariable(assembly.variables);
    if (wrong !== undefined) {
      const [variable, value] = wrong;
      const state = `is ${describeValue(value)}, not a string or undefined`;
      throw this.#error(`variable "${variable}" ${state}`, { variable });
    }
  }

  #sequence(parts: unknown, kind: "section" | "context"): void {
    const action = `${this.#action} in`;
    if (!Array.isArray(parts)) {
      const state = `its ${kind}s are ${describeValue(parts)}, not an array`;
      throw failure("invalid-value", action, {}, state, this.#at);
    }
    const names = new Set<string>();
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as AssembledItem | null;
      const name = typeof part === "object" && part !== null &&
          typeof part.name === "string"
        ? part.name
        : `#${i}`;
      if (!isValidAssembled(part, kind) || names.has(name)) {
        const where = { ...this.#at, [kind]: name } as Where;
        checkPart(part, { kind, mode: "assembled", action, where });
        if (names.has(name)) {
          const state = "another part of the sequence has this name";
          throw failure(`duplicate-${kind}`, action, where, state);
        }
        this.#items(part!, where);
      }
      names.add(name);
    }
  }

  /** Throws `duplicate-item` for a name two items of one list share. */
  #items(part: AssembledItem, where: Where): void {
    const names = new Set<string>();
    for (const item of part.items ?? []) {
      if (names.has(item.name)) {
        const state = "another item of the list has this name";
        const at = { ...where, item: item.name };
        throw failure("duplicate-item", `${this.#action} in`, at, state);
      }
      names.add(item.name);
      this.#items(item, where);
    }
  }
}
