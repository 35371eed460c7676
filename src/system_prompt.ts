/**
 * `SystemPrompt`: the registry of sections, variables, tools and handlers,
 * its owner scopes, and `assemble()`.
 *
 * @module
 */

import { auditedHandlers, type HandlerLabel } from "./audit.ts";
import { diagnose, type PromptDiagnostic } from "./check.ts";
import { describeValue } from "./describe_value.ts";
import { isAssembly } from "./is_assembly.ts";
import { createDisposer, type Disposer } from "./disposer.ts";
import { describeOwner, messageOf, PromptError } from "./errors.ts";
import { isReferenceName } from "./reference_name.ts";
import { compareCodePoints } from "./compare_code_points.ts";
import type {
  AssembleContext,
  AssembleHandler,
  AuditEntry,
  ChangeListener,
  PromptAssembly,
  PromptChange,
  PromptEvents,
  PromptSection,
  ToolProvider,
  VariableProvider,
} from "./types.ts";
import { runWaterfall, type RunWaterfallOptions } from "./waterfall.ts";
import type { PromptRegistrar } from "./registrar.ts";
import {
  checkHandledTools,
  type HandlerEntry,
  type ListenerEntry,
  resolveSections,
  resolveTools,
  resolveVariables,
  type SectionEntry,
  type ToolEntry,
  type VariableEntry,
} from "./resolve_assembly.ts";
import { type PromptScope, Scope } from "./scope.ts";

/**
 * The arguments of `assemble()`: the context may be left out only when every
 * field of `C` is optional, since a left-out context is `{}`.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AssembleArgs } from "@dsh/system-prompt";
 *
 * const none: AssembleArgs<{ cwd?: string }> = [];
 * const one: AssembleArgs<{ cwd: string }> = [{ cwd: "/" }];
 * assert.equal(none.length + one.length, 1);
 * ```
 */
export type AssembleArgs<C> = Record<never, never> extends C
  ? [context?: C, options?: AssembleOptions]
  : [context: C, options?: AssembleOptions];

/**
 * Options of one `assemble()` call.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type AssembleOptions, SystemPrompt } from "@dsh/system-prompt";
 *
 * const options: AssembleOptions = { audit: true };
 * const assembly = await new SystemPrompt().assemble({}, options);
 * assert.deepEqual(assembly.audit, []);
 * ```
 */
export interface AssembleOptions {
  /**
   * Record in `assembly.audit` what each `system-prompt/assemble` handler
   * added, removed or changed. Costs a snapshot of the assembly per handler.
   * @default {false}
   */
  audit?: boolean;
}

/**
 * Options of {@linkcode SystemPrompt}.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { PromptError, SystemPrompt } from "@dsh/system-prompt";
 *
 * const errors: PromptError[] = [];
 * const prompt = new SystemPrompt({ onListenerError: (e) => void errors.push(e) });
 * prompt.on("system-prompt/change", () => {
 *   throw new Error("boom");
 * });
 * prompt.variable("x", () => "1");
 * assert.equal(errors[0]?.code, "listener-failed");
 * ```
 */
export interface SystemPromptOptions {
  /**
   * Receives the `listener-failed` error of a `system-prompt/change`
   * listener that threw; the registration it was told about stands. Must
   * not throw.
   * @default {(error) => console.error(error)}
   */
  onListenerError?: (error: PromptError) => void;
}

/** The assemble handlers and the hooks that name them in errors. */
interface Waterfall<C> {
  readonly handlers: readonly AssembleHandler<C>[];
  readonly labels: readonly HandlerLabel[];
  readonly options: RunWaterfallOptions<PromptAssembly>;
}

const EVENTS: readonly string[] = [
  "system-prompt/assemble",
  "system-prompt/change",
];

/**
 * The system-prompt registry. Plugins contribute ordered sections, tool
 * providers and `{{variables}}`; the agent loop calls `assemble(context)`
 * once per step and hands the result to `renderPrompt`.
 *
 * Live registrations are kept in snapshot arrays that are replaced, never
 * mutated, on every change: an assembly captures them in O(1), the section
 * sort runs once per change rather than once per step, and a registration or
 * disposal during an in-flight assembly only affects later ones.
 *
 * @typeParam C The context type. Defaults to the merge-extensible
 * `AssembleContext`; a JSR package, which cannot augment it, passes its own.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderPrompt, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt<{ model?: string }>();
 * const loop = prompt.scope("agent-loop");
 * loop.section({ name: "agent:persona", order: 0, text: "You are {{model}}." });
 * loop.variable("model", (context) => context.model);
 * prompt.scope("bash").section({ name: "tool:bash", order: 105, text: "Check exit codes." });
 *
 * const assembly = await prompt.assemble({ model: "m-1" });
 * assert.equal(renderPrompt(assembly), "You are m-1.\n\nCheck exit codes.");
 * ```
 */
