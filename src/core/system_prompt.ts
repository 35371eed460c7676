/**
 * `SystemPrompt`: the registry of sections, variables, tools and handlers,
 * its owner scopes, and `assemble()`.
 *
 * @module
 */

import { assembleSnapshot } from "./_assemble.ts";
import { describeRegistrations } from "./_describe_registrations.ts";
import { describeValue } from "./_describe_value.ts";
import { RegistryStore } from "./_registry_store.ts";
import type { Disposer } from "./disposer.ts";
import type { AssembleArgs, SystemPromptOptions } from "./options.ts";
import type { PromptRegistrar } from "./registrar.ts";
import { type PromptScope, Scope } from "./scope.ts";
import type { EventHandler, PromptEvents } from "./events.ts";
import type { ItemProvider, PromptItem } from "./items.ts";
import type { PromptRegistrations } from "./registrations.ts";
import type { AssembleContext } from "./context.ts";
import type {
  PromptAssembly,
  PromptSection,
  ToolProvider,
  VariableProvider,
} from "./types.ts";

/**
 * The system-prompt registry. Plugins contribute ordered sections, tool
 * providers and `{{variables}}`; the agent loop calls `assemble(context)`
 * once per step and hands the result to `renderPrompt`.
 *
 * Live registrations are kept in maps; the arrays an assembly reads (the
 * sorted sections, the variables, the tool providers, the handlers) are
 * built once per change and then shared, never mutated. `assemble()` takes
 * all of them before any user code runs, in O(1), so a registration or
 * disposal made during an assembly (by a provider, a handler, a listener or
 * another task) affects only later ones.
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
  readonly #store: RegistryStore<C>;
  readonly #separator: string | undefined;

  /**
   * Creates an empty registry.
   *
   * @param options How to report a failing change listener; the text
   * between sections.
   * @throws {TypeError} If `separator` is not a string.
   */
  constructor(options: SystemPromptOptions = {}) {
    const { separator } = options;
    if (separator !== undefined && typeof separator !== "string") {
      throw new TypeError(
        `Cannot create SystemPrompt: separator must be a string, got ${
          describeValue(separator)
        }`,
      );
    }
    this.#separator = separator;
    this.#store = new RegistryStore(
      options.onListenerError ?? ((error) => console.error(error)),
    );
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
    return this.#store.addSection(section, undefined);
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
    return this.#store.addVariable(name, provider, undefined);
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
    return this.#store.addTools(provider, undefined);
  }

  /**
   * Adds an item owned by the root registry to a list. See
   * {@linkcode PromptRegistrar.item}.
   *
   * @param list The list's section name.
   * @param item `{ name, order, text, literal?, trim?, stability? }`.
   * @returns Its disposer.
   * @throws {PromptError} `invalid-item` or `duplicate-item`.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { renderPrompt, SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt<{ picked: string[] }>();
   * prompt.section({ name: "tools", order: 1, text: "Tools:", list: {} });
   * for (const name of ["read", "bash"]) {
   *   prompt.item("tools", { name, order: (c) => c.picked.indexOf(name), text: `- ${name}` });
   * }
   * const text = renderPrompt(await prompt.assemble({ picked: ["bash", "read"] }));
   * assert.equal(text, "Tools:\n- bash\n- read");
   * ```
   */
  item(list: string, item: PromptItem<C>): Disposer {
    return this.#store.addItem(list, item, undefined);
  }

  /**
   * Adds an item provider owned by the root registry to a list. See
   * {@linkcode PromptRegistrar.items}.
   *
   * @param list The list's section name.
   * @param provider Returns this assembly's items.
   * @returns Its disposer.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { renderPrompt, SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt<{ skills: string[] }>();
   * prompt.section({ name: "skills", order: 1, text: "Skills:", list: {} });
   * prompt.items("skills", (c) => c.skills.map((name, order) => ({ name, order, text: `- ${name}` })));
   * assert.equal(renderPrompt(await prompt.assemble({ skills: ["pdf"] })), "Skills:\n- pdf");
   * assert.equal(renderPrompt(await prompt.assemble({ skills: [] })), "");
   * ```
   */
  items(list: string, provider: ItemProvider<C>): Disposer {
    return this.#store.addItems(list, provider, undefined);
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
    handler: EventHandler<C, E>,
  ): Disposer {
    return this.#store.addHandler(event, handler, undefined);
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
      section: (section) => this.#store.addSection(section, owner),
      variable: (name, provider) =>
        this.#store.addVariable(name, provider, owner),
      tools: (provider) => this.#store.addTools(provider, owner),
      item: (list, item) => this.#store.addItem(list, item, owner),
      items: (list, provider) => this.#store.addItems(list, provider, owner),
      on: (event, handler) => this.#store.addHandler(event, handler, owner),
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
    return assembleSnapshot(
      this.#store.snapshot(),
      (args[0] ?? {}) as C,
      args[1]?.audit === true,
      this.#separator,
    );
  }

  /**
   * Lists the live registrations and their owners, in the order an assembly
   * uses them: what inspection tools (`checkPrompt`) need to know that an
   * assembly does not say, such as who registered a variable.
   *
   * @returns A fresh description; changing it changes nothing.
   *
   * @example Usage
   * ```ts
   * import assert from "node:assert/strict";
   * import { SystemPrompt } from "@dsh/system-prompt";
   *
   * const prompt = new SystemPrompt();
   * prompt.scope("git").variable("git.branch", () => "main");
   * prompt.section({ name: "persona", order: 0, text: "Hi." });
   * const { sections, variables } = prompt.registrations();
   * assert.deepEqual(sections, [{ name: "persona", order: 0 }]);
   * assert.deepEqual(variables, [{ name: "git.branch", owner: "git" }]);
   * ```
   */
  registrations(): PromptRegistrations {
    return describeRegistrations(this.#store.snapshot());
  }
}
