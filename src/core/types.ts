/**
 * Every public shape of the library: what plugins register, what providers
 * return, what an assembly carries, and the options of the registry, of one
 * assembly and of one rendered step.
 *
 * @module
 */

import type { PromptError } from "./errors.ts";

/**
 * What one `assemble()` call is for. Declared empty and merge-extensible:
 * another package adds its fields by declaration merging, and every provider
 * must tolerate their absence (a bare `assemble()` passes `{}`).
 *
 * @example Narrowing the registry to a context type
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 *
 * // In a consumer module, `declare module "@dsh/system-prompt" {
 * //   interface AssembleContext { agent?: { model: string } } }` does the same.
 * const prompt = new SystemPrompt<{ agent?: { model: string } }>();
 * prompt.variable("model", (context) => context.agent?.model);
 * const assembly = await prompt.assemble({ agent: { model: "m-1" } });
 * assert.equal(assembly.variables.model, "m-1");
 * ```
 */
// deno-lint-ignore no-empty-interface -- merge-extensible by design
export interface AssembleContext {}

/**
 * The second argument of every provider: the assembly's abort signal, when
 * the host passed one to `assemble()` or `render()`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ProviderOptions } from "@dsh/system-prompt";
 *
 * const options: ProviderOptions = { signal: undefined };
 * assert.equal(options.signal, undefined);
 * ```
 */
export interface ProviderOptions {
  /** Aborts when the assembly is abandoned; stop work and settle. */
  readonly signal: AbortSignal | undefined;
}

/**
 * A value, or a promise (any thenable) of it: what a provider may return.
 *
 * @typeParam T The value.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { MaybePromise } from "@dsh/system-prompt";
 *
 * const now: MaybePromise<string> = "a";
 * const later: MaybePromise<string> = Promise.resolve("b");
 * assert.equal(now + (await later), "ab");
 * ```
 */
export type MaybePromise<T> = T | PromiseLike<T>;

/**
 * A part's text: a string, or a function of the context that returns one
 * (or a promise of one).
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AssembleContext, SectionText } from "@dsh/system-prompt";
 *
 * const text: SectionText<AssembleContext> = () => "Be brief.";
 * assert.equal(typeof text, "function");
 * ```
 */
export type SectionText<C> =
  | string
  | ((context: C, options: ProviderOptions) => MaybePromise<string>);

/**
 * How often a part's rendered text changes, for prompt caching: `"static"`
 * (never, while the registry lives; the default), `"session"` (now and
 * then: a working directory) or `"step"` (every step: a clock).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { Stability } from "@dsh/system-prompt";
 *
 * const clock: Stability = "step";
 * assert.equal(clock, "step");
 * ```
 */
export type Stability = "static" | "session" | "step";

/**
 * How long a tool provider's tools stay the same: `"static"` for tools
 * built into the host, `"session"` for a listing that may change during a
 * session (an MCP server's).
 *
 * @example Usage
 * ```ts
 * import type { ToolStability } from "@dsh/system-prompt";
 *
 * const mcp: ToolStability = "session";
 * console.assert(mcp === "session");
 * ```
 */
export type ToolStability = "static" | "session";

/**
 * What makes a section, context entry or item a list: its `text` becomes
 * the heading, and items registered under its name follow it.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderPrompt, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * prompt.section({
 *   name: "skills",
 *   order: 100,
 *   text: "<skills>",
 *   list: { footer: "</skills>", empty: "No skills." },
 * });
 * assert.equal(renderPrompt(await prompt.assemble()), "No skills.");
 * prompt.scope("pdf").item("skills", { name: "pdf", order: 1, text: "- pdf" });
 * assert.equal(renderPrompt(await prompt.assemble()), "<skills>\n- pdf\n</skills>");
 * ```
 */
