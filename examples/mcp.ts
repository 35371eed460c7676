/**
 * An MCP server's tools and instructions in the prompt: the plugin's tool
 * provider is `mcpTools` from `@dsh/system-prompt/mcp` (it lists the
 * server's tools with the official SDK's client once, and again after the
 * server says `notifications/tools/list_changed`), and its section carries
 * the server's instructions as literal text, so a `{{` in them is just
 * text. A tool the server adds later is in the next assembly, owned by the
 * plugin's scope.
 *
 * `startDocsServer()` runs a small server in-process (two tools and
 * instructions, linked to a client by the SDK's in-memory transport) for the
 * test and for `deno run examples/mcp.ts`.
 *
 * @module
 */

import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's "./*" export maps the types of `x.js` to `x.js.d.ts`, which
// Deno takes literally (tsc strips the `.js`): name the types for Deno.
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import {
  type PromptRegistrar,
  renderPrompt,
  SystemPrompt,
} from "@dsh/system-prompt";
import { type McpClient, mcpTools } from "@dsh/system-prompt/mcp";

/** The part of the SDK's `Client` the plugin uses. */
export type McpToolSource = McpClient & Pick<Client, "getInstructions">;

/** Options of {@linkcode mcpPlugin}. */
export interface McpPluginOptions {
  /** The server's name: the section is `mcp:<server>`. */
  server: string;
  /** The order of the instructions section (tool guidance). @default {150} */
  order?: number;
}

/**
 * Registers a connected MCP client's tools (listed once, again after the
 * server says they changed) and its server's instructions (a literal
 * section) through `to`, usually the plugin's scope: the tools and the
 * section are owned by it.
 */
export function mcpPlugin(
  to: PromptRegistrar,
  client: McpToolSource,
  options: McpPluginOptions,
): void {
  to.tools(
    mcpTools(client, {
      server: options.server,
      listChanged: ToolListChangedNotificationSchema,
    }),
    { stability: "session" },
  );
  to.section({
    name: `mcp:${options.server}`,
    order: options.order ?? 150,
    stability: "session",
    // A server's words, not a template: never interpolated.
    literal: true,
    text: () => {
      const instructions = client.getInstructions();
      return instructions === undefined || instructions.trim() === ""
        ? ""
        : `Instructions from the MCP server "${options.server}":\n${instructions}`;
    },
  });
}

/** A running in-process MCP server and the client connected to it. */
export interface DocsServer {
  readonly server: McpServer;
  readonly client: Client;
  /** Closes the client and the server. */
  close(): Promise<void>;
}

/** The instructions the docs server sends on connect. */
export const DOCS_INSTRUCTIONS =
  "Search before you read a page. Page names look like {{guide/install}}: pass them to read as they are.";

/**
 * Starts a small documentation server (tools `search` and `read`, with
 * instructions) and connects a client to it in-process.
 */
export async function startDocsServer(): Promise<DocsServer> {
  const server = new McpServer(
    { name: "docs", version: "1.0.0" },
    { instructions: DOCS_INSTRUCTIONS },
  );
  server.registerTool("search", {
    description: "Searches the documentation for pages about the words.",
    inputSchema: { words: z.string().describe("What to look for") },
  }, ({ words }) => ({
    content: [{ type: "text", text: `No page mentions "${words}".` }],
  }));
  server.registerTool("read", {
    description: "Reads one documentation page.",
    inputSchema: { page: z.string().describe("The page's name") },
  }, ({ page }) => ({
    content: [{ type: "text", text: `# ${page}\n(empty)` }],
  }));
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "agent-host", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    server,
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** `deno run examples/mcp.ts`: the prompt and tools before and after a new tool. */
async function main(): Promise<void> {
  const docs = await startDocsServer();
  const prompt = new SystemPrompt();
  prompt.scope("agent-loop").section({
    name: "agent:persona",
    order: 0,
    text: "You are a documentation assistant.",
  });
  mcpPlugin(prompt.scope("mcp:docs"), docs.client, { server: "docs" });
  const first = await prompt.assemble();
  console.log(renderPrompt(first));
  console.log("tools:", first.tools.map((tool) => tool.name).join(", "));
  docs.server.registerTool("history", {
    description: "Lists a page's past versions.",
    inputSchema: { page: z.string() },
  }, ({ page }) => ({ content: [{ type: "text", text: page }] }));
  // The server says notifications/tools/list_changed; the client takes it in.
  await new Promise((resolve) => setTimeout(resolve, 10));
  const second = await prompt.assemble();
  console.log("tools:", second.tools.map((tool) => tool.name).join(", "));
  await docs.close();
}

if ((import.meta as { main?: boolean }).main) await main();
