// A real MCP server on stdio for tests/mcp_tools_io.ts, built on the SDK's
// low-level `Server`: it lists its tools two to a page (so a client must
// follow `nextCursor`), declares `tools.listChanged`, and its tool `grow`
// adds a tool and sends `notifications/tools/list_changed`. It counts the
// `tools/list` requests it answered (the tool `count` says how many).
// @ts-types="@modelcontextprotocol/sdk/server/index"
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const object = (properties: Record<string, unknown> = {}) => ({
  type: "object" as const,
  properties,
});
const tools: Record<string, unknown>[] = [
  {
    name: "search",
    title: "Search the docs",
    description: "Searches the documentation for pages about the words.",
    inputSchema: object({ words: { type: "string" } }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "read",
    description: "Reads one documentation page.",
    inputSchema: object({ page: { type: "string" } }),
    annotations: { title: "Read a page", readOnlyHint: true },
  },
  {
    name: "grow",
    description: "Adds a tool to this server.",
    inputSchema: object({ name: { type: "string" } }),
    annotations: { readOnlyHint: false, destructiveHint: false },
  },
  {
    name: "count",
    description: "Says how often tools were listed.",
    inputSchema: object(),
  },
  {
    name: "erase",
    inputSchema: object(),
    annotations: { destructiveHint: true },
  },
];
let listings = 0;

const server = new Server(
  { name: "docs", version: "1.0.0" },
  { capabilities: { tools: { listChanged: true } } },
);
server.setRequestHandler(ListToolsRequestSchema, (request) => {
  const start = Number(request.params?.cursor ?? 0);
  if (start === 0) listings++;
  const end = start + 2;
  return {
    tools: tools.slice(start, end),
    ...(end < tools.length ? { nextCursor: String(end) } : {}),
  } as never;
});
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === "grow") {
    const name = String(request.params.arguments?.name);
    tools.push({
      name,
      description: `The tool ${name}.`,
      inputSchema: object(),
    });
    await server.sendToolListChanged();
    return { content: [{ type: "text", text: `added ${name}` }] };
  }
  if (request.params.name === "count") {
    return { content: [{ type: "text", text: String(listings) }] };
  }
  return { content: [{ type: "text", text: "done" }] };
});
await server.connect(new StdioServerTransport());