export interface ListLayout<C = AssembleContext> {
  /** Placed between two rendered items. @default {"\n"} */
  separator?: string;
  /** Placed between the heading and the first item. @default {separator} */
  headingSeparator?: string;
  /**
   * Rendered after the last item; interpolated and trimmed like the heading.
   * @default {undefined}
   */
  footer?: SectionText<C>;
  /** Placed between the last item and the footer. @default {separator} */
  footerSeparator?: string;
  /**
   * Rendered verbatim (not interpolated, not trimmed) instead of heading,
   * items and footer when no item remains; without it the list is dropped.
   * @default {undefined}
   */
  empty?: SectionText<C>;
  /** Drop an item whose rendered text equals an earlier one's. @default {false} */
  dedupe?: boolean;
}

/**
 * A list layout in an assembly: {@linkcode ListLayout}'s fields, with
 * `footer` and `empty` resolved to strings.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AssembledList } from "@dsh/system-prompt";
 *
 * const list: AssembledList = { separator: "\n", footer: "</skills>" };
 * assert.equal(list.footer, "</skills>");
 * ```
 */
export interface AssembledList extends Omit<ListLayout, "footer" | "empty"> {
  /** Rendered after the last item. */
  footer?: string;
  /** Rendered verbatim when no item remains. */
  empty?: string;
}

/**
 * The layout fields every part (section, context entry, item) shares.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { PartLayout } from "@dsh/system-prompt";
 *
 * const layout: PartLayout = { trim: false, literal: true };
 * assert.equal(layout.literal, true);
 * ```
 */
export interface PartLayout<C = AssembleContext> {
  /** How often the rendered text changes. @default {"static"} */
  stability?: Stability;
  /**
   * Placed before this part when an earlier part of the same sequence
   * rendered; overrides the sequence's separator. @default {undefined}
   */
  separator?: string;
  /**
   * `false` keeps the interpolated text as it is; the part is then dropped
   * only when it is exactly `""`. @default {true}
   */
  trim?: boolean;
  /**
   * Render the text as it is: `{{`, `}}` and `\{{` are ordinary characters
   * and no variable is ever substituted. For text nobody on the team wrote.
   * @default {false}
   */
  literal?: boolean;
  /** Makes the part a list whose `text` is its heading. @default {undefined} */
  list?: ListLayout<C>;
}

/**
 * A section as a plugin registers it.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { PromptSection } from "@dsh/system-prompt";
 *
 * const habit: PromptSection = { name: "tool:bash", order: 105, text: "Check exit codes." };
 * assert.equal(habit.order, 105);
 * ```
 */
export interface PromptSection<C = AssembleContext> extends PartLayout<C> {
  /** A non-empty name, unique among live sections (per layer). */
  name: string;
  /**
   * Position in the prompt: ascending, ties by name in code-point order.
   * `0` is the persona, `100`–`199` tool guidance, negatives come first.
   */
  order: number;
  /** The text, resolved at every assembly when it is a function. */
  text: SectionText<C>;
  /**
   * The whole system prompt: after the handlers, the assembly's sections are
   * exactly this one as it was resolved. @default {false}
   */
  complete?: boolean;
}

/**
 * A runtime-context entry as a plugin registers it: a fact that changes
 * during a session, rendered by `renderContext()` as a conversation
 * message instead of inside the cached system prompt.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { PromptContextEntry } from "@dsh/system-prompt";
 *
 * const clock: PromptContextEntry = { name: "date", order: 10, text: "Today is {{date}}." };
 * assert.equal(clock.name, "date");
 * ```
 */
export interface PromptContextEntry<C = AssembleContext> extends PartLayout<C> {
  /** A non-empty name, unique among live context entries (per layer). */
  name: string;
  /** Position in the context message: ascending, ties by name. */
  order: number;
  /** The text, resolved at every assembly when it is a function. */
  text: SectionText<C>;
}

/**
 * An item's position in its list: a finite number, or a synchronous
 * function of the context that returns one.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ItemOrder } from "@dsh/system-prompt";
 *
 * const order: ItemOrder<{ picked: string[] }> = (context) => context.picked.indexOf("bash");
 * assert.equal(typeof order, "function");
 * ```
 */
