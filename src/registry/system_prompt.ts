/**
 * The registry: plugins register sections, context entries, variables,
 * tools, list items and handlers (through owner scopes and agent layers);
 * the agent loop assembles or renders one step at a time.
 *
 * @module
 */

import type {
  AssembleArgs,
  AssembleContext,
  Disposer,
  EventHandler,
  ItemProvider,
  LayerOptions,
  ListPath,
  PromptAssembly,
  PromptContextEntry,
  PromptEvents,
  PromptItem,
  PromptLayer,
  PromptRegistrar,
  PromptRegistrations,
  PromptScope,
  PromptSection,
  RenderedStep,
  RenderOptions,
  SystemPromptOptions,
  ToolOptions,
  ToolProvider,
  VariableProvider,
} from "../core/types.ts";
import { describeValue } from "../core/_describe.ts";
import { typeFailure, unreadable } from "../core/_messages.ts";
import { assemble } from "./_assemble.ts";
import { ChangeEvents } from "./_change_events.ts";
import { Layer, Registrar, Scope } from "./_registrar.ts";
import { Registry } from "./_registry.ts";
import { renderStep } from "./_step.ts";
import { StepMemory } from "./_step_memory.ts";
import { type ToolOrder, toolOrder } from "./_tool_order.ts";
import { ToolCopies } from "./_tools.ts";
import { toolPins } from "./_tool_pins.ts";
import { PINS_OF } from "../core/_provenance.ts";

/**
 * The system-prompt registry of one agent host.
 *
 * @typeParam C The context type every provider receives.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt<{ model?: string }>();
 * prompt.scope("agent-loop").section({ name: "persona", order: 0, text: "You are {{model}}." });
 * prompt.scope("agent-loop").variable("model", (context) => context.model);
 * const step = await prompt.render({ model: "m-1" });
 * assert.equal(step.prompt, "You are m-1.");
 * ```
 */
export class SystemPrompt<C = AssembleContext> implements PromptRegistrar<C> {
  readonly #registry: Registry;
  readonly #root: Registrar;
  readonly #separator: string | undefined;
  readonly #order: ToolOrder;
  readonly #copies: ToolCopies;
  readonly #memory = new StepMemory();

