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
  type Where,
} from "../core/errors.ts";
import { TOOL_ORDER_REST } from "../core/tools.ts";
import type {
  AssembledItem,
  AssembledSection,
  AuditEntry,
  PromptAssembly,
} from "../core/types.ts";
import { isPromptError, isThenable } from "./_guard.ts";
import { part, readProvided } from "./_parts.ts";
import { build, resolveStep, toolRecords } from "./_resolve.ts";
import type { Snapshot } from "./_snapshot.ts";
import type { FunctionEntry } from "./_store.ts";
import type { ToolCopies, ToolOrder } from "./_tools.ts";
import { handlerWhere, waterfall } from "./_waterfall.ts";

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
    (values) => finish(snapshot, values, context, state),
  );
}

function finish<C>(
  snapshot: Snapshot,
  values: unknown[],
  context: C,
  state: AssembleState,
): PromptAssembly | Promise<PromptAssembly> {
  readProvided(snapshot, values);
  const records = toolRecords(snapshot, values, state.copies, state.order);
  const assembly = build(snapshot, values, {
    records,
    separator: state.separator,
  });
  const handlers = snapshot.handlers;
  const node = snapshot.complete;
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
  const log: AuditEntry[] | undefined = state.audit ? [] : undefined;
  const run: Parameters<typeof waterfall>[3] = { log, signal: state.signal };
  const done = (result: PromptAssembly) => {
    checkAssembly(result, {
      last: run.blame ?? handlers[handlers.length - 1],
      copies: state.copies,
    });
    if (complete === undefined && log === undefined) return result;
    // Never written into: the object a handler returned may be shared.
    const final = { ...result };
    if (complete !== undefined) final.sections = [complete];
    if (log !== undefined) final.audit = log;
    return final;
  };
  const result = waterfall(handlers, assembly, context, run);
  return isThenable(result) ? result.then(done) : done(result);
}

/**
 * The waterfall's result, checked before it is returned: the same field
 * table as registration, names unique per sequence, tools and variables.
 * Blames the last handler that changed the assembly's shape.
 */
function checkAssembly(
  assembly: PromptAssembly,
  by: { last: FunctionEntry | undefined; copies: ToolCopies },
): void {
  const { last } = by;
  const at: Where = last === undefined ? {} : handlerWhere(last);
  const action = last === undefined
    ? "accept the assembly"
    : `accept what ${describeWhere(at)} left`;
  const fail = (state: string, fields?: object) =>
    failure("invalid-value", action, {}, state, { ...at, ...fields });
  try {
    checkSequence(assembly.sections, "section", { at, action: `${action} in` });
    if (assembly.contexts !== undefined) {
      checkSequence(assembly.contexts, "context", {
        at,
        action: `${action} in`,
      });
    }
    const separator: unknown = assembly.separator;
    if (separator !== undefined && typeof separator !== "string") {
      throw fail(`its separator is ${describeValue(separator)}, not a string`);
    }
    const names = new Set<string>();
    const tools = assembly.tools;
    for (let i = 0; i < tools.length; i++) {
      const tool: unknown = tools[i];
      if (tools[i] !== tool) {
        throw fail(`item ${i} of tools changed while it was checked`);
      }
      const { name, description, parameters } = (tool ?? {}) as Record<
        string,
        unknown
      >;
      if (
        typeof tool !== "object" || tool === null || typeof name !== "string" ||
        name === "" || name === TOOL_ORDER_REST
      ) {
        throw fail(`item ${i} of tools is not a tool with a non-empty name`);
      }
      if (typeof description !== "string") {
        throw fail(
          `tool "${name}" has ${
            describeValue(description)
          } as description, not a string`,
          { tool: name },
        );
      }
      // A schema the registry did not copy must be JSON data too.
      by.copies.checkSchema(
        parameters,
        (state) =>
          fail(`the parameters of tool "${name}" ${state}`, { tool: name }),
      );
      if (names.has(name)) {
        throw failure(
          "duplicate-tool",
          action,
          {},
          `tool "${name}" appears twice`,
          {
            ...at,
            tool: name,
          },
        );
      }
      names.add(name);
    }
    const variables = assembly.variables;
    for (const name of Object.keys(variables)) {
      const value: unknown = variables[name];
      if (value !== undefined && typeof value !== "string") {
        throw fail(
          `variable "${name}" is ${
            describeValue(value)
          }, not a string or undefined`,
          { variable: name },
        );
      }
    }
  } catch (error) {
    if (isPromptError(error)) throw error;
    throw fail(`reading it threw: ${messageOf(error)}`, { cause: error });
  }
}

function checkSequence(
  parts: unknown,
  kind: "section" | "context",
  place: { at: Where; action: string },
): void {
  if (!Array.isArray(parts)) {
    throw failure(
      "invalid-value",
      place.action,
      {},
      `its ${kind}s are ${describeValue(parts)}, not an array`,
      place.at,
    );
  }
  // Fast path: every part keeps the rules, names are unique.
  if (allValid(parts, kind)) return;
  const names = new Set<string>();
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as AssembledItem | null;
    const name = typeof part === "object" && part !== null &&
        typeof part.name === "string"
      ? part.name
      : `#${i}`;
    const where = { ...place.at, [kind]: name } as Where;
    checkPart(part, { kind, mode: "assembled", action: place.action, where });
    if (names.has(name)) {
      throw failure(
        kind === "section" ? "duplicate-section" : "duplicate-context",
        place.action,
        where,
        "another part of the sequence has this name",
      );
    }
    names.add(name);
    checkItemNames(part!, { where, action: place.action });
  }
}

function allValid(
  parts: readonly unknown[],
  kind: "section" | "context",
): boolean {
  const names = new Set<string>();
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (!isValidAssembled(part, kind)) return false;
    const name = (part as AssembledItem).name;
    if (names.has(name)) return false;
    names.add(name);
  }
  return true;
}

function checkItemNames(
  part: AssembledItem,
  place: { where: Where; action: string },
): void {
  if (part.items === undefined) return;
  const names = new Set<string>();
  for (const item of part.items) {
    if (names.has(item.name)) {
      throw failure(
        "duplicate-item",
        place.action,
        { ...place.where, item: item.name },
        "another item of the list has this name",
      );
    }
    names.add(item.name);
    checkItemNames(item, place);
  }
}