export type ItemOrder<C = AssembleContext> = number | ((context: C) => number);

/**
 * An item as a plugin registers it with `item(list, …)`. An item that
 * declares `list` is a nested list: address its items with a path.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { PromptItem } from "@dsh/system-prompt";
 *
 * const bash: PromptItem = { name: "bash", order: 10, text: "- bash: run a command" };
 * assert.equal(bash.name, "bash");
 * ```
 */
export interface PromptItem<C = AssembleContext> extends PartLayout<C> {
  /** A non-empty name, unique within its list (per layer). */
  name: string;
  /** Position in the list: ascending, ties by name in code-point order. */
  order: ItemOrder<C>;
  /** The text, resolved at every assembly when it is a function. */
  text: SectionText<C>;
}

/**
 * An item as an `items()` provider returns it: resolved for the context,
 * with the layout fields of {@linkcode PartLayout} but `list`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ItemInput } from "@dsh/system-prompt";
 *
 * const file: ItemInput = { name: "AGENTS.md", order: 0, text: "Use tabs.", literal: true };
 * assert.equal(file.literal, true);
 * ```
 */
export interface ItemInput extends Omit<PartLayout, "list"> {
  /** A non-empty name, unique within its list. */
  name: string;
  /** A finite number. */
  order: number;
  /** The text. */
  text: string;
}

/**
 * Where an item goes: a top-level list's name (a section or a context
 * entry), or the path of names down to a nested list.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ListPath } from "@dsh/system-prompt";
 *
 * const tier: ListPath = ["memory", "project"];
 * assert.equal(tier.length, 2);
 * ```
 */
export type ListPath = string | readonly string[];

/**
 * A part in an assembly (a section, a context entry or an item): its text
 * resolved, not yet interpolated, with the layout fields of
 * {@linkcode PartLayout} and its list resolved.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AssembledItem } from "@dsh/system-prompt";
 *
 * const item: AssembledItem = { name: "bash", order: 1, text: "- bash", owner: "bash" };
 * assert.equal(item.owner, "bash");
 * ```
 */
export interface AssembledItem extends Omit<PartLayout, "list"> {
  /** The part's name. */
  name: string;
  /** The resolved order. */
  order: number;
  /** The resolved text (a list's heading), `{{references}}` still in it. */
  text: string;
  /** The scope that registered the part; absent for the root. */
  owner?: string;
  /** The layer that registered the part; absent for a global part. */
  layer?: string;
  /** The farther registration this part shadows in its layer chain. */
  shadows?: { owner?: string; layer?: string };
  /** Set for a list: how its items are joined. */
  list?: AssembledList;
  /** A list's items in render order (a handler may filter or reorder them). */
  items?: AssembledItem[];
}

/**
 * A section or context entry in an assembly.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AssembledSection } from "@dsh/system-prompt";
 *
 * const section: AssembledSection = { name: "a", order: 0, text: "Hi", owner: "p" };
 * assert.equal(section.owner, "p");
 * ```
 */
export interface AssembledSection extends AssembledItem {
  /** Set on a section registered with `complete: true`. */
  complete?: boolean;
}

/**
 * A JSON Schema object describing a tool's input.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { JsonSchema } from "@dsh/system-prompt";
 *
 * const schema: JsonSchema = { type: "object", properties: {} };
 * assert.equal(schema.type, "object");
 * ```
 */
export type JsonSchema = { readonly [key: string]: unknown };

/**
 * A tool as the model is told about it. Per-tool semantics belong in
 * `description`. The assembly carries the registry's frozen copy; the
 * object a provider returned is never modified.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ToolSchema } from "@dsh/system-prompt";
 *
 * const bash: ToolSchema = {
 *   name: "bash",
 *   description: "Runs a shell command.",
 *   parameters: { type: "object", properties: { command: { type: "string" } } },
 * };
 * assert.equal(bash.name, "bash");
 * ```
 */