export class SystemPrompt<C = AssembleContext> implements PromptRegistrar<C> {
  readonly #sections = new Map<string, SectionEntry<C>>();
  #sortedSections: readonly SectionEntry<C>[] | undefined = [];
  readonly #variables = new Map<string, VariableEntry<C>>();
  #variableList: readonly VariableEntry<C>[] | undefined = [];
  #toolProviders: readonly ToolEntry<C>[] = [];
  #handlers: readonly HandlerEntry<C>[] = [];
  #waterfall: Waterfall<C> = { handlers: [], labels: [], options: {} };
  #listeners: readonly ListenerEntry[] = [];
  readonly #onListenerError: (error: PromptError) => void;

  /**
   * Creates an empty registry.
   *
   * @param options How to report a failing change listener.
   */
  constructor(options: SystemPromptOptions = {}) {
    this.#onListenerError = options.onListenerError ??
      ((error) => console.error(error));
  }

  /**
   * Adds a section owned by the root registry. See
   * {@linkcode PromptRegistrar.section}.
   *
   * @param section `{ name, order, text }`.
   * @returns Its disposer.
   * @throws {PromptError} `invalid-section` or `duplicate-section`.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt();
   * prompt.section({ name: "b", order: 1, text: "second" });
   * prompt.section({ name: "a", order: 1, text: () => "first" });
   * const { sections } = await prompt.assemble();
   * assert.deepEqual(sections.map((s) => s.text), ["first", "second"]);
   * ```
   */
  section(section: PromptSection<C>): Disposer {
    return this.#addSection(section, undefined);
  }

  /**
   * Adds a variable owned by the root registry. See
   * {@linkcode PromptRegistrar.variable}.
   *
   * @param name A reference name.
   * @param provider Returns the value, or `undefined`.
   * @returns Its disposer.
   * @throws {PromptError} `invalid-variable-name` or `duplicate-variable`.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt();
   * const off = prompt.variable("git.branch", () => "main");
   * assert.equal((await prompt.assemble()).variables["git.branch"], "main");
   * off();
   * assert.deepEqual(Object.keys((await prompt.assemble()).variables), []);
   * ```
   */
  variable(name: string, provider: VariableProvider<C>): Disposer {
    return this.#addVariable(name, provider, undefined);
  }

  /**
   * Adds a tool provider owned by the root registry. See
   * {@linkcode PromptRegistrar.tools}.
   *
   * @param provider Returns this assembly's tools.
   * @returns Its disposer.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt();
   * prompt.tools(() => [{ name: "todo", description: "Track tasks.", parameters: {} }]);
   * assert.deepEqual((await prompt.assemble()).tools.map((t) => t.name), ["todo"]);
   * ```
   */
  tools(provider: ToolProvider<C>): Disposer {
    return this.#addTools(provider, undefined);
  }

  /**
   * Adds an event handler owned by the root registry. See
   * {@linkcode PromptRegistrar.on}.
   *
   * @typeParam E The event name.
   * @param event `system-prompt/assemble` or `system-prompt/change`.
   * @param handler The handler for that event.
   * @returns Its disposer.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt<{ readOnly?: boolean }>();
   * prompt.tools(() => [
   *   { name: "read", description: "Read a file.", parameters: {} },
   *   { name: "bash", description: "Run a command.", parameters: {} },
   * ]);
   * prompt.on("system-prompt/assemble", (assembly, context) => {
   *   if (context.readOnly) assembly.tools = assembly.tools.filter((t) => t.name === "read");
   * });
   * const { tools } = await prompt.assemble({ readOnly: true });
   * assert.deepEqual(tools.map((t) => t.name), ["read"]);
   * ```
   */
  on<E extends keyof PromptEvents<C>>(
    event: E,
    handler: PromptEvents<C>[E],
  ): Disposer {
    return this.#addHandler(event, handler, undefined);
  }

