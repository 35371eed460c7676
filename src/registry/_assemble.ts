/**
 * One `assemble()`: the snapshot's foreseeable rejections, the abort
 * signal, resolution, the `system-prompt/assemble` waterfall (with its
 * audit), the check of what the handlers left, and a complete section.
 *
 * @module
 */

import { checkPart } from "../core/_fields.ts";
import {
  describeValue,
  failure,
  messageOf,
  PromptError,
  type Where,
} from "../core/errors.ts";
import type {
  AssembledItem,
  AuditEntry,
  PromptAssembly,
  ProviderOptions,
} from "../core/types.ts";
import { aborted, isPromptError, isThenable, raceAbort, settle } from "./_guard.ts";
import { build, start, toolRecords } from "./_resolve.ts";
import type { Snapshot } from "./_snapshot.ts";
import type { FunctionEntry } from "./_store.ts";
import { TOOL_ORDER_REST, type ToolCopies, type ToolOrder } from "./_tools.ts";

/** What the registry lends one assembly. */
export interface AssembleState {
  readonly copies: ToolCopies;
  readonly order: ToolOrder;
  readonly separator: string | undefined;
  readonly audit: boolean;
  readonly signal: AbortSignal | undefined;
}

const NO_SIGNAL: ProviderOptions = Object.freeze({ signal: undefined });

/** Assembles one step; every failure is a rejection, never a throw. */
export function assemble<C>(
  snapshot: Snapshot,
  context: C,
  state: AssembleState,
): Promise<PromptAssembly> {
  try {
    if (snapshot.problem !== undefined) throw snapshot.problem;
    const { signal } = state;
    if (signal?.aborted) throw aborted(signal);
    const options = signal === undefined ? NO_SIGNAL : { signal };
    const started = start(snapshot, context, options);
    // Fast path: every provider answered synchronously.
    if (started.pending === undefined) {
      const assembly = finish(snapshot, started.values, context, state);
      if (!isThenable(assembly)) return Promise.resolve(assembly);
      // An async handler runs: the signal can still abort the step.
      const handled = assembly as Promise<PromptAssembly>;
      return signal === undefined ? handled : raceAbort(handled, signal);
    }
    const work = settle(started.values, started.pending, undefined).then(() =>
      finish(snapshot, started.values, context, state)
    );
    return signal === undefined ? work : raceAbort(work, signal);
  } catch (error) {
    return Promise.reject(error);
  }
}

function finish<C>(
  snapshot: Snapshot,
  values: unknown[],
  context: C,
  state: AssembleState,
): PromptAssembly | Promise<PromptAssembly> {
  const records = toolRecords(snapshot, values, state.copies, state.order);
  const assembly = build(snapshot, values, {
    records,
    separator: state.separator,
  });
  const handlers = snapshot.handlers;
  const complete = snapshot.complete === undefined ? undefined : build(
    {
      ...snapshot,
      sections: [snapshot.complete],
      contexts: [],
      tools: [],
      variables: [],
    },
    values,
    {
      records: [],
      separator: undefined,
    },
  ).sections[0];
  // Fast path: no handler to run, nothing to check again.
  if (handlers.length === 0 && !state.audit) {
    if (complete !== undefined) assembly.sections = [complete];
    return assembly;
  }
  const log: AuditEntry[] | undefined = state.audit ? [] : undefined;
  const done = (result: PromptAssembly, last: FunctionEntry | undefined) => {
    checkAssembly(result, last);
    if (complete !== undefined) result.sections = [complete];
    if (log !== undefined) result.audit = log;
    return result;
  };
  return waterfall(handlers, assembly, context, log, done);
}

/** Runs the handlers in order; synchronous ones never await. */
function waterfall<C>(
  handlers: readonly FunctionEntry[],
  first: PromptAssembly,
  context: C,
  log: AuditEntry[] | undefined,
  done: (
    assembly: PromptAssembly,
    last: FunctionEntry | undefined,
  ) => PromptAssembly,
): PromptAssembly | Promise<PromptAssembly> {
  let assembly = first;
  for (let i = 0; i < handlers.length; i++) {
    const entry = handlers[i]!;
    const before = log === undefined ? undefined : fingerprint(assembly);
    let result: unknown;
    try {
      const handler = entry.fn;
      result = handler(assembly, context);
    } catch (cause) {
      throw handlerFailed(entry, cause);
    }
    if (isThenable(result)) {
      return continueAsync(
        handlers,
        i,
        { assembly, result, before },
        context,
        log,
        done,
      );
    }
    assembly = accept(entry, assembly, result);
    if (before !== undefined) audit(before, assembly, entry, log!);
  }
  return done(assembly, handlers[handlers.length - 1]);
}

