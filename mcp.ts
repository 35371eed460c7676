/**
 * MCP without glue: {@linkcode mcpTools} turns a connected MCP client (the
 * official SDK's `Client`, taken structurally: nothing is imported from the
 * SDK) into a tool provider. It lists the server's tools (every page),
 * keeps the listing until the server says its tools changed, maps each
 * tool's `inputSchema` to `parameters`, and carries the server's name, the
 * display title and the annotations (`readOnlyHint`, …) in the host field
 * `mcp`, which is never rendered nor sent.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 * import { mcpTools, type McpToolSchema } from "@dsh/system-prompt/mcp";
 *
 * const client = {
 *   getServerVersion: () => ({ name: "docs" }),
 *   listTools: async () => ({
 *     tools: [{
 *       name: "read",
 *       title: "Read a page",
 *       description: "Reads one page.",
 *       inputSchema: { type: "object" as const },
 *       annotations: { readOnlyHint: true },
 *     }],
 *   }),
 * };
 * const docs = mcpTools(client);
 * const prompt = new SystemPrompt();
 * prompt.scope(docs.server).tools(docs);
 * const [read] = (await prompt.assemble()).tools as McpToolSchema[];
 * assert.deepEqual(read!.mcp, {
 *   server: "docs",
 *   title: "Read a page",
 *   annotations: { readOnlyHint: true },
 * });
 * ```
 *
 * @module
 */

export * from "./src/mcp/mcp_tools.ts";