  /**
   * Opens a scope: a registrar whose registrations carry `owner` and are all
   * removed when the scope is disposed.
   *
   * @param owner The plugin's name, shown in errors and change events.
   * @returns The scope.
   * @throws {TypeError} If `owner` is not a non-empty string.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { PromptError, SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt();
   * prompt.scope("agent-loop").variable("model", () => "m-1");
   * assert.throws(() => prompt.scope("other").variable("model", () => "m-2"), {
   *   name: "PromptError",
   *   code: "duplicate-variable",
   *   owner: "agent-loop",
   * });
   * ```
   */
  scope(owner: string): PromptScope<C> {
    if (typeof owner !== "string" || owner === "") {
      throw new TypeError(
        `Cannot open scope: owner must be a non-empty string, got ${
          describeValue(owner)
        }`,
      );
    }
    return new Scope(owner, {
      section: (section) => this.#addSection(section, owner),
      variable: (name, provider) => this.#addVariable(name, provider, owner),
      tools: (provider) => this.#addTools(provider, owner),
      on: (event, handler) => this.#addHandler(event, handler, owner),
    });
  }

  /**
   * Assembles the prompt for one caller: resolves every live section,
   * variable and tool provider against `context`, then runs the
   * `system-prompt/assemble` waterfall. Every call returns fresh arrays and
   * objects; concurrent calls with different contexts do not interfere.
   *
   * @param args The context (`{}` when left out), then options.
   * @returns The assembly; section texts are resolved but not interpolated.
   * @throws {PromptError} (as a rejection) `provider-failed` or
   * `handler-failed` naming the section, variable, tool provider or handler
   * and its owner, with the original error as `cause`; `invalid-value` for
   * a value of the wrong kind; `duplicate-tool` for two tools with one name.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt<{ cwd?: string }>();
   * prompt.variable("cwd", (context) => context.cwd);
   * assert.equal((await prompt.assemble({ cwd: "/repo" })).variables.cwd, "/repo");
   * assert.equal((await prompt.assemble()).variables.cwd, undefined);
   * ```
   */
  assemble(...args: AssembleArgs<C>): Promise<PromptAssembly> {
    const context = (args[0] ?? {}) as C;
    const audit = args[1]?.audit === true;
    try {
      // Snapshot: these are replaced, never mutated, on change.
      const waterfall = this.#waterfall;
      const assembly: PromptAssembly = {
        sections: resolveSections(this.#sorted(), context),
        tools: resolveTools(this.#toolProviders, context),
        variables: resolveVariables(this.#variableEntries(), context),
      };
      if (audit) return this.#assembleAudited(waterfall, assembly, context);
      // Fast path: no handlers, nothing to run or check again.
      if (waterfall.handlers.length === 0) return Promise.resolve(assembly);
      const result = runWaterfall(
        waterfall.handlers,
        assembly,
        context,
        waterfall.options,
      );
      return isPromise(result)
        ? result.then(checkHandledTools)
        : Promise.resolve(checkHandledTools(result));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Diagnoses the prompt before the first step: assembles it for `context`
   * and reports references that would fail, variables no section uses, the
   * same sentence under two owners, and tool guidance outside its band.
   *
   * @param args The context (`{}` when left out), then assemble options.
   * @returns The diagnostics; empty when there is nothing to report.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt();
   * prompt.scope("agent-loop").variable("model", () => "m-1");
   * prompt.scope("agent-loop").section({ name: "agent:persona", order: 0, text: "I am {{modle}}." });
   * prompt.scope("bash").section({ name: "tool:bash", order: 5, text: "Check exit codes." });
   * const codes = (await prompt.check()).map((d) => `${d.code} ${d.owner}`);
   * assert.deepEqual(codes, [
   *   "unknown-variable agent-loop",
   *   "tool-guidance-band bash",
   *   "unused-variable agent-loop",
   * ]);
   * ```
   */
  async check(...args: AssembleArgs<C>): Promise<PromptDiagnostic[]> {
    let assembly: PromptAssembly;
    try {
      assembly = await this.assemble(...args);
    } catch (error) {
      const diagnostic: PromptDiagnostic = {
        code: "assemble-failed",
        severity: "error",
        message: messageOf(error),
      };
      if (error instanceof PromptError && error.owner !== undefined) {
        diagnostic.owner = error.owner;
      }
      return [diagnostic];
    }
    const owners = new Map(
      this.#variableEntries().map((entry) => [entry.name, entry.owner]),
    );
    return diagnose(assembly, owners);
  }

  async #assembleAudited(
    waterfall: Waterfall<C>,
    assembly: PromptAssembly,
    context: C,
  ): Promise<PromptAssembly> {
    const log: AuditEntry[] = [];
    const handlers = auditedHandlers(waterfall.handlers, waterfall.labels, log);
    const result = checkHandledTools(
      await runWaterfall(handlers, assembly, context, waterfall.options),
    );
    result.audit = log;
    return result;
  }

  #sorted(): readonly SectionEntry<C>[] {
    return this.#sortedSections ??= [...this.#sections.values()].sort(
      (a, b) => a.order - b.order || compareCodePoints(a.name, b.name),
    );
  }

  #variableEntries(): readonly VariableEntry<C>[] {
    return this.#variableList ??= [...this.#variables.values()];
  }

  #addSection(section: PromptSection<C>, owner: string | undefined): Disposer {
    validateSection(section, owner);
    const { name, order, text, stability } = section;
    const existing = this.#sections.get(name);
    if (existing !== undefined) {
      throw new PromptError(
        "duplicate-section",
        `Cannot add section "${name}": ${
          describeOwner(existing.owner)
        } already added it`,
        { section: name, owner: existing.owner },
      );
    }
    const entry: SectionEntry<C> = { name, order, text, owner, stability };
    this.#sections.set(name, entry);
    this.#sortedSections = undefined;
    this.#emit("section", "register", name, owner);
    return createDisposer(() => {
      this.#sections.delete(name);
      this.#sortedSections = undefined;
      this.#emit("section", "unregister", name, owner);
    });
  }

  #addVariable(
    name: string,
    provider: VariableProvider<C>,
    owner: string | undefined,
  ): Disposer {
    if (typeof name !== "string" || !isReferenceName(name)) {
      throw new PromptError(
        "invalid-variable-name",
        `Cannot add variable ${
          JSON.stringify(name)
        }: a name is letters, digits ` +
          `and underscores, not starting with a digit, in segments joined by "."`,
        { variable: String(name), owner },
      );
    }
    requireFunction(provider, `variable "${name}"`);
    const existing = this.#variables.get(name);
    if (existing !== undefined) {
      throw new PromptError(
        "duplicate-variable",
        `Cannot add variable "${name}": ${
          describeOwner(existing.owner)
        } already registered it`,
        { variable: name, owner: existing.owner },
      );
    }
    this.#variables.set(name, { name, provider, owner });
    this.#variableList = undefined;
    this.#emit("variable", "register", name, owner);
    return createDisposer(() => {
      this.#variables.delete(name);
      this.#variableList = undefined;
      this.#emit("variable", "unregister", name, owner);
    });
  }

  #addTools(provider: ToolProvider<C>, owner: string | undefined): Disposer {
    requireFunction(provider, "tool provider");
    const entry: ToolEntry<C> = { provider, owner };
    this.#toolProviders = [...this.#toolProviders, entry];
    this.#emit("tools", "register", undefined, owner);
    return createDisposer(() => {
      this.#toolProviders = this.#toolProviders.filter((e) => e !== entry);
      this.#emit("tools", "unregister", undefined, owner);
    });
  }

  #addHandler<E extends keyof PromptEvents<C>>(
    event: E,
    handler: PromptEvents<C>[E],
    owner: string | undefined,
  ): Disposer {
    if (!EVENTS.includes(event)) {
      throw new TypeError(
        `Cannot add handler: unknown event ${
          JSON.stringify(event)
        }; expected ` +
          EVENTS.map((e) => `"${e}"`).join(" or "),
      );
    }
    requireFunction(handler, `"${event}" handler`);
    if (event === "system-prompt/change") {
      const entry: ListenerEntry = {
        listener: handler as ChangeListener,
        owner,
      };
      this.#listeners = [...this.#listeners, entry];
      return createDisposer(() => {
        this.#listeners = this.#listeners.filter((e) => e !== entry);
      });
    }
    const entry: HandlerEntry<C> = {
      handler: handler as AssembleHandler<C>,
      owner,
    };
    this.#setHandlers([...this.#handlers, entry]);
    this.#emit("assemble-handler", "register", undefined, owner);
    return createDisposer(() => {
      this.#setHandlers(this.#handlers.filter((e) => e !== entry));
      this.#emit("assemble-handler", "unregister", undefined, owner);
    });
  }

  #setHandlers(handlers: readonly HandlerEntry<C>[]): void {
    this.#handlers = handlers;
    const labels: HandlerLabel[] = handlers.map((entry, index) => ({
      handler: handlerLabel(entry.handler, index),
      owner: entry.owner,
    }));
    // Built once per change, so an assembly allocates no closures for it.
    this.#waterfall = {
      handlers: handlers.map((entry) => entry.handler),
      labels,
      options: {
        onError: (error, index) => handlerFailed(labels[index]!, error),
        accept: (value, index) => acceptAssembly(value, labels[index]!),
      },
    };
  }

  #emit(
    kind: PromptChange["kind"],
    action: PromptChange["action"],
    name: string | undefined,
    owner: string | undefined,
  ): void {
    const listeners = this.#listeners;
    if (listeners.length === 0) return;
    const change: PromptChange = { kind, action };
    if (name !== undefined) change.name = name;
    if (owner !== undefined) change.owner = owner;
    // One frozen object for every listener: none can change what the next sees.
    Object.freeze(change);
    for (let i = 0; i < listeners.length; i++) {
      const entry = listeners[i]!;
      try {
        entry.listener(change);
      } catch (cause) {
        this.#onListenerError(
          new PromptError(
            "listener-failed",
            `A "system-prompt/change" listener "${
              handlerLabel(entry.listener, i)
            }" of ` +
              `${describeOwner(entry.owner)} threw on ${action} of ${kind}` +
              `${name === undefined ? "" : ` "${name}"`}: ${messageOf(cause)}`,
            {
              cause,
              owner: entry.owner,
              handler: handlerLabel(entry.listener, i),
            },
          ),
        );
      }
    }
  }
}