  /**
   * Makes an empty registry.
   *
   * @param options The prompt separator, the tool order, the listener-error hook.
   * @throws {PromptError} `invalid-option` for a `toolOrder` without exactly one rest entry, or with a duplicate, or for `toolPins` that are not an object of fingerprints.
   */
  constructor(options: SystemPromptOptions = {}) {
    const { separator } = options;
    if (separator !== undefined && typeof separator !== "string") {
      const problem = `its separator is ${
        describeValue(separator)
      }, not a string`;
      throw typeFailure({ action: "create SystemPrompt", problem });
    }
    this.#separator = separator;
    this.#order = toolOrder(options.toolOrder);
    const { onToolChanged } = options;
    if (onToolChanged !== undefined && typeof onToolChanged !== "function") {
      const problem = `onToolChanged must be a function, got ${
        describeValue(onToolChanged)
      }`;
      throw typeFailure({ action: "create SystemPrompt", problem });
    }
    const pins = toolPins(options.toolPins, { action: "create SystemPrompt" });
    this.#copies = new ToolCopies(onToolChanged);
    const onError = options.onListenerError ?? ((e) => console.error(e));
    this.#registry = new Registry(new ChangeEvents(onError));
    this.#registry.global.pins = pins;
    PINS_OF.set(this, (layer) => this.#registry.snapshot(layer).pins);
    this.#root = new Registrar(this.#registry);
  }

  /**
   * Adds a section; see {@linkcode PromptSection}.
   *
   * @param section The section.
   * @returns Its disposer.
   * @throws {PromptError} `duplicate-section` when a live section has the name; `invalid-section`.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { renderPrompt, SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt();
   * const off = prompt.section({ name: "a", order: 0, text: "Hi" });
   * assert.equal(renderPrompt(await prompt.assemble()), "Hi");
   * off();
   * assert.equal(renderPrompt(await prompt.assemble()), "");
   * ```
   */
  section(section: PromptSection<C>): Disposer {
    return this.#root.section(section);
  }

  /**
   * Adds a runtime-context entry: rendered by `renderContext()`, never in
   * the system prompt.
   *
   * @param entry The entry.
   * @returns Its disposer.
   * @throws {PromptError} `duplicate-context` when a live entry has the name; `invalid-context`.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { renderContext, SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt<{ now: string }>();
   * prompt.context({ name: "date", order: 0, text: (context) => `Today is ${context.now}.` });
   * assert.equal(renderContext(await prompt.assemble({ now: "Monday" })), "Today is Monday.");
   * ```
   */
  context(entry: PromptContextEntry<C>): Disposer {
    return this.#root.context(entry);
  }

  /**
   * Adds a variable that `{{name}}` references read.
   *
   * @param name A reference name (`model`, `git.branch`).
   * @param provider Its value per assembly, `undefined` for none.
   * @returns Its disposer.
   * @throws {PromptError} `invalid-variable-name`, `duplicate-variable`.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt();
   * prompt.variable("cwd", async () => "/repo");
   * assert.equal((await prompt.assemble()).variables.cwd, "/repo");
   * ```
   */
  variable(name: string, provider: VariableProvider<C>): Disposer {
    return this.#root.variable(name, provider);
  }

  /**
   * Adds a tool provider, evaluated at every assembly.
   *
   * @param provider The tools of one assembly.
   * @param options How long its tools stay the same (`stability`).
   * @returns Its disposer.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt();
   * prompt.tools(() => [{ name: "bash", description: "Run", parameters: {} }]);
   * assert.equal((await prompt.assemble()).tools[0]?.name, "bash");
   * ```
   */
  tools(provider: ToolProvider<C>, options?: ToolOptions): Disposer {
    return this.#root.tools(provider, options);
  }

  /**
   * Adds an item to a list, addressed by its name or by the path of names
   * down to a nested list; the list need not exist yet.
   *
   * @param list The list.
   * @param item The item.
   * @returns Its disposer.
   * @throws {PromptError} `duplicate-item`, `invalid-item`.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { renderPrompt, SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt();
   * prompt.section({ name: "memory", order: 0, text: "<memory>", list: { footer: "</memory>" } });
   * prompt.item("memory", { name: "project", order: 0, text: "Project:", list: {} });
   * prompt.scope("repo").item(["memory", "project"], { name: "AGENTS.md", order: 0, text: "Use tabs." });
   * assert.equal(renderPrompt(await prompt.assemble()), "<memory>\nProject:\nUse tabs.\n</memory>");
   * ```
   */
  item(list: ListPath, item: PromptItem<C>): Disposer {
    return this.#root.item(list, item);
  }

  /**
   * Adds an item provider to a list, evaluated at every assembly.
   *
   * @param list The list.
   * @param provider The items of one assembly.
   * @returns Its disposer.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { renderPrompt, SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt();
   * prompt.section({ name: "skills", order: 0, text: "Skills:", list: {} });
   * prompt.items("skills", () => [{ name: "pdf", order: 0, text: "- pdf" }]);
   * assert.equal(renderPrompt(await prompt.assemble()), "Skills:\n- pdf");
   * ```
   */
  items(list: ListPath, provider: ItemProvider<C>): Disposer {
    return this.#root.items(list, provider);
  }

  /**
   * Adds a handler: `system-prompt/assemble` (a waterfall over each
   * assembly) or `system-prompt/change` (told of every registration).
   *
   * @typeParam E The event.
   * @param event The event name.
   * @param handler Its handler.
   * @returns Its disposer.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt();
   * prompt.on("system-prompt/assemble", (assembly) => ({ ...assembly, tools: [] }));
   * assert.deepEqual((await prompt.assemble()).tools, []);
   * ```
   */
  on<E extends keyof PromptEvents<C>>(
    event: E,
    handler: EventHandler<C, E>,
  ): Disposer {
    return this.#root.on(event, handler);
  }

  /**
   * Opens a scope: everything registered through it carries `owner` and
   * goes when the scope is disposed.
   *
   * @param owner The plugin's name.
   * @returns The scope.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt();
   * using git = prompt.scope("git");
   * git.variable("branch", () => "main");
   * assert.equal(prompt.registrations().variables[0]?.owner, "git");
   * ```
   */
  scope(owner: string): PromptScope<C> {
    return new Scope(this.#registry, { owner, layer: undefined });
  }

  /**
   * The layer of one agent (created on first use): its registrations take
   * part only in assemblies for it (or its descendants) and shadow
   * same-named ones of the global registry and of its parent chain.
   *
   * @param key The layer's key.
   * @param options Its parent layer, its tool pins.
   * @returns The live layer of that key.
   * @throws {PromptError} `invalid-option` when a live layer has another parent, or for bad `toolPins`.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt();
   * const preset = prompt.layer("reviewer");
   * const sub = prompt.layer("reviewer/sub", { parent: "reviewer" });
   * assert.equal(prompt.layer("reviewer"), preset);
   * assert.equal(sub.parent, "reviewer");
   * ```
   */
  layer(key: string, options: LayerOptions = {}): PromptLayer<C> {
    return Layer.open(this.#registry, key, options);
  }

  /**
   * Assembles one step: resolves every part, variable and tool for the
   * context (async providers run concurrently), then runs the
   * `system-prompt/assemble` waterfall. Fresh objects every call.
   *
   * @param args The context (optional when every field is) and options.
   * @returns The assembly.
   * @throws {PromptError} As a rejection: `provider-failed`, `invalid-value`, `handler-failed`, `orphan-item`, `unknown-layer`, `aborted`, …
   * @throws {TypeError} As a rejection: options that are not an object, a `layer` that is not a string, a `signal` that is not an `AbortSignal`, an `audit` that is not a boolean.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt<{ cwd?: string }>();
   * prompt.variable("cwd", (context) => context.cwd);
   * assert.equal((await prompt.assemble({ cwd: "/" })).variables.cwd, "/");
   * ```
   */
  assemble(...args: AssembleArgs<C>): Promise<PromptAssembly> {
    return this.#step(assemble, args);
  }

  /**
   * One step as an agent loop sends it: the prompt, the tools and the
   * runtime context, byte for byte what `assemble()` then `renderPrompt()`
   * and `renderContext()` give. With `agent`, an unchanged step returns
   * that agent's last strings without building the assembly.
   *
   * @param args The context (optional when every field is) and options.
   * @returns The step.
   * @throws {PromptError} As a rejection: whatever `assemble()` or `renderPrompt()` would.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt();
   * prompt.section({ name: "persona", order: 0, text: "Be brief." });
   * const first = await prompt.render({}, { agent: "main" });
   * const second = await prompt.render({}, { agent: "main" });
   * assert.equal(first, second);
   * ```
   */
  render(...args: AssembleArgs<C, RenderOptions>): Promise<RenderedStep> {
    return this.#step(renderStep, args);
  }

  /** One step's snapshot and state; an unknown layer is a rejection. */
  #step<T>(
    run: (...args: Parameters<typeof renderStep>) => Promise<T>,
    [given, options]: [C?, RenderOptions?],
  ): Promise<T> {
    const context = given ?? {} as C;
    try {
      const { layer, audit, signal, agent } = stepOptions(options);
      return run(this.#registry.snapshot(layer), context, {
        copies: this.#copies,
        order: this.#order,
        separator: this.#separator,
        audit: audit === true,
        signal,
        memory: this.#memory,
        agent,
        context,
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * What the registry holds, global and per layer, for inspection tools.
   *
   * @returns The registrations.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt();
   * prompt.layer("sub").scope("grep").variable("pattern", () => "x");
   * assert.deepEqual(prompt.registrations().variables, [{ name: "pattern", owner: "grep", layer: "sub" }]);
   * ```
   */
  registrations(): PromptRegistrations {
    return this.#registry.describe(this.#order.names);
  }
}

/** No options: a step that passes none reads nothing. */
const NO_OPTIONS: RenderOptions = Object.freeze({});

/**
 * The options of a step, each read once and of the type it must have: a
 * wrong type is a `TypeError` (as a rejection), never an option silently
 * ignored; options that throw when read are `invalid-value`.
 */
function stepOptions(options: RenderOptions | undefined): RenderOptions {
  if (options === undefined) return NO_OPTIONS;
  let fault: string | undefined;
  if (typeof options !== "object" || options === null) {
    fault = `its options are ${describeValue(options)}, not an object`;
    throw typeFailure({ action: "assemble prompt", problem: fault });
  }
  let read: RenderOptions;
  try {
    const { layer, signal, audit, agent } = options;
    read = { layer, signal, audit, agent } as RenderOptions;
    if (layer !== undefined && typeof layer !== "string") {
      fault = `its layer is ${describeValue(layer)}, not a string`;
    } else if (audit !== undefined && typeof audit !== "boolean") {
      fault = `its audit option is ${describeValue(audit)}, not a boolean`;
    } else if (
      signal !== undefined &&
      (typeof signal !== "object" || signal === null ||
        typeof signal.aborted !== "boolean" ||
        typeof signal.addEventListener !== "function")
    ) {
      fault = `its signal is ${describeValue(signal)}, not an AbortSignal`;
    }
  } catch (error) {
    throw unreadable(error, { action: "assemble prompt", what: "its options" });
  }
  if (fault !== undefined) {
    throw typeFailure({ action: "assemble prompt", problem: fault });
  }
  return read;
}
