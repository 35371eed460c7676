/**
 * The `toolOrder` option's entry for the tools an order does not list.
 *
 * @module
 */

/**
 * The `toolOrder` entry where the tools it does not list go, by name; the
 * value the upstream harness's configuration uses.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt, TOOL_ORDER_REST } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt({ toolOrder: ["read", TOOL_ORDER_REST] });
 * const tool = (name: string) => ({ name, description: name, parameters: {} });
 * prompt.tools(() => [tool("bash"), tool("grep"), tool("read")]);
 * const { tools } = await prompt.assemble();
 * assert.deepEqual(tools.map((t) => t.name), ["read", "bash", "grep"]);
 * ```
 */
export const TOOL_ORDER_REST = "<unlisted-tools>";