function validateSection<C>(
  section: PromptSection<C>,
  owner: string | undefined,
): void {
  if (typeof section !== "object" || section === null) {
    throw new TypeError(
      `Cannot add section: expected { name, order, text }, got ${
        describeValue(section)
      }`,
    );
  }
  const { name, order, text, stability } = section;
  if (typeof name !== "string") {
    throw new TypeError(
      `Cannot add section: name must be a string, got ${describeValue(name)}`,
    );
  }
  if (name === "") {
    throw new PromptError(
      "invalid-section",
      "Cannot add section: name must not be empty",
      { section: name, owner },
    );
  }
  if (typeof order !== "number") {
    throw new TypeError(
      `Cannot add section "${name}": order must be a number, got ${
        describeValue(order)
      }`,
    );
  }
  if (!Number.isFinite(order)) {
    throw new PromptError(
      "invalid-section",
      `Cannot add section "${name}": order must be finite, got ${order}`,
      { section: name, owner },
    );
  }
  if (typeof text !== "string" && typeof text !== "function") {
    throw new TypeError(
      `Cannot add section "${name}": text must be a string or a function, got ${
        describeValue(text)
      }`,
    );
  }
  if (
    stability !== undefined && stability !== "static" &&
    stability !== "session" && stability !== "step"
  ) {
    throw new PromptError(
      "invalid-section",
      `Cannot add section "${name}": stability must be "static", "session" ` +
        `or "step", got ${JSON.stringify(stability)}`,
      { section: name, owner },
    );
  }
}

function requireFunction(value: unknown, what: string): void {
  if (typeof value !== "function") {
    throw new TypeError(
      `Cannot add ${what}: expected a function, got ${describeValue(value)}`,
    );
  }
}

function acceptAssembly(value: unknown, label: HandlerLabel): PromptAssembly {
  if (isAssembly(value)) return value;
  throw new PromptError(
    "invalid-value",
    `Cannot run "system-prompt/assemble" handler "${label.handler}" of ` +
      `${describeOwner(label.owner)}: it returned ${describeValue(value)}, ` +
      `not an assembly (return undefined to keep the one it got)`,
    { owner: label.owner, handler: label.handler },
  );
}

function handlerFailed(label: HandlerLabel, cause: unknown): PromptError {
  return new PromptError(
    "handler-failed",
    `Cannot run "system-prompt/assemble" handler "${label.handler}" of ` +
      `${describeOwner(label.owner)}: it threw: ${messageOf(cause)}`,
    { cause, owner: label.owner, handler: label.handler },
  );
}

/** A handler's function name, or its position for an anonymous one. */
function handlerLabel(fn: { name: string }, index: number): string {
  return fn.name === "" ? `#${index}` : fn.name;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return value instanceof Promise;
}
