/**
 * One `assemble()`: resolution, the waterfall, the check of what the
 * handlers left, and a complete section.
 *
 * @module
 */

import { checkPart, isValidAssembled, type PartKind } from "../core/_fields.ts";
import {
  describeValue,
  describeWhere,
  failure,
  isPromptError,
  messageOf,
  type PromptError,
  type PromptErrorOptions,
  type Where,
} from "../core/errors.ts";
import { TOOL_ORDER_REST } from "../core/tool_order.ts";
import type { AssembledItem, PromptAssembly } from "../core/types.ts";
import { ignoreAssembly, isThenable, tryRead } from "../core/_guards.ts";
import { resolveStep } from "./_resolve.ts";
import { part, readProvided, variablesOf } from "./_parts.ts";
import type { Node, Snapshot } from "./_snapshot.ts";
import { type FunctionEntry, handlerWhere } from "./_store.ts";
import type { ToolOrder } from "./_tool_order.ts";
import type { ToolCopies, ToolRecord } from "./_tools.ts";
import { Waterfall } from "./_waterfall.ts";

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
    const { copies, separator } = state;
    const records = copies.records(snapshot, values, state.order);
    const assembly = build(snapshot, values, { records, separator });
    const { handlers, complete: node, completeAt } = snapshot;
    // Fast path: no handler to run, nothing to check again.
    if (handlers.length === 0 && !state.audit) {
      if (completeAt >= 0) assembly.sections = [assembly.sections[completeAt]!];
      return assembly;
    }
    // Its own copy, as resolved before any handler could touch it.
    const complete = node && part(snapshot, values, node);
    const run = new Waterfall(handlers, context, state);
    const done = (result: PromptAssembly) => {
      try {
        new Check(copies, run.blame).run(result, { snapshot, records });
      } catch (error) {
        // Refused: nothing else reads the promises it may hold.
        ignoreAssembly(result);
        throw error;
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

/** Builds the step's fresh assembly from the settled results. */
function build(
  snapshot: Snapshot,
  values: readonly unknown[],
  state: { records: readonly ToolRecord[]; separator: string | undefined },
): PromptAssembly {
  const built = (node: Node) => part(snapshot, values, node);
  const sections = snapshot.sections.map(built);
  const contexts = snapshot.contexts.map(built);
  // Fresh per assembly (a handler may edit it); `parameters` stay shared,
  // and say who provided the tool.
  const tools = state.records.map((record) => ({ ...record.copy }));
  const variables = variablesOf(snapshot, values);
  const assembly: PromptAssembly = { sections, tools, variables };
  if (state.separator !== undefined) assembly.separator = state.separator;
  if (contexts.length > 0) assembly.contexts = contexts;
  return assembly;
}

/**
 * The waterfall's result is checked before it is returned: the same field
 * table as registration, names unique per sequence, tools and variables.
 *
 * Quick walks, allocating nothing, prove a sequence valid when every part
 * or tool is the step's own, in the step's order (which holds each name
 * once), each tool with the schema the registry checked; a read that
 * throws proves nothing (`tryRead`). Else the full walk of that sequence
 * throws its first fault, naming the handler to blame, or finds none (a
 * handler added a tool, say). No closure inside the walks' loops: a
 * captured loop variable allocates per iteration.
 */
class Check {
  constructor(readonly copies: ToolCopies, readonly blame?: FunctionEntry) {}

  run(
    assembly: PromptAssembly,
    step: { snapshot: Snapshot; records: readonly ToolRecord[] },
  ): void {
    const { sections, contexts } = step.snapshot;
    try {
      this.#sequence(assembly.sections, "section", sections);
      const parts = assembly.contexts;
      if (parts !== undefined) this.#sequence(parts, "context", contexts);
      const separator: unknown = assembly.separator;
      if (separator !== undefined && typeof separator !== "string") {
        const state = `its separator is ${describeValue(separator)}`;
        throw this.#error(`${state}, not a string`);
      }
      this.#tools(assembly.tools, step.records);
      const variables = assembly.variables;
      if (typeof variables !== "object" || variables === null) {
        const state = `its variables are ${describeValue(variables)}`;
        throw this.#error(`${state}, not an object`);
      }
      for (const variable of Object.keys(variables)) {
        const value: unknown = variables[variable];
        if (value !== undefined && typeof value !== "string") {
          const state = `is ${describeValue(value)}, not a string or undefined`;
          throw this.#error(`variable "${variable}" ${state}`, { variable });
        }
      }
    } catch (error) {
      if (isPromptError(error)) throw error;
      const state = `reading it threw: ${messageOf(error)}`;
      throw this.#error(state, { cause: error });
    }
  }

  /** Where the errors point, and what they say could not be done. */
  #place(): { at: Where; action: string } {
    if (this.blame === undefined) {
      return { at: {}, action: "accept the assembly" };
    }
    const at = handlerWhere(this.blame);
    return { at, action: `accept what ${describeWhere(at)} left` };
  }

  #error(state: string, fields?: PromptErrorOptions): PromptError {
    const { at, action } = this.#place();
    return failure("invalid-value", action, {}, state, { ...at, ...fields });
  }

  /** A sequence the quick walk cannot prove is walked in full. */
  #sequence(
    parts: unknown,
    kind: "section" | "context",
    nodes: readonly Node[],
  ): void {
    // A read that throws proves nothing: the full walk decides.
    if (tryRead(() => proven(parts, kind, nodes))) return;
    const { at, action: place } = this.#place();
    if (!Array.isArray(parts)) {
      const state = `its ${kind}s are ${describeValue(parts)}, not an array`;
      throw failure("invalid-value", place, {}, state, at);
    }
    const action = `${place} in`; // "… left in section "x""
    const names = new Set<string>();
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as AssembledItem | null;
      const name = typeof part === "object" && part !== null &&
          typeof part.name === "string"
        ? part.name
        : `#${i}`;
      if (!isValidAssembled(part, kind) || names.has(name)) {
        const where = { ...at, [kind]: name } as Where;
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

  /** Tools the quick walk cannot prove are walked in full. */
  #tools(tools: readonly unknown[], records: readonly ToolRecord[]): void {
    // A length alone proves nothing: `{}` or a Map has none to loop to.
    if (!Array.isArray(tools)) {
      const state = `its tools are ${describeValue(tools)}, not an array`;
      throw this.#error(state);
    }
    if (tryRead(() => ownTools(tools, records))) return;
    const names = new Set<string>();
    for (let i = 0; i < tools.length; i++) {
      const tool = tools[i] as Record<string, unknown> | undefined;
      if (tools[i] !== tool) {
        throw this.#error(`item ${i} of tools changed while it was checked`);
      }
      const { name, description, parameters } = tool ?? {};
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
      this.copies.checkSchema(parameters, fail);
      if (names.has(name)) {
        const { at, action } = this.#place();
        const state = `tool "${name}" appears twice`;
        throw failure("duplicate-tool", action, {}, state, {
          ...at,
          ...fields,
        });
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
        throw failure(
          "duplicate-item",
          `${this.#place().action} in`,
          at,
          state,
        );
      }
      names.add(item.name);
      this.#items(item, where);
    }
  }
}

/** Whether `parts` are valid and the step's own, in the step's order. */
function proven(parts: unknown, kind: PartKind, nodes: readonly Node[]) {
  if (!Array.isArray(parts)) return false;
  for (let i = 0, next = 0; i < parts.length; i++, next++) {
    const part = parts[i] as AssembledItem;
    // An invalid part matches no node.
    const name = isValidAssembled(part, kind) && part.name;
    while (next < nodes.length && nodes[next]!.entry.name !== name) next++;
    if (next === nodes.length) return false;
  }
  return true;
}

/** Whether `tools` are the step's own copies, in the step's order. */
function ownTools(tools: readonly unknown[], records: readonly ToolRecord[]) {
  for (let i = 0, next = 0; i < tools.length; i++, next++) {
    const tool = tools[i] as Record<string, unknown> | undefined;
    if (tools[i] !== tool || typeof tool !== "object") return false;
    const { name, description, parameters } = tool;
    while (next < records.length && records[next]!.name !== name) next++;
    const known = records[next]?.copy.parameters;
    if (next === records.length || known !== parameters) return false;
    if (typeof description !== "string") return false;
  }
  return true;
}
