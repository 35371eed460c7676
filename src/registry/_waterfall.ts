/**
 * The `system-prompt/assemble` waterfall: handlers in registration order,
 * synchronous ones without a promise, each result accepted or rejected,
 * and the opt-in audit of what each handler changed.
 *
 * Covered by tests/waterfall_result_test.ts,
 * tests/waterfall_flaky_read_test.ts and tests/audit_test.ts.
 *
 * @module
 */

import { describeValue, messageOf } from "../core/_describe.ts";
import { failure } from "../core/_messages.ts";
import type { AuditEntry, PromptAssembly } from "../core/types.ts";
import { isThenable, tryRead } from "../core/_guards.ts";
import { aborted } from "./_resolve.ts";
import { type FunctionEntry, handlerWhere } from "./_store.ts";

type Result = PromptAssembly | Promise<PromptAssembly>;

/** In place of a handler's result: the handler is still to be called. */
const CALL = Symbol("call");

/**
 * One step's waterfall: {@linkcode Waterfall.run} runs the handlers on the
 * assembly, the sync prefix without a promise; a handler's promise
 * continues the same loop with what it gave.
 *
 * Between handlers it keeps the assembly's shape: the objects, arrays and
 * lengths at its top, what a handler can change without a deep walk, read
 * once per handler into fields (no allocation: an array of them costs
 * several times more per handler). Edits inside a section go unseen, so
 * the blame then falls on the last handler that changed the shape.
 */
export class Waterfall<C> {
  /**
   * The handler a faulty result names: the last one that changed the
   * assembly's shape, else the last one.
   */
  blame: FunctionEntry | undefined;
  /** What each handler changed, when the audit is on. */
  readonly log: AuditEntry[] | undefined;
  /** The running handler: one loop runs at a time, and a promise moves it on. */
  #current = 0;
  /** The audit's fingerprint from before the running handler. */
  #before: Map<string, string> | undefined;
  #assembly: unknown;
  #sections: unknown;
  #sectionCount: unknown;
  #tools: unknown;
  #toolCount: unknown;
  #variables: unknown;
  #contexts: unknown;
  #contextCount: unknown;
  #separator: unknown;

  constructor(
    readonly handlers: readonly FunctionEntry[],
    readonly context: C,
    readonly options: { signal: AbortSignal | undefined; audit: boolean },
  ) {
    this.log = options.audit ? [] : undefined;
    this.blame = handlers[handlers.length - 1];
  }

  run(first: PromptAssembly): Result {
    if (this.handlers.length > 1) this.#changed(first);
    return this.#loop(first, CALL);
  }

  /** The handlers from the running one on; `got` is what its promise gave. */
  #loop(first: PromptAssembly, got: unknown): Result {
    const { handlers, context, log, options: { signal } } = this;
    // With one handler the blame is clear without a shape.
    const shaped = handlers.length > 1;
    let assembly = first;
    let value = got;
    for (let i = this.#current; i < handlers.length; i++, value = CALL) {
      const entry = handlers[i]!;
      if (value === CALL) {
        // An abandoned step runs no further handler.
        if (signal?.aborted) throw aborted(signal);
        this.#current = i;
        this.#before = log && fingerprint(assembly);
        try {
          const handler = entry.fn; // called through a local: `this` is undefined
          value = handler(assembly, context);
        } catch (cause) {
          throw handlerFailed(entry, cause);
        }
        if (value !== undefined && thenable(entry, value)) {
          return this.#resume(assembly, value);
        }
      }
      if (value !== undefined) assembly = accept(entry, value);
      if (this.#before !== undefined) this.#audit(assembly, entry);
      if (shaped && this.#changed(assembly)) this.blame = entry;
    }
    return assembly;
  }

  // Apart from the loop: a closure there would allocate its variables per
  // handler, promise or not.
  #resume(got: PromptAssembly, value: unknown): Promise<PromptAssembly> {
    return Promise.resolve(value).then(
      (value) => this.#loop(got, value),
      (cause) => {
        throw handlerFailed(this.handlers[this.#current]!, cause);
      },
    );
  }

  /** Whether the shape differs from the last one seen; remembers this one. */
  #changed(assembly: PromptAssembly): boolean {
    try {
      const { sections, tools, variables, contexts, separator } = assembly;
      const sectionCount = sections?.length;
      const toolCount = tools?.length;
      const contextCount = contexts?.length;
      if (
        this.#assembly === assembly && this.#sections === sections &&
        this.#sectionCount === sectionCount && this.#tools === tools &&
        this.#toolCount === toolCount && this.#variables === variables &&
        this.#contexts === contexts && this.#contextCount === contextCount &&
        this.#separator === separator
      ) return false;
      this.#assembly = assembly;
      this.#sections = sections;
      this.#sectionCount = sectionCount;
      this.#tools = tools;
      this.#toolCount = toolCount;
      this.#variables = variables;
      this.#contexts = contexts;
      this.#contextCount = contextCount;
      this.#separator = separator;
    } catch {
      // Unreadable: the check after the handlers reports it.
    }
    return true;
  }

  /** Logs what the running handler changed, grouped by kind as a reader scans them. */
  #audit(assembly: PromptAssembly, entry: FunctionEntry): void {
    const before = this.#before!;
    const after = fingerprint(assembly);
    const found: AuditEntry[] = [];
    const note = (key: string, change: AuditEntry["change"]) => {
      const [kind, list, name] = JSON.parse(key);
      const logged: AuditEntry = { handler: entry.name, kind, name, change };
      if (entry.owner !== undefined) logged.owner = entry.owner;
      if (kind === "item") logged.list = list;
      found.push(logged);
    };
    for (const [key, value] of after) {
      const was = before.get(key);
      if (was !== value) note(key, was === undefined ? "added" : "changed");
    }
    for (const key of before.keys()) if (!after.has(key)) note(key, "removed");
    // Stable within a kind.
    found.sort((a, b) => KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind));
    this.log!.push(...found);
  }
}