export interface ToolSchema {
  /** Unique within one assembly. */
  name: string;
  /** What the tool does and how to call it. */
  description: string;
  /** The JSON Schema of the tool's input. */
  parameters: JsonSchema;
  /**
   * Whether the model loads the tool only when it searches for it (the
   * providers' `defer_loading`); carried on the registry's copy.
   */
  deferLoading?: boolean;
}

/**
 * One change a `system-prompt/assemble` handler made to an assembly.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * prompt.scope("dates").on("system-prompt/assemble", function addDate(assembly) {
 *   assembly.variables.date = "2026-11-30";
 * });
 * const { audit } = await prompt.assemble({}, { audit: true });
 * assert.deepEqual(audit, [
 *   { handler: "addDate", owner: "dates", kind: "variable", name: "date", change: "added" },
 * ]);
 * ```
 */
export interface AuditEntry {
  /** The handler's function name, or `#index` for an anonymous one. */
  handler: string;
  /** The handler's owner; absent for the root registry. */
  owner?: string;
  /** What it changed; `"layout"` is the prompt-wide `separator`. */
  kind: "section" | "context" | "item" | "tool" | "variable" | "layout";
  /** The part, tool or variable name. */
  name: string;
  /** For an item, the list it belongs to (a nested list's path joined by "/"). */
  list?: string;
  /** How it changed. */
  change: "added" | "removed" | "changed";
}

/**
 * One step's prompt before rendering. Merge-extensible: a plugin can declare
 * more fields and set them in a `system-prompt/assemble` handler.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type PromptAssembly, renderPrompt } from "@dsh/system-prompt";
 *
 * const assembly: PromptAssembly = {
 *   sections: [{ name: "persona", order: 0, text: "You are {{model}}." }],
 *   tools: [],
 *   variables: { model: "m-1" },
 * };
 * assert.equal(renderPrompt(assembly), "You are m-1.");
 * ```
 */
export interface PromptAssembly {
  /** Sections in render order. */
  sections: AssembledSection[];
  /** Tools in canonical order (by name, or the registry's `toolOrder`). */
  tools: ToolSchema[];
  /**
   * Every registered variable, resolved; `undefined` means no value in this
   * assembly. A null-prototype object when the registry builds it.
   */
  variables: Record<string, string | undefined>;
  /** The text between two rendered sections; absent means `"\n\n"`. */
  separator?: string;
  /** Runtime-context entries in render order; absent means none. */
  contexts?: AssembledSection[];
  /** What each handler changed; present only with `{ audit: true }`. */
  audit?: AuditEntry[];
}

/**
 * Returns a variable's value for one assembly, or `undefined` for none.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { VariableProvider } from "@dsh/system-prompt";
 *
 * const cwd: VariableProvider<{ cwd?: string }> = (context) => context.cwd;
 * assert.equal(cwd({}, { signal: undefined }), undefined);
 * ```
 */
export type VariableProvider<C = AssembleContext> = (
  context: C,
  options: ProviderOptions,
) => MaybePromise<string | undefined>;

/**
 * Returns the tools of one assembly; evaluated at every assembly.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ToolProvider } from "@dsh/system-prompt";
 *
 * const tools: ToolProvider = () => [];
 * assert.deepEqual(tools({}, { signal: undefined }), []);
 * ```
 */
export type ToolProvider<C = AssembleContext> = (
  context: C,
  options: ProviderOptions,
) => MaybePromise<readonly ToolSchema[]>;

/**
 * The options of a tool provider.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt, type ToolOptions } from "@dsh/system-prompt";
 * import { toolStability } from "@dsh/system-prompt/inspect";
 *
 * const prompt = new SystemPrompt();
 * const options: ToolOptions = { stability: "session" };
 * prompt.scope("mcp").tools(() => [{ name: "search", description: "", parameters: {} }], options);
 * assert.equal(toolStability((await prompt.assemble()).tools[0]!), "session");
 * ```
 */
