/**
 * One `assemble()`: resolution, the waterfall, the check of what the
 * handlers left, and a complete section.
 *
 * Covered by tests/assemble_errors_test.ts and
 * tests/waterfall_result_test.ts.
 *
 * @module
 */

import { checkPart, isValidAssembled, type PartKind } from "../core/_fields.ts";
import { describeValue, messageOf } from "../core/_describe.ts";
import type { PromptError } from "../core/errors.ts";
import {
  describeWhere,
  failure,
  isPromptError,
  nameTaken,
  type Where,
} from "../core/_messages.ts";
import { toolFault } from "../core/_tool_fields.ts";
import type { AssembledItem, PromptAssembly } from "../core/types.ts";
import { ignoreAssembly, isThenable, tryRead } from "../core/_guards.ts";
import { resolveStep } from "./_resolve.ts";
import { part, readProvided, variablesOf } from "./_parts.ts";
import type { Node, Snapshot } from "./_snapshot.ts";
import { type FunctionEntry, handlerWhere } from "./_store.ts";
import type { ToolOrder } from "./_tool_order.ts";
import type { ToolCopies } from "./_tools.ts";
import type { ToolRecord } from "./_tool_records.ts";
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
          throw this.#error(`its value ${state}`, { part: { variable } });
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

  /** `invalid-value` for what the handlers left; in `part` when one is named. */
  #error(
    problem: string,
    more: { part?: Where; cause?: unknown } = {},
  ): PromptError {
    const { at, action: place } = this.#place();
    const { part, ...cause } = more;
    const code = "invalid-value";
    return part === undefined
      ? failure({ code, action: place, problem, fields: at, ...cause })
      : failure({
        code,
        action: `${place} in`, // "… left in tool "x""
        where: { ...at, ...part },
        problem,
        ...cause,
      });
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
      throw failure({
        code: "invalid-value",
        action: place,
        problem: state,
        fields: at,
      });
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
          const code = `duplicate-${kind}` as const;
          throw failure({ code, action, where, problem: nameTaken() });
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
      const label = `item ${i} of tools`;
      if (typeof tool !== "object" || tool === null) {
        const fault = toolFault(undefined, { label, value: tool });
        throw this.#error(fault!.problem);
      }
      const { name, description, deferLoading, parameters } = tool;
      const fault = toolFault({ name, description, deferLoading }, { label });
      if (fault !== undefined) {
        const part = fault.tool === undefined
          ? {}
          : { part: { tool: fault.tool } };
        throw this.#error(fault.problem, part);
      }
      const fields = { tool: name as string };
      // A schema the registry did not copy must be JSON data too.
      const fail = (state: string) =>
        this.#error(`its parameters ${state}`, { part: fields });
      this.copies.checkSchema(parameters, fail);
      if (names.has(name as string)) {
        const { at, action: place } = this.#place();
        const where = { ...at, ...fields };
        const action = `${place} in`; // "… left in tool "x""
        const code = "duplicate-tool";
        throw failure({ code, action, where, problem: nameTaken() });
      }
      names.add(name as string);
    }
  }

  /** Throws `duplicate-item` for a name two items of one list share. */
  #items(part: AssembledItem, where: Where): void {
    const names = new Set<string>();
    for (const item of part.items ?? []) {
      if (names.has(item.name)) {
        const at = { ...where, item: item.name };
        const action = `${this.#place().action} in`;
        const problem = nameTaken();
        throw failure({ code: "duplicate-item", action, where: at, problem });
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