const FROZEN_WRITE =
  /read[- ]only|not extensible|non-configurable|non-writable|frozen|Cannot (?:add|assign|delete|define)/i;
const FROZEN_HINT =
  "; tool parameters are frozen: give the tool an edited copy of its parameters instead of editing them in place";

function handlerFailed(entry: FunctionEntry, cause: unknown): Error {
  // A cause whose `message` throws gets no hint.
  const frozen = tryRead(() =>
    cause instanceof TypeError && FROZEN_WRITE.test(cause.message)
  );
  const state = `it threw: ${messageOf(cause)}${frozen ? FROZEN_HINT : ""}`;
  return fault(entry, { code: "handler-failed", problem: state, cause });
}

/** A handler's failure: running it, `where` the handler and its owner. */
function fault(
  entry: FunctionEntry,
  how: {
    code: "handler-failed" | "invalid-value";
    problem: string;
    cause?: unknown;
  },
): Error {
  const { code, problem } = how;
  const where = handlerWhere(entry);
  // A thrown `undefined` is a cause too.
  const cause = "cause" in how ? { cause: how.cause } : {};
  return failure({ code, action: "run", where, problem, ...cause });
}

/**
 * Whether a handler's result is a promise: a revoked proxy or a throwing
 * `then` getter fails as its promise would (`handler-failed`), not raw.
 */
function thenable(entry: FunctionEntry, value: unknown): boolean {
  try {
    return isThenable(value);
  } catch (cause) {
    throw fault(entry, {
      code: "handler-failed",
      problem: `reading what it returned threw: ${messageOf(cause)}`,
      cause,
    });
  }
}

/** What a handler returned (not `undefined`), when it is an assembly. */
function accept(entry: FunctionEntry, result: unknown): PromptAssembly {
  const assembly = result as PromptAssembly;
  try {
    if (
      typeof result === "object" && result !== null &&
      Array.isArray(assembly.sections) && Array.isArray(assembly.tools) &&
      typeof assembly.variables === "object" && assembly.variables !== null
    ) return assembly;
  } catch (cause) {
    throw fault(entry, {
      code: "invalid-value",
      problem: `reading the assembly it returned threw: ${messageOf(cause)}`,
      cause,
    });
  }
  throw fault(entry, {
    code: "invalid-value",
    problem: `it returned ${describeValue(result)}, not an assembly ` +
      "(return undefined to keep the one it got)",
  });
}

/** What the audit compares: one string per part, tool, variable and layout field. */
function fingerprint(assembly: PromptAssembly): Map<string, string> {
  const found = new Map<string, string>();
  const add = (at: [kind: string, list: string, name: string], value: string) =>
    found.set(JSON.stringify(at), value);
  const parts = (list: PromptAssembly["contexts"], at: string[]) => {
    for (const part of list ?? []) {
      const { name, items, owner: _o, layer: _l, shadows: _s, ...fields } =
        part;
      add([at[0]!, at[1]!, name], JSON.stringify(fields));
      const path = at[1] === "" ? name : `${at[1]}/${name}`;
      if (Array.isArray(items)) parts(items, ["item", path]);
    }
  };
  try {
    parts(assembly.sections, ["section", ""]);
    parts(assembly.contexts, ["context", ""]);
    for (const tool of assembly.tools) {
      // An unreadable schema shows as "?".
      const schema = tryRead(() => String(JSON.stringify(tool.parameters)));
      add(["tool", "", tool.name], `${tool.description}\0${schema ?? "?"}`);
    }
    for (const name of Object.keys(assembly.variables)) {
      add(["variable", "", name], JSON.stringify([assembly.variables[name]]));
    }
    if (assembly.separator !== undefined) {
      add(["layout", "", "separator"], JSON.stringify(assembly.separator));
    }
  } catch {
    // An unreadable assembly is the check's to report.
  }
  return found;
}

const KINDS = ["section", "context", "item", "tool", "variable", "layout"];