export interface ToolOptions {
  /**
   * How long the provider's tools stay the same: `"static"` (built into
   * the host) or `"session"` (an MCP server's listing). It travels with
   * the registry's copy of each tool (`toolStability()`).
   * @default {"static"}
   */
  stability?: ToolStability;
}

/**
 * Tool pins: for each pinned tool name, the fingerprint
 * (`toolFingerprint()`) of the definition approved.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt, toolFingerprint, type ToolPins } from "@dsh/system-prompt";
 *
 * const bash = { name: "bash", description: "Run", parameters: {} };
 * const toolPins: ToolPins = { bash: toolFingerprint(bash) };
 * const prompt = new SystemPrompt({ toolPins });
 * prompt.tools(() => [{ ...bash, description: "Run anything" }]);
 * await assert.rejects(prompt.assemble(), { code: "tool-changed", tool: "bash" });
 * ```
 */
export type ToolPins = { readonly [toolName: string]: string };

/**
 * The options of `prompt.layer(key, options)`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type LayerOptions, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * const options: LayerOptions = { parent: "main" };
 * prompt.layer("main");
 * assert.equal(prompt.layer("sub", options).parent, "main");
 * ```
 */
export interface LayerOptions {
  /** The parent layer's key. */
  parent?: string;
  /**
   * Pins for the assemblies of this layer and its descendants (a nearer
   * layer's pin of a name wins over a farther one's and the registry's).
   * Given again for a live layer, they replace its pins.
   */
  toolPins?: ToolPins;
}

/**
 * Returns the items a collection holds in one assembly (context files,
 * skills); evaluated at every assembly.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ItemProvider } from "@dsh/system-prompt";
 *
 * const skills: ItemProvider<{ skills?: string[] }> = (context) =>
 *   (context.skills ?? []).map((name, order) => ({ name, order, text: `- ${name}` }));
 * assert.equal(typeof skills, "function");
 * ```
 */
export type ItemProvider<C = AssembleContext> = (
  context: C,
  options: ProviderOptions,
) => MaybePromise<readonly ItemInput[]>;

/**
 * A `system-prompt/assemble` handler: mutates the assembly, or returns the
 * next one; `undefined` keeps the one it got.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AssembleHandler } from "@dsh/system-prompt";
 *
 * const noTools: AssembleHandler = (assembly) => ({ ...assembly, tools: [] });
 * assert.equal(typeof noTools, "function");
 * ```
 */
export type AssembleHandler<C = AssembleContext> = (
  assembly: PromptAssembly,
  context: C,
) => MaybePromise<PromptAssembly | undefined | void>;

/**
 * One registration or unregistration, as `system-prompt/change` reports it.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type PromptChange, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * const changes: PromptChange[] = [];
 * prompt.on("system-prompt/change", (change) => void changes.push(change));
 * prompt.scope("git").variable("branch", () => "main");
 * assert.deepEqual(changes, [
 *   { kind: "variable", action: "register", name: "branch", owner: "git" },
 * ]);
 * ```
 */
export interface PromptChange {
  /** What changed. */
  kind:
    | "section"
    | "context"
    | "variable"
    | "tools"
    | "item"
    | "items"
    | "assemble-handler";
  /** Whether it came or went. */
  action: "register" | "unregister";
  /** The part or variable name. */
  name?: string;
  /** For items, the list (a nested list's path joined by "/"). */
  list?: string;
  /** The owner; absent for the root registry. */
  owner?: string;
  /** The layer; absent for a global registration. */
  layer?: string;
}

/**
 * A `system-prompt/change` listener.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ChangeListener } from "@dsh/system-prompt";
 *
 * const log: ChangeListener = (change) => void change.kind;
 * assert.equal(typeof log, "function");
 * ```
 */
export type ChangeListener = (change: PromptChange) => void;

/**
 * The registry's events and their handler types.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { PromptEvents } from "@dsh/system-prompt";
 *
 * const events: (keyof PromptEvents)[] = ["system-prompt/assemble", "system-prompt/change"];
 * assert.equal(events.length, 2);
 * ```
 */
