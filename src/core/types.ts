/**
 * The data shapes the registry takes and produces.
 *
 * @module
 */

import type { AssembleContext, SectionText, Stability } from "./context.ts";
import type { AssembledItem, ListLayout } from "./items.ts";

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
 * `description`. The registry deep-freezes `parameters` the first time a
 * provider returns it: a handler replaces it, never edits it.
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
}

/**
 * A section as a plugin registers it.
 *
 * @typeParam C The context type of the registry.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AssembleContext, PromptSection } from "@dsh/system-prompt";
 *
 * const habit: PromptSection<AssembleContext> = {
 *   name: "tool:bash",
 *   order: 105,
 *   text: "Check the exit code of every command.",
 * };
 * assert.equal(habit.order, 105);
 * ```
 */
export interface PromptSection<C = AssembleContext> {
  /** A non-empty name, unique among live sections. */
  name: string;
  /**
   * Position in the prompt: ascending, ties by name in code-point order.
   * `0` is the persona, `100`–`199` tool guidance, negatives come first.
   */
  order: number;
  /** The text, resolved at every assembly when it is a function. */
  text: SectionText<C>;
  /** How often the rendered text changes. @default {"static"} */
  stability?: Stability;
  /**
   * Placed before this section when an earlier section rendered; overrides
   * the prompt's separator. @default {undefined}
   */
  separator?: string;
  /**
   * `false` keeps the interpolated text (a list's heading included) as it
   * is; the section is then dropped only when it is exactly `""`.
   * @default {true}
   */
  trim?: boolean;
  /**
   * Render the text as it is: `{{`, `}}` and `\{{` are ordinary characters
   * and no variable is ever substituted. For text nobody on the team wrote.
   * @default {false}
   */
  literal?: boolean;
  /**
   * Makes the section a list: `text` is its heading, and items registered
   * with `item()` / `items()` under its name follow it. @default {undefined}
   */
  list?: ListLayout;
}

/**
 * A section in an assembly: its text resolved, not yet interpolated.
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
export interface AssembledSection {
  /** The section's name. */
  name: string;
  /** The section's order. */
  order: number;
  /** The resolved text, with its `{{references}}` still in it. */
  text: string;
  /** The scope that registered the section; absent for the root registry. */
  owner?: string;
  /** The declared stability; absent means `"static"`. */
  stability?: Stability;
  /** Placed before the section when an earlier one rendered; absent: the prompt's. */
  separator?: string;
  /** `false` keeps surrounding whitespace. */
  trim?: boolean;
  /** Whether the text is rendered as it is. */
  literal?: boolean;
  /** Set for a list: how its items are joined, and what replaces an empty one. */
  list?: ListLayout;
  /** A list's items in render order (a handler may filter or reorder them). */
  items?: AssembledItem[];
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
 * prompt.variable("model", () => "m-1");
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
  /**
   * What it changed; `"layout"` is the prompt-wide `separator` (named
   * `"separator"`).
   */
  kind: "section" | "item" | "tool" | "variable" | "layout";
  /** The section, item, tool or variable name. */
  name: string;
  /** For an item, the list (section) it belongs to. */
  list?: string;
  /**
   * How: for sections and items, a new order, text, stability, separator
   * or flag; for tools, description or parameters; for variables, the value.
   */
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
  /** Tools in provider registration order. */
  tools: ToolSchema[];
  /**
   * Every registered variable, resolved; `undefined` means no value in this
   * assembly. A null-prototype object when the registry builds it.
   */
  variables: Record<string, string | undefined>;
  /**
   * The text placed between two rendered sections; absent means `"\n\n"`.
   * Set from `new SystemPrompt({ separator })`; a handler may change it.
   */
  separator?: string;
  /**
   * What each `system-prompt/assemble` handler changed, in order; present
   * only when `assemble()` was called with `{ audit: true }`.
   */
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
 * assert.equal(cwd({}), undefined);
 * ```
 */
export type VariableProvider<C = AssembleContext> = (
  context: C,
) => string | undefined;

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
 * assert.deepEqual(tools({}), []);
 * ```
 */
export type ToolProvider<C = AssembleContext> = (
  context: C,
) => readonly ToolSchema[];