async function continueAsync<C>(
  handlers: readonly FunctionEntry[],
  index: number,
  pending: {
    assembly: PromptAssembly;
    result: PromiseLike<unknown>;
    before: Map<string, string> | undefined;
  },
  context: C,
  log: AuditEntry[] | undefined,
  done: (
    assembly: PromptAssembly,
    last: FunctionEntry | undefined,
  ) => PromptAssembly,
): Promise<PromptAssembly> {
  let { assembly, result, before } = pending;
  for (let i = index; i < handlers.length; i++) {
    const entry = handlers[i]!;
    if (i > index) {
      before = log === undefined ? undefined : fingerprint(assembly);
      try {
        const handler = entry.fn;
        result = handler(assembly, context) as PromiseLike<unknown>;
      } catch (cause) {
        throw handlerFailed(entry, cause);
      }
    }
    let value: unknown;
    try {
      value = isThenable(result) ? await result : result;
    } catch (cause) {
      throw handlerFailed(entry, cause);
    }
    assembly = accept(entry, assembly, value);
    if (before !== undefined) audit(before, assembly, entry, log!);
  }
  return done(assembly, handlers[handlers.length - 1]);
}

function handlerWhere(entry: FunctionEntry): Where {
  return {
    handler: entry.name,
    owner: entry.owner,
    ...(entry.layer ? { layer: entry.layer } : {}),
  };
}

const FROZEN_WRITE =
  /read[- ]only|not extensible|non-configurable|non-writable|frozen|Cannot (?:add|assign|delete|define)/i;

function handlerFailed(entry: FunctionEntry, cause: unknown): Error {
  let hint = "";
  try {
    if (cause instanceof TypeError && FROZEN_WRITE.test(cause.message)) {
      hint =
        "; tool parameters are frozen: give the tool an edited copy of its parameters instead of editing them in place";
    }
  } catch {
    // A cause whose `message` throws gets no hint.
  }
  return failure(
    "handler-failed",
    "run",
    handlerWhere(entry),
    `it threw: ${messageOf(cause)}${hint}`,
    { cause },
  );
}

function accept(
  entry: FunctionEntry,
  assembly: PromptAssembly,
  result: unknown,
): PromptAssembly {
  if (result === undefined) return assembly;
  let ok = false;
  try {
    ok = typeof result === "object" && result !== null &&
      Array.isArray((result as PromptAssembly).sections) &&
      Array.isArray((result as PromptAssembly).tools) &&
      typeof (result as PromptAssembly).variables === "object" &&
      (result as PromptAssembly).variables !== null;
  } catch (cause) {
    throw failure(
      "invalid-value",
      "run",
      handlerWhere(entry),
      `reading the assembly it returned threw: ${messageOf(cause)}`,
      { cause },
    );
  }
  if (!ok) {
    throw failure(
      "invalid-value",
      "run",
      handlerWhere(entry),
      `it returned ${
        describeValue(result)
      }, not an assembly (return undefined to keep the one it got)`,
    );
  }
  return result as PromptAssembly;
}

/**
 * The waterfall's result, checked before it is returned: the same field
 * table as registration, names unique per sequence, tools and variables.
 * Blames the last handler that ran.
 */