export interface PromptEvents<C = AssembleContext> {
  /** Waterfall: each handler reshapes the assembly in turn. */
  "system-prompt/assemble": AssembleHandler<C>;
  /** Emit: a registration came or went. */
  "system-prompt/change": ChangeListener;
}

/**
 * The handler type of one event; a union of event names is rejected.
 *
 * @typeParam C The context type of the registry.
 * @typeParam E The event name.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { EventHandler } from "@dsh/system-prompt";
 *
 * const listener: EventHandler<object, "system-prompt/change"> = () => {};
 * assert.equal(typeof listener, "function");
 * ```
 */
export type EventHandler<C, E extends keyof PromptEvents<C>> = {
  [K in keyof PromptEvents<C>]: [E] extends [K] ? PromptEvents<C>[K] : never;
}[keyof PromptEvents<C>];

/**
 * Unregisters what it was returned for; idempotent, and `Disposable`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type Disposer, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * const off: Disposer = prompt.variable("x", () => "1");
 * off();
 * off();
 * assert.deepEqual({ ...(await prompt.assemble()).variables }, {});
 * ```
 */
export interface Disposer extends Disposable {
  /** Unregisters; later calls do nothing. */
  (): void;
}

/**
 * The registration methods the registry, its scopes and its layers share.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type PromptRegistrar, SystemPrompt } from "@dsh/system-prompt";
 *
 * const install = (to: PromptRegistrar) => to.variable("x", () => "1");
 * const prompt = new SystemPrompt();
 * install(prompt.scope("plugin"));
 * assert.equal((await prompt.assemble()).variables.x, "1");
 * ```
 */
export interface PromptRegistrar<C = AssembleContext> {
  /**
   * Adds a section.
   * @throws {PromptError} If the name is empty or taken, or the order is not finite.
   */
  section(section: PromptSection<C>): Disposer;
  /**
   * Adds a runtime-context entry.
   * @throws {PromptError} If the name is empty or taken, or the order is not finite.
   */
  context(entry: PromptContextEntry<C>): Disposer;
  /**
   * Adds a variable.
   * @throws {PromptError} If the name cannot be referenced or is taken.
   */
  variable(name: string, provider: VariableProvider<C>): Disposer;
  /**
   * Adds a tool provider; `options.stability` says how long its tools stay
   * the same (`"static"` by default, `"session"` for an MCP listing).
   * @throws {TypeError} If the stability is neither.
   */
  tools(provider: ToolProvider<C>, options?: ToolOptions): Disposer;
  /**
   * Adds an item to a list (which need not exist yet).
   * @throws {PromptError} If the name is empty or taken in that list.
   */
  item(list: ListPath, item: PromptItem<C>): Disposer;
  /** Adds an item provider to a list (which need not exist yet). */
  items(list: ListPath, provider: ItemProvider<C>): Disposer;
  /** Adds a handler for one event. */
  on<E extends keyof PromptEvents<C>>(
    event: E,
    handler: EventHandler<C, E>,
  ): Disposer;
}

/**
 * A registrar whose registrations carry one owner and go together.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type PromptScope, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * const git: PromptScope = prompt.scope("git");
 * git.variable("branch", () => "main");
 * git.dispose();
 * assert.equal(git.disposed, true);
 * assert.deepEqual({ ...(await prompt.assemble()).variables }, {});
 * ```
 */
export interface PromptScope<C = AssembleContext>
  extends PromptRegistrar<C>, Disposable {
  /** The owner every registration of this scope carries. */
  readonly owner: string;
  /** The layer the scope registers into; absent for global. */
  readonly layer: string | undefined;
  /** Whether `dispose()` ran. */
  readonly disposed: boolean;
  /** Removes everything registered through the scope; idempotent. */
  dispose(): void;
}

