/**
 * A tool registry: tools with an `execute` function, by name. It registers
 * itself as a tool provider when it is created, so every tool registered
 * later is in the next assembly's `tools`, owned by the registry's scope,
 * and unregistering a tool takes it out of the prompt.
 *
 * A tool may carry host fields: the library copies each tool's own fields
 * into every assembly and reads only `name`, `description` and
 * `parameters`. With `attach: true` the registry's tools carry their
 * `execute` into the assembly, typed by the `declare module` below, so the
 * host runs exactly the tools the step offered ({@linkcode executeFrom}):
 * a handler that hides a tool for one step also takes its `execute` away.
 *
 * @module
 */

import type { PromptRegistrar, ToolSchema } from "@dsh/system-prompt";
import type { AgentContext } from "./agent.ts";
import { closestKey } from "./closest_key.ts";
import type { Plugin } from "./host.ts";

// An application types its host fields once, for every registry. (A JSR
// package cannot publish a `declare module`; examples/ is not published.)
declare module "@dsh/system-prompt" {
  interface ToolSchema {
    /**
     * A host field: runs the tool with the model's input. Never rendered,
     * and `JSON.stringify` leaves a function out.
     */
    execute?: (input: unknown) => unknown;
  }
}

/** A tool the model can call: its schema and what runs it. */
export interface ExecutableTool extends ToolSchema {
  /** Runs the tool with the model's input; the result goes back to the model. */
  execute(input: unknown): unknown;
}

/** Options of {@linkcode ToolRegistry}. */
export interface ToolRegistryOptions {
  /**
   * Offer the registered tools themselves, `execute` included, instead of
   * copies of their schema.
   * @default {false}
   */
  attach?: boolean;
}

/** Tools by name, offered to the model through the prompt's tool list. */
export class ToolRegistry {
  readonly #tools = new Map<string, ExecutableTool>();

  /** Registers the registry itself as a tool provider of `prompt`. */
  constructor(
    prompt: PromptRegistrar<AgentContext>,
    options: ToolRegistryOptions = {},
  ) {
    prompt.tools(() =>
      options.attach
        ? [...this.#tools.values()]
        : [...this.#tools.values()].map((
          { name, description, parameters },
        ) => ({
          name,
          description,
          parameters,
        }))
    );
  }

  /**
   * Adds a tool; the returned function removes it again.
   *
   * @throws {Error} If a tool of that name is registered.
   */
  register(tool: ExecutableTool): () => void {
    if (this.#tools.has(tool.name)) {
      throw new Error(`tool "${tool.name}" is already registered`);
    }
    this.#tools.set(tool.name, tool);
    return () => {
      if (this.#tools.get(tool.name) === tool) this.#tools.delete(tool.name);
    };
  }

  /** Whether a tool of that name is registered. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /**
   * Runs the tool `name` with `input`.
   *
   * @throws {Error} For a name that is not registered (with a suggestion).
   */
  async execute(name: string, input: unknown): Promise<unknown> {
    const tool = this.#tools.get(name);
    if (tool === undefined) {
      const suggestion = closestKey(name, [...this.#tools.keys()]);
      throw new Error(
        `no tool "${name}" is registered` +
          (suggestion === undefined ? "" : `; did you mean "${suggestion}"?`),
      );
    }
    return await tool.execute(input);
  }
}

/**
 * Runs the tool `name` of one step's tools by the `execute` attached to it.
 *
 * @throws {Error} For a name the step does not offer, or a tool without an
 * `execute` (with a suggestion).
 */
export async function executeFrom(
  tools: readonly ToolSchema[],
  name: string,
  input: unknown,
): Promise<unknown> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool?.execute === undefined) {
    const suggestion = closestKey(
      name,
      tools.filter((t) => t.execute !== undefined).map((t) => t.name),
    );
    throw new Error(
      `no tool "${name}" with an execute function is in this step's tools` +
        (suggestion === undefined ? "" : `; did you mean "${suggestion}"?`),
    );
  }
  return await tool.execute(input);
}

/** Creates the registry in its own scope and offers it as "tool-registry". */
export const toolRegistryPlugin: Plugin = {
  name: "tool-registry",
  load({ prompt, provide }) {
    provide("tool-registry", new ToolRegistry(prompt));
  },
};