function checkAssembly(
  assembly: PromptAssembly,
  last: FunctionEntry | undefined,
): void {
  const at: Where = last === undefined ? {} : handlerWhere(last);
  const action = "return the assembly after";
  const fail = (state: string, fields?: object) =>
    failure(
      "invalid-value",
      last === undefined ? "assemble prompt" : action,
      at,
      state,
      fields,
    );
  try {
    checkSequence(assembly.sections, "section", at);
    const contexts = assembly.contexts;
    if (contexts !== undefined) {
      if (!Array.isArray(contexts)) {
        throw fail(`contexts is ${describeValue(contexts)}, not an array`);
      }
      checkSequence(contexts, "context", at);
    }
    if (
      assembly.separator !== undefined && typeof assembly.separator !== "string"
    ) {
      throw fail(
        `its separator is ${describeValue(assembly.separator)}, not a string`,
      );
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
      if (typeof parameters !== "object" || parameters === null) {
        throw fail(
          `tool "${name}" has ${
            describeValue(parameters)
          } as parameters, not an object`,
          { tool: name },
        );
      }
      if (names.has(name)) {
        throw failure(
          "duplicate-tool",
          action,
          at,
          `tool "${name}" appears twice`,
          { tool: name },
        );
      }
      names.add(name);
    }
    const variables = assembly.variables;
    for (const name of Object.keys(variables)) {
      const value = variables[name];
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
  parts: readonly unknown[],
  kind: "section" | "context",
  at: Where,
): void {
  const names = new Set<string>();
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as AssembledItem | null;
    const name =
      typeof part === "object" && part !== null && typeof part.name === "string"
        ? part.name
        : `#${i}`;
    const where = { ...at, [kind]: name } as Where;
    checkPart(part, {
      kind,
      mode: "assembled",
      action: "return the assembly after",
      where,
    });
    if (names.has(name)) {
      throw failure(
        kind === "section" ? "duplicate-section" : "duplicate-context",
        "return the assembly after",
        where,
        "two parts of the sequence have this name",
      );
    }
    names.add(name);
    checkItemNames(part!, where);
  }
}

function checkItemNames(part: AssembledItem, where: Where): void {
  if (part.items === undefined) return;
  const names = new Set<string>();
  for (const item of part.items) {
    if (names.has(item.name)) {
      throw failure("duplicate-item", "return the assembly after", {
        ...where,
        item: item.name,
      }, "two items of the list have this name");
    }
    names.add(item.name);
    checkItemNames(item, where);
  }
}

/** What the audit compares: one string per part, tool, variable and layout field. */
function fingerprint(assembly: PromptAssembly): Map<string, string> {
  const found = new Map<string, string>();
  try {
    const parts = (
      kind: string,
      list: readonly AssembledItem[] | undefined,
      path: string,
    ) => {
      for (const part of list ?? []) {
        const {
          name,
          items,
          owner: _owner,
          layer: _layer,
          shadows: _shadows,
          ...fields
        } = part;
        const key = JSON.stringify([path === "" ? kind : "item", path, name]);
        found.set(key, JSON.stringify(fields));
        if (Array.isArray(items)) {
          parts("item", items, path === "" ? name : `${path}/${name}`);
        }
      }
    };
    parts("section", assembly.sections, "");
    parts("context", assembly.contexts, "");
    for (const tool of assembly.tools) {
      let schema: string;
      try {
        schema = JSON.stringify(tool.parameters);
      } catch {
        schema = "?";
      }
      found.set(
        JSON.stringify(["tool", "", tool.name]),
        `${tool.description}\0${schema}`,
      );
    }
    for (const name of Object.keys(assembly.variables)) {
      found.set(
        JSON.stringify(["variable", "", name]),
        JSON.stringify([assembly.variables[name]]),
      );
    }
    if (assembly.separator !== undefined) {
      found.set(
        JSON.stringify(["layout", "", "separator"]),
        JSON.stringify(assembly.separator),
      );
    }
  } catch {
    // An unreadable assembly is the check's to report.
  }
  return found;
}

const KINDS: readonly AuditEntry["kind"][] = [
  "section",
  "context",
  "item",
  "tool",
  "variable",
  "layout",
];

function audit(
  before: Map<string, string>,
  assembly: PromptAssembly,
  entry: FunctionEntry,
  log: AuditEntry[],
): void {
  const after = fingerprint(assembly);
  const found: AuditEntry[] = [];
  const record = (key: string, change: AuditEntry["change"]) => {
    const [kind, list, name] = JSON.parse(key) as [
      AuditEntry["kind"],
      string,
      string,
    ];
    const entry_: AuditEntry = { handler: entry.name, kind, name, change };
    if (entry.owner !== undefined) entry_.owner = entry.owner;
    if (kind === "item") entry_.list = list;
    found.push(entry_);
  };
  for (const [key, value] of after) {
    if (!before.has(key)) record(key, "added");
    else if (before.get(key) !== value) record(key, "changed");
  }
  for (const key of before.keys()) if (!after.has(key)) record(key, "removed");
  // Grouped by kind, as a reader scans them; stable within a kind.
  found.sort((a, b) => KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind));
  log.push(...found);
}