/**
 * One agent's registrations on top of the global ones (and its parent
 * layer's): its parts shadow same-named ones from farther away.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type PromptLayer, renderPrompt, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * prompt.section({ name: "persona", order: 0, text: "You are the main agent." });
 * const reviewer: PromptLayer = prompt.layer("reviewer");
 * reviewer.section({ name: "persona", order: 0, text: "You review code." });
 * assert.equal(renderPrompt(await prompt.assemble({}, { layer: "reviewer" })), "You review code.");
 * assert.equal(renderPrompt(await prompt.assemble()), "You are the main agent.");
 * ```
 */
export interface PromptLayer<C = AssembleContext>
  extends PromptRegistrar<C>, Disposable {
  /** The layer's key. */
  readonly key: string;
  /** The parent layer's key; absent for a layer on the global registrations. */
  readonly parent: string | undefined;
  /** Whether `dispose()` ran. */
  readonly disposed: boolean;
  /** A scope inside this layer. */
  scope(owner: string): PromptScope<C>;
  /** Removes the layer and everything registered in it; idempotent. */
  dispose(): void;
}

/**
 * The arguments of `assemble()` and `render()`: the context may be left
 * out only when every field of `C` is optional.
 *
 * @typeParam C The context type of the registry.
 * @typeParam O The options type.
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
export type AssembleArgs<C, O = AssembleOptions> = Record<never, never> extends
  C ? [context?: C, options?: O]
  : [context: C, options?: O];

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
  /** Record in `assembly.audit` what each handler changed. @default {false} */
  audit?: boolean;
  /** The layer (agent) to assemble for; global only when absent. @default {undefined} */
  layer?: string;
  /** Abandons the assembly: it rejects with `aborted`. @default {undefined} */
  signal?: AbortSignal;
}

/**
 * Options of one `render()` call: `assemble()`'s, plus the agent whose last
 * step the registry remembers.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { RenderOptions } from "@dsh/system-prompt";
 *
 * const options: RenderOptions = { agent: "main" };
 * assert.equal(options.agent, "main");
 * ```
 */
export interface RenderOptions extends AssembleOptions {
  /**
   * A key (a string, or an object kept for the agent's lifetime) under
   * which the last rendered step is remembered. @default {undefined}
   */
  agent?: unknown;
}

/**
 * Where one part sits in a {@linkcode StepBlock}'s text, and who owns it.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type PartSpan, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * prompt.scope("bash").section({ name: "tool:bash", order: 0, text: "Check exit codes." });
 * const [block] = (await prompt.render()).blocks;
 * const span: PartSpan = block!.spans[0]!;
 * assert.deepEqual(span, { owner: "bash", start: 0, end: 17 });
 * ```
 */
export interface PartSpan {
  /** The part's owner; absent for the root registry. */
  readonly owner?: string;
  /** The layer that registered it; absent for a global part. */
  readonly layer?: string;
  /** Where it starts in the block's `text` (the separator before it included). */
  readonly start: number;
  /** Where it ends, exclusive; the spans of a block tile its text. */
  readonly end: number;
}

/**
 * A run of the system prompt with one stability: the unit a cache
 * breakpoint can follow. Joined in order, the blocks' texts are the prompt.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type StepBlock, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt<{ time: string }>();
 * prompt.section({ name: "persona", order: 0, text: "Be brief." });
 * prompt.section({ name: "clock", order: 9, stability: "step", text: (c) => `It is ${c.time}.` });
 * const blocks: readonly StepBlock[] = (await prompt.render({ time: "09:00" })).blocks;
 * assert.deepEqual(blocks.map((b) => [b.text, b.stability, b.parts]), [
 *   ["Be brief.", "static", ["persona"]],
 *   ["\n\nIt is 09:00.", "step", ["clock"]],
 * ]);
 * ```
 */
