/**
 * The `system-prompt/assemble` waterfall: handlers in registration order,
 * synchronous ones without a promise, each result accepted or rejected,
 * and the opt-in audit of what each handler changed.
 *
 * @module
 */

import {
  describeValue,
  failure,
  messageOf,
  type Where,
} from "../core/errors.ts";
import type {
  AssembledItem,
  AuditEntry,
  PromptAssembly,
} from "../core/types.ts";
import { aborted, isThenable } from "./_guard.ts";
import type { FunctionEntry } from "./_store.ts";

/**
 * Runs the handlers on the assembly; the sync prefix never awaits, and a
 * handler's promise continues the same loop from the next handler.
 */
export function waterfall<C>(
  handlers: readonly FunctionEntry[],
  first: PromptAssembly,
  context: C,
  run: {
    log: AuditEntry[] | undefined;
    signal: AbortSignal | undefined;
    /** Set to the last handler that changed the assembly's shape. */
    blame?: FunctionEntry;
  },
): PromptAssembly | Promise<PromptAssembly> {
  // With one handler the blame is clear without a shape.
  const shape = handlers.length > 1 ? new Shape() : undefined;
  return loop({ handlers, context, run, shape }, 0, first);
}

interface Loop<C> {
  readonly handlers: readonly FunctionEntry[];
  readonly context: C;
  readonly run: Parameters<typeof waterfall>[3];
  readonly shape: Shape | undefined;
}

/** The handlers from `from` on; a handler's promise continues the loop. */
function loop<C>(
  state: Loop<C>,
  from: number,
  current: PromptAssembly,
): PromptAssembly | Promise<PromptAssembly> {
  const { handlers, context, run, shape } = state;
  let assembly = current;
  for (let i = from; i < handlers.length; i++) {
    // An abandoned step runs no further handler.
    if (run.signal?.aborted) throw aborted(run.signal);
    const entry = handlers[i]!;
    const before = run.log === undefined ? undefined : fingerprint(assembly);
    shape?.take(assembly);
    let result: unknown;
    try {
      const handler = entry.fn; // called through a local: `this` is undefined
      result = handler(assembly, context);
    } catch (cause) {
      throw handlerFailed(entry, cause);
    }
    if (isThenable(result)) {
      const got = assembly;
      return Promise.resolve(result).then(
        (value) =>
          loop(state, i + 1, settle(state, { entry, got, value, before })),
        (cause) => {
          throw handlerFailed(entry, cause);
        },
      );
    }
    assembly = settle(state, { entry, got: assembly, value: result, before });
  }
  return assembly;
}

function settle<C>(
  state: Loop<C>,
  step: {
    entry: FunctionEntry;
    got: PromptAssembly;
    value: unknown;
    before: Map<string, string> | undefined;
  },
): PromptAssembly {
  const { entry, before } = step;
  const accepted = accept(entry, step.got, step.value);
  if (before !== undefined) audit(before, accepted, entry, state.run.log!);
  if (state.shape !== undefined && !state.shape.same(accepted)) {
    state.run.blame = entry;
  }
  return accepted;
}

/**
 * What a handler can change without a deep walk: the objects, arrays and
 * lengths at the top of the assembly, kept in fields (no allocation per
 * handler). Edits inside a section go unseen, so the blame then falls on
 * the last handler that changed the shape.
 */
class Shape {
  #assembly: unknown;
  #sections: unknown;
  #sectionCount: unknown;
  #tools: unknown;
  #toolCount: unknown;
  #variables: unknown;
  #contexts: unknown;
  #contextCount: unknown;
  #separator: unknown;

  take(assembly: PromptAssembly): void {
    this.#assembly = assembly;
    try {
      this.#sections = assembly.sections;
      this.#sectionCount = assembly.sections?.length;
      this.#tools = assembly.tools;
      this.#toolCount = assembly.tools?.length;
      this.#variables = assembly.variables;
      this.#contexts = assembly.contexts;
      this.#contextCount = assembly.contexts?.length;
      this.#separator = assembly.separator;
    } catch {
      // Unreadable: the check after the handlers reports it.
    }
  }

  same(assembly: PromptAssembly): boolean {
    try {
      return this.#assembly === assembly &&
        this.#sections === assembly.sections &&
        this.#sectionCount === assembly.sections?.length &&
        this.#tools === assembly.tools &&
        this.#toolCount === assembly.tools?.length &&
        this.#variables === assembly.variables &&
        this.#contexts === assembly.contexts &&
        this.#contextCount === assembly.contexts?.length &&
        this.#separator === assembly.separator;
    } catch {
      return false;
    }
  }
}

/** Where a handler's errors point. */
export function handlerWhere(entry: FunctionEntry): Where {
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
    const logged: AuditEntry = { handler: entry.name, kind, name, change };
    if (entry.owner !== undefined) logged.owner = entry.owner;
    if (kind === "item") logged.list = list;
    found.push(logged);
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
