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
import type { Snapshot } from "./_snapshot.ts";
import type { FunctionEntry } from "./_store.ts";
import type { ToolOrder } from "./_tool_order.ts";
import type { ToolCopies } from "./_tools.ts";
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
  return resolveStep(
    snapshot,
    { context, signal: state.signal },
    (values) => finish(snapshot, values, { context, state }),
  );
}

function finish<C>(
  snapshot: Snapshot,
  values: unknown[],
  step: { context: C; state: AssembleState },
): PromptAssembly | Promise<PromptAssembly> {
  const { context, state } = step;
  readProvided(snapshot, values);
  const records = toolRecords(snapshot, values, state.copies, state.order);
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
  const tools = builtTools(assembly.tools);
  const copies = state.copies;
  const done = (result: PromptAssembly) => {
    const last = run.blame ?? handlers[handlers.length - 1];
    checkAssembly(result, { snapshot, tools, copies, last });
    if (complete === undefined && run.log === undefined) return result;
    // Never written into: the object a handler returned may be shared.
    const final = { ...result };
    if (complete !== undefined) final.sections = [complete];
    if (run.log !== undefined) final.audit = run.log;
    return final;
  };
  const result = run.run(assembly);
  return isThenable(result) ? result.then(done) : done(result);
}

/**
 * The step's tools before any handler: name, schema, name, schema… Each
 * name once, each schema one the registry checked.
 */
function builtTools(tools: readonly ToolSchema[]): readonly unknown[] {
  if (tools.length === 0) return tools;
  const built = new Array<unknown>(tools.length * 2);
  for (let i = 0; i < tools.length; i++) {
    built[2 * i] = tools[i]!.name;
    built[2 * i + 1] = tools[i]!.parameters;
  }
  return built;
}

/** What the check compares with, and whom its errors name. */
interface Check {
  readonly snapshot: Snapshot;
  readonly tools: readonly unknown[];
  readonly copies: ToolCopies;
  readonly last: FunctionEntry | undefined;
  /** Set for the full walk; in the quick walk a fault is only `false`. */
  blame?: Blame;
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

  error(state: string, fields?: object): PromptError {
    return failure("invalid-value", this.action, {}, state, {
      ...this.at,
      ...fields,
    });
  }

  fail(state: string, fields?: object): never {
    throw this.error(state, fields);
  }

  /** `<what> is <value>, not <expected>` */
  notA(what: string, value: unknown, expected: string, fields?: object): never {
    this.fail(`${what} is ${describeValue(value)}, not ${expected}`, fields);
  }
}

/**
 * The waterfall's result, checked before it is returned: the same field
 * table as registration, names unique per sequence, tools and variables.
 * Blames the last handler that changed the assembly's shape.
 *
 * Fast path: a walk that allocates nothing but the variables' names proves
 * the assembly valid: names are unique because they follow the step's own
 * order (which holds each once), schemas are checked because they are the
 * step's. When it cannot, the same walk in full throws the error, or finds
 * none (a handler added a tool, say).
 */
function checkAssembly(assembly: PromptAssembly, by: Check): void {
  try {
    if (walk(assembly, by)) return;
  } catch {
    // The full walk says what threw.
  }
  const blame = by.blame = new Blame(by.last);
  try {
    walk(assembly, by);
  } catch (error) {
    if (isPromptError(error)) throw error;
    blame.fail(`reading it threw: ${messageOf(error)}`, { cause: error });
  }
}

// No closure in the walk: a captured loop variable allocates per iteration.
function walk(assembly: PromptAssembly, by: Check): boolean {
  const { blame, tools: built } = by;
  if (!sequence(assembly.sections, "section", by)) return false;
  const contexts = assembly.contexts;
  if (contexts !== undefined && !sequence(contexts, "context", by)) {
    return false;
  }
  const separator: unknown = assembly.separator;
  if (separator !== undefined && typeof separator !== "string") {
    return blame?.notA("its separator", separator, "a string") ?? false;
  }
  const names = blame && new Set<string>();
  const tools = assembly.tools;
  for (let i = 0, next = 0; i < tools.length; i++, next += 2) {
    const tool: unknown = tools[i];
    if (tools[i] !== tool) {
      return blame?.fail(`item ${i} of tools changed while it was checked`) ??
        false;
    }
    const { name, description, parameters } = (tool ?? {}) as ToolSchema;
    if (names === undefined) {
      // The step's own tool, in its order, with its checked schema.
      while (next < built.length && built[next] !== name) next += 2;
      if (
        next === built.length || built[next + 1] !== parameters ||
        typeof tool !== "object" || typeof description !== "string"
      ) return false;
      continue;
    }
    if (
      typeof tool !== "object" || tool === null || typeof name !== "string" ||
      name === "" || name === TOOL_ORDER_REST
    ) blame!.fail(`item ${i} of tools is not a tool with a non-empty name`);
    if (typeof description !== "string") {
      const state = `has ${describeValue(description)} as description`;
      blame!.fail(`tool "${name}" ${state}, not a string`, { tool: name });
    }
    checkTool(name, parameters, { by, names });
  }
  const variables = assembly.variables;
  const keys = Object.keys(variables);
  for (let i = 0; i < keys.length; i++) {
    const value: unknown = variables[keys[i]!];
    if (value !== undefined && typeof value !== "string") {
      const what = `variable "${keys[i]}"`;
      return blame?.notA(what, value, "a string or undefined", {
        variable: keys[i],
      }) ?? false;
    }
  }
  return true;
}

/** A tool in the full walk: a schema of JSON data, a name of its own. */
function checkTool(
  name: string,
  parameters: unknown,
  place: { by: Check; names: Set<string> },
): void {
  const blame = place.by.blame!;
  // A schema the registry did not copy must be JSON data too.
  place.by.copies.checkSchema(
    parameters,
    (state) =>
      blame.error(`the parameters of tool "${name}" ${state}`, { tool: name }),
  );
  if (place.names.has(name)) {
    throw failure(
      "duplicate-tool",
      blame.action,
      {},
      `tool "${name}" appears twice`,
      { ...blame.at, tool: name },
    );
  }
  place.names.add(name);
}

function sequence(
  parts: unknown,
  kind: "section" | "context",
  by: Check,
): boolean {
  const { blame } = by;
  if (!Array.isArray(parts)) {
    if (blame === undefined) return false;
    const state = `its ${kind}s are ${describeValue(parts)}, not an array`;
    throw failure("invalid-value", `${blame.action} in`, {}, state, blame.at);
  }
  if (blame === undefined) {
    // Each name once: they follow the step's own sequence.
    const nodes = by.snapshot[kind === "section" ? "sections" : "contexts"];
    for (let i = 0, next = 0; i < parts.length; i++, next++) {
      const part = parts[i];
      if (!isValidAssembled(part, kind)) return false;
      const { name } = part as AssembledItem;
      while (next < nodes.length && nodes[next]!.entry.name !== name) next++;
      if (next === nodes.length) return false;
    }
    return true;
  }
  const action = `${blame.action} in`;
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
        const code = kind === "section"
          ? "duplicate-section"
          : "duplicate-context";
        const state = "another part of the sequence has this name";
        throw failure(code, action, where, state);
      }
      checkItemNames(part!, { where, action });
    }
    names.add(name);
  }
  return true;
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