export interface StepBlock {
  /** Its text, with the separator before it (none for the first). */
  readonly text: string;
  /** The stability of everything in it. */
  readonly stability: Stability;
  /**
   * The parts it holds, in order: a section's name; where a list is cut
   * because its items differ in stability, the list's name for its heading
   * and each item's path joined by "/" (`"skills/git"`, nested lists deeper).
   */
  readonly parts: readonly string[];
  /** Each part's owner, layer and span in `text`, aligned with `parts`. */
  readonly spans: readonly PartSpan[];
}

/**
 * One rendered step: what an agent loop sends. Pass it to an adapter of
 * `@dsh/system-prompt/adapters` for the provider's request. A step from
 * `render()` is frozen; its `blocks` are joined when first read (a getter:
 * a spread of the step leaves them out, its JSON holds them).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type RenderedStep, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * prompt.section({ name: "persona", order: 0, text: "Be brief." });
 * const step: RenderedStep = await prompt.render();
 * const { prompt: text, tools, context, blocks } = step;
 * assert.deepEqual({ text, tools, context }, { text: "Be brief.", tools: [], context: "" });
 * assert.deepEqual(blocks, [
 *   { text: "Be brief.", stability: "static", parts: ["persona"], spans: [{ start: 0, end: 9 }] },
 * ]);
 * ```
 */
export interface RenderedStep {
  /** The system prompt, as `renderPrompt()` gives it. */
  prompt: string;
  /** The tools, frozen; the same array while they do not change. */
  tools: readonly ToolSchema[];
  /** The runtime context, as `renderContext()` gives it (`""` for none). */
  context: string;
  /**
   * The prompt cut, at part boundaries (and inside a list whose items
   * differ in stability), into runs of one stability; frozen, and, for a
   * registry without assemble handlers, the same array while the prompt
   * does not change.
   */
  blocks: readonly StepBlock[];
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
   * Receives the `listener-failed` error of a change listener that threw;
   * the registration stands. Must not throw.
   * @default {(error) => console.error(error)}
   */
  onListenerError?: (error: PromptError) => void;
  /** The text between two rendered sections. @default {"\n\n"} */
  separator?: string;
  /**
   * Tool names in the order tools are listed, with exactly one
   * `TOOL_ORDER_REST` entry where the unlisted tools go (by name).
   * @default {[TOOL_ORDER_REST]}
   */
  toolOrder?: readonly string[];
  /**
   * Pins: a tool whose fingerprint (`toolFingerprint()`) differs from its
   * pin rejects the step with `tool-changed`, naming the tool, its owner,
   * the pin and the new fingerprint; an unpinned tool is not checked.
   */
  toolPins?: ToolPins;
  /**
   * Receives a `tool-changed` error instead of the step rejecting (once
   * per changed copy, until the registrations change); the step goes on.
   * A throw rejects the step with what it threw.
   */
  onToolChanged?: (error: PromptError) => void;
}

/**
 * What the registry holds, for inspection tools.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * prompt.scope("git").variable("branch", () => "main");
 * assert.deepEqual(prompt.registrations().variables, [{ name: "branch", owner: "git" }]);
 * ```
 */
export interface PromptRegistrations {
  /** Live sections (global and every layer's). */
  sections: {
    name: string;
    order: number;
    list?: true;
    owner?: string;
    layer?: string;
  }[];
  /** Live context entries. */
  contexts: PromptRegistrations["sections"];
  /** Live variables. */
  variables: { name: string; owner?: string; layer?: string }[];
  /** Live tool providers. */
  toolProviders: { owner?: string; layer?: string }[];
  /** Live assemble handlers. */
  handlers: { handler: string; owner?: string; layer?: string }[];
  /** Live items: `path` is the list's path, `list` its names joined by "/". */
  items: {
    list: string;
    path: string[];
    name: string;
    declaresList?: true;
    owner?: string;
    layer?: string;
  }[];
  /** Live item providers. */
  itemProviders: {
    list: string;
    path: string[];
    owner?: string;
    layer?: string;
  }[];
  /** Live layers. */
  layers: { key: string; parent?: string }[];
  /** The registry's tool order. */
  toolOrder: readonly string[];
}
