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
      const last = run.blame ?? handlers[handlers.length - 1];
      checkAssembly(result, { snapshot, records, copies, last });
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

/**
 * The waterfall's result, checked before it is returned: the same field
 * table as registration, names unique per sequence, tools and variables.
 * Blames the last handler that changed the assembly's shape.
 *
 * Fast path: a walk that allocates nothing but the variables' names proves
 * the assembly valid. When it cannot, the full walk throws the error, or
 * finds none (a handler added a tool, say).
 */
function checkAssembly(
  assembly: PromptAssembly,
  by: {
    snapshot: Snapshot;
    records: readonly ToolRecord[];
    copies: ToolCopies;
    last: FunctionEntry | undefined;
  },
): void {
  try {
    if (proven(assembly, by)) return;
  } catch {
    // The full walk says what threw.
  }
  const blame = new Blame(by.last);
  try {
    diagnose(assembly, { blame, copies: by.copies });
  } catch (error) {
    if (isPromptError(error)) throw error;
    const state = `reading it threw: ${messageOf(error)}`;
    throw blame.error(state, { cause: error });
  }
}

// No closure in the walks: a captured loop variable allocates per iteration.

/**
 * Whether every part and tool is the step's own, in the step's order (which
 * holds each name once), each tool with the schema the registry checked.
 */
function proven(
  assembly: PromptAssembly,
  step: { snapshot: Snapshot; records: readonly ToolRecord[] },
): boolean {
  const { snapshot, records } = step;
  if (!inOrder(assembly.sections, snapshot.sections, "section")) return false;
  const contexts = assembly.contexts;
  if (
    contexts !== undefined && !inOrder(contexts, snapshot.contexts, "context")
  ) {
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

/** The full walk's errors, naming the handler to blame. */
class Blame {
  readonly at: Where;
  readonly action: string;

  constructor(last: FunctionEntry | undefined) {
    this.at = last === undefined ? {} : handlerWhere(last);
    this.action = last === undefined
      ? "accept the assembly"
      : `accept what ${describeWhere(this.at)} left`;
  }

  error(
    state: string,
    fields?: PromptErrorOptions & { code?: PromptErrorCode },
  ): PromptError {
    const { code = "invalid-value", ...rest } = fields ?? {};
    return failure(code, this.action, {}, state, { ...this.at, ...rest });
  }
}

/** The full walk: throws the first fault, in the order of the quick one. */
function diagnose(
  assembly: PromptAssembly,
  by: { blame: Blame; copies: ToolCopies },
): void {
  const { blame, copies } = by;
  sequence(assembly.sections, "section", blame);
  const contexts = assembly.contexts;
  if (contexts !== undefined) sequence(contexts, "context", blame);
  const separator: unknown = assembly.separator;
  if (separator !== undefined && typeof separator !== "string") {
    const state = `its separator is ${describeValue(separator)}, not a string`;
    throw blame.error(state);
  }
  const names = new Set<string>();
  const tools = assembly.tools;
  for (let i = 0; i < tools.length; i++) {
    const tool: unknown = tools[i];
    if (tools[i] !== tool) {
      throw blame.error(`item ${i} of tools changed while it was checked`);
    }
    const { name, description, parameters } = (tool ?? {}) as ToolSchema;
    if (
      typeof tool !== "object" || tool === null || typeof name !== "string" ||
      name === "" || name === TOOL_ORDER_REST
    ) {
      throw blame.error(
        `item ${i} of tools is not a tool with a non-empty name`,
      );
    }
    if (typeof description !== "string") {
      const state = `has ${describeValue(description)} as description`;
      throw blame.error(`tool "${name}" ${state}, not a string`, {
        tool: name,
      });
    }
    // A schema the registry did not copy must be JSON data too.
    copies.checkSchema(
      parameters,
      (state) =>
        blame.error(`the parameters of tool "${name}" ${state}`, {
          tool: name,
        }),
    );
    if (names.has(name)) {
      const fields = { tool: name, code: "duplicate-tool" } as const;
      throw blame.error(`tool "${name}" appears twice`, fields);
    }
    names.add(name);
  }
  const wrong = wrongVariable(assembly.variables);
  if (wrong !== undefined) {
    const [variable, value] = wrong;
    const state = `is ${describeValue(value)}, not a string or undefined`;
    throw blame.error(`variable "${variable}" ${state}`, { variable });
  }
}

function sequence(
  parts: unknown,
  kind: "section" | "context",
  blame: Blame,
): void {
  const action = `${blame.action} in`;
  if (!Array.isArray(parts)) {
    const state = `its ${kind}s are ${describeValue(parts)}, not an array`;
    throw failure("invalid-value", action, {}, state, blame.at);
  }
  const names = new Set<string>();
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as AssembledItem | null;
    const name = typeof part === "object" && part !== null &&
        typeof part.name === "string"
      ? part.name
      : `#${i}`;
    if (!isValidAssembled(part, kind) || names.has(name)) {
      const where = { ...blame.at, [kind]: name } as Where;
      checkPart(part, { kind, mode: "assembled", action, where });
      if (names.has(name)) {
        const state = "another part of the sequence has this name";
        throw failure(`duplicate-${kind}`, action, where, state);
      }
      checkItemNames(part!, { where, action });
    }
    names.add(name);
  }
}

function checkItemNames(
  part: AssembledItem,
  place: { where: Where; action: string },
): void {
  const names = new Set<string>();
  for (const item of part.items ?? []) {
    if (names.has(item.name)) {
      const where = { ...place.where, item: item.name };
      const state = "another item of the list has this name";
      throw failure("duplicate-item", place.action, where, state);
    }
    names.add(item.name);
    checkItemNames(item, place);
  }
}
