/**
 * `mcpTools`: a connected MCP client's tools as a tool provider, without
 * importing the MCP SDK: the client is taken structurally.
 *
 * @module
 */

import type {
  JsonSchema,
  MaybePromise,
  ProviderOptions,
  ToolSchema,
} from "../core/types.ts";
import { messageOf } from "../core/_describe.ts";
import { PromptError } from "../core/errors.ts";
import { failure } from "../core/_messages.ts";
import { frozenJson } from "./_frozen_json.ts";

/**
 * The hints an MCP server gives about a tool (the protocol's
 * `ToolAnnotations`): for the host's permission and display logic, never
 * for the model.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { McpToolAnnotations } from "@dsh/system-prompt/mcp";
 *
 * const hints: McpToolAnnotations = { readOnlyHint: true };
 * assert.equal(hints.destructiveHint, undefined);
 * ```
 */
export interface McpToolAnnotations {
  /** A display name. */
  title?: string | undefined;
  /** The tool does not change its environment. */
  readOnlyHint?: boolean | undefined;
  /** The tool may destroy data (meaningful when not read-only). */
  destructiveHint?: boolean | undefined;
  /** Calling it again with the same input changes nothing more. */
  idempotentHint?: boolean | undefined;
  /** The tool reaches beyond the server (the web, other systems). */
  openWorldHint?: boolean | undefined;
}

/**
 * A tool as an MCP server lists it (`tools/list`), the fields read here.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { McpTool } from "@dsh/system-prompt/mcp";
 *
 * const tool: McpTool = { name: "search", inputSchema: { type: "object" } };
 * assert.equal(tool.description, undefined);
 * ```
 */
export interface McpTool {
  /** The tool's name, unique on its server. */
  name: string;
  /** A display name. */
  title?: string | undefined;
  /** What the tool does, for the model. */
  description?: string | undefined;
  /** The JSON Schema of its input. */
  inputSchema: { type: "object"; [key: string]: unknown };
  /** The server's hints about it. */
  annotations?: McpToolAnnotations | undefined;
}

/**
 * One page of a `tools/list` result.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { McpToolList } from "@dsh/system-prompt/mcp";
 *
 * const page: McpToolList = { tools: [], nextCursor: "2" };
 * assert.equal(page.nextCursor, "2");
 * ```
 */
export interface McpToolList {
  /** The page's tools. */
  tools: readonly McpTool[];
  /** The cursor of the next page; absent on the last. */
  nextCursor?: string | undefined;
}

/**
 * What `mcpTools` needs of a connected client: the MCP SDK's `Client` has
 * it all, and nothing is imported from the SDK.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { McpClient } from "@dsh/system-prompt/mcp";
 *
 * const client: McpClient = {
 *   listTools: () => Promise.resolve({ tools: [] }),
 *   getServerVersion: () => ({ name: "docs" }),
 * };
 * assert.equal(client.getServerVersion?.()?.name, "docs");
 * ```
 */
export interface McpClient {
  /** Lists one page of the server's tools (`tools/list`). */
  listTools(params?: { cursor?: string }): Promise<McpToolList>;
  /** The server's name and version, as it gave them when connecting. */
  getServerVersion?(): { name: string } | undefined;
  /**
   * Sets the handler of the notification `schema` describes (the SDK's
   * signature: a schema, not a method name; typed loosely so that the
   * SDK's generic method fits).
   */
  setNotificationHandler?(schema: never, handler: () => void): void;
}

/**
 * Options of {@linkcode mcpTools}.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { McpToolsOptions } from "@dsh/system-prompt/mcp";
 *
 * const options: McpToolsOptions = { server: "docs" };
 * assert.equal(options.listChanged, undefined);
 * ```
 */
export interface McpToolsOptions {
  /**
   * The server's name: the owner to register the tools under. Default: the
   * name the server gave when connecting (`client.getServerVersion()`).
   */
  server?: string;
  /**
   * The SDK's `ToolListChangedNotificationSchema` (from
   * `@modelcontextprotocol/sdk/types.js`): given it, the provider sets the
   * client's handler of `notifications/tools/list_changed` (the SDK keeps
   * one handler a notification: it replaces the host's own, and runs every
   * provider that follows the client) and lists again after each one.
   * Without it, the listing is kept until
   * {@linkcode McpToolProvider.invalidate}.
   */
  listChanged?: unknown;
}

/**
 * What MCP says of a tool beyond its schema: a host field of the tools
 * `mcpTools` provides (never rendered, never sent by the adapters).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { McpToolInfo } from "@dsh/system-prompt/mcp";
 *
 * const info: McpToolInfo = { server: "docs", annotations: { readOnlyHint: true } };
 * assert.equal(info.server, "docs");
 * ```
 */
export interface McpToolInfo {
  /** The server that lists the tool. */
  server: string;
  /** Its display name: the tool's `title`, else its annotations' `title`. */
  title?: string;
  /** The server's hints, as it sent them. */
  annotations?: McpToolAnnotations;
}

/**
 * A tool `mcpTools` provides: the MCP tool's name, its description (`""`
 * when it has none) and its input schema as `parameters`, with `mcp`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { McpToolSchema } from "@dsh/system-prompt/mcp";
 *
 * const tool: McpToolSchema = {
 *   name: "search",
 *   description: "Searches.",
 *   parameters: { type: "object" },
 *   mcp: { server: "docs" },
 * };
 * assert.equal(tool.mcp.server, "docs");
 * ```
 */
export interface McpToolSchema extends ToolSchema {
  /** The server, the display name and the hints. */
  mcp: McpToolInfo;
}

/**
 * A tool provider for one MCP server's tools; register it under the
 * server's name: `prompt.scope(provider.server).tools(provider)`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcpTools } from "@dsh/system-prompt/mcp";
 *
 * const provider = mcpTools({ listTools: async () => ({ tools: [] }) }, { server: "docs" });
 * assert.equal(provider.server, "docs");
 * ```
 */
export interface McpToolProvider {
  /** The server's tools: the kept listing, or a promise of a new one. */
  (context: unknown, options?: ProviderOptions): MaybePromise<
    readonly McpToolSchema[]
  >;
  /** The server's name. */
  readonly server: string;
  /** Drops the kept listing: the next step lists the tools again. */
  invalidate(): void;
}

/**
 * A connected MCP client's tools as a tool provider. The first step lists
 * them (every page, following `nextCursor`); later steps get the same
 * listing, the same array, until the server says
 * `notifications/tools/list_changed` (with `listChanged`) or the host calls
 * `invalidate()`. Steps that ask while a listing is under way share it; a
 * listing that fails is not kept, so the next step tries again.
 *
 * @param client A connected client: the MCP SDK's `Client`, or anything
 *   with `listTools`.
 * @param options The server's name, and the SDK's notification schema.
 * @returns The provider, with the server's name and `invalidate()`.
 * @throws {PromptError} `invalid-option` when the server has no name (pass
 *   `server`), or `listChanged` is given to a client without
 *   `setNotificationHandler`. The provider rejects with `provider-failed`
 *   when the client does (`cause`), and `invalid-value` for a listing that
 *   is not one; both name the server as `owner`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 * import { mcpTools } from "@dsh/system-prompt/mcp";
 * import { toolOwner } from "@dsh/system-prompt/inspect";
 *
 * const client = {
 *   getServerVersion: () => ({ name: "docs" }),
 *   listTools: async () => ({
 *     tools: [{
 *       name: "search",
 *       description: "Searches the docs.",
 *       inputSchema: { type: "object" as const },
 *       annotations: { readOnlyHint: true },
 *     }],
 *   }),
 * };
 * const docs = mcpTools(client);
 * const prompt = new SystemPrompt();
 * prompt.scope(docs.server).tools(docs);
 * const [search] = (await prompt.assemble()).tools;
 * assert.equal(toolOwner(search!), "docs");
 * assert.deepEqual(search!.parameters, { type: "object" });
 * ```
 */
export function mcpTools(
  client: McpClient,
  options: McpToolsOptions = {},
): McpToolProvider {
  const server = serverName(client, options.server);
  let kept: readonly McpToolSchema[] | undefined;
  let pending: Promise<readonly McpToolSchema[]> | undefined;
  // A listing that started before an invalidation is not kept.
  let generation = 0;
  const list = (): MaybePromise<readonly McpToolSchema[]> => {
    if (kept !== undefined) return kept;
    if (pending !== undefined) return pending;
    const started = generation;
    // The step's signal is not passed on: steps share the listing, and an
    // aborted step rejects at once anyway.
    const listing = listAll(client, server).then((tools) => {
      if (generation === started) kept = tools;
      return tools;
    }).finally(() => {
      if (pending === listing) pending = undefined;
    });
    pending = listing;
    return listing;
  };
  const invalidate = () => {
    generation++;
    kept = undefined;
    pending = undefined;
  };
  const provider: McpToolProvider = Object.freeze(
    Object.assign(list, { server, invalidate }),
  );
  if (options.listChanged !== undefined) {
    if (typeof client.setNotificationHandler !== "function") {
      throw failure({
        code: "invalid-option",
        action: `follow the tools of MCP server ${JSON.stringify(server)}`,
        problem:
          "listChanged was given, and the client has no setNotificationHandler",
        fields: { owner: server },
      });
    }
    follow(client, options.listChanged, invalidate);
  }
  return provider;
}

/**
 * The invalidations of every provider following a client: the SDK keeps one
 * handler a notification, so the one handler set runs them all.
 */
const followers = new WeakMap<McpClient, Set<() => void>>();

/** Runs `invalidate` on each `listChanged` notification the client gets. */
function follow(
  client: McpClient,
  schema: unknown,
  invalidate: () => void,
): void {
  let invalidations = followers.get(client);
  if (invalidations === undefined) {
    const all = new Set<() => void>();
    invalidations = all;
    followers.set(client, all);
    client.setNotificationHandler!(schema as never, () => {
      for (const each of all) each();
    });
  }
  invalidations.add(invalidate);
}

/** The server's name: the option, else the one the server gave. */
function serverName(client: McpClient, server: string | undefined): string {
  const name = server ?? client.getServerVersion?.()?.name;
  if (typeof name !== "string" || name === "") {
    throw failure({
      code: "invalid-option",
      action: "list the tools of an MCP server",
      problem: `the server has no name (got ${
        name === "" ? '""' : "none"
      }): pass { server } or connect the client first`,
    });
  }
  return name;
}

/** Every page of the server's tools, as frozen tool schemas. */
async function listAll(
  client: McpClient,
  server: string,
): Promise<readonly McpToolSchema[]> {
  const action = `list the tools of MCP server ${JSON.stringify(server)}`;
  const tools: McpToolSchema[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  do {
    let page: McpToolList;
    try {
      page = await client.listTools(
        cursor === undefined ? undefined : { cursor },
      );
    } catch (cause) {
      throw failure({
        code: "provider-failed",
        action,
        problem: `listTools() rejected: ${messageOf(cause)}`,
        fields: { owner: server },
        cause,
      });
    }
    cursor = readPage(page, tools, server, action);
    if (cursor !== undefined) {
      if (cursors.has(cursor)) {
        throw failure({
          code: "invalid-value",
          action,
          problem: `the server gave the cursor ${JSON.stringify(cursor)} twice`,
          fields: { owner: server },
        });
      }
      cursors.add(cursor);
    }
  } while (cursor !== undefined);
  return Object.freeze(tools);
}

/**
 * Adds a page's tools to `tools`; returns its `nextCursor`. What throws
 * while reading it (a getter, a Proxy) is the listing's fault.
 */
function readPage(
  page: McpToolList,
  tools: McpToolSchema[],
  server: string,
  action: string,
): string | undefined {
  const fault = (problem: string, cause?: unknown) =>
    failure({
      code: "invalid-value",
      action,
      problem,
      fields: { owner: server },
      ...(cause === undefined ? {} : { cause }),
    });
  try {
    const listed: unknown = page?.tools;
    if (!Array.isArray(listed)) {
      throw fault("listTools() resolved to a value without a tools array");
    }
    for (const tool of listed) tools.push(toolSchema(tool, server));
    const cursor: unknown = page.nextCursor;
    if (cursor !== undefined && typeof cursor !== "string") {
      throw fault(`its nextCursor is not a string`);
    }
    return cursor;
  } catch (error) {
    if (error instanceof PromptError) throw error;
    throw fault(`reading the listing threw: ${messageOf(error)}`, error);
  }
}

/** An MCP tool as a tool schema, its MCP facts in the host field `mcp`. */
function toolSchema(tool: McpTool, server: string): McpToolSchema {
  const name: unknown = tool?.name;
  const fault = (state: string) =>
    failure({
      code: "invalid-value",
      action: `list the tools of MCP server ${JSON.stringify(server)}`,
      where: typeof name === "string" ? { tool: name } : {},
      problem: state,
      fields: { owner: server },
    });
  if (typeof name !== "string" || name === "") {
    throw fault("a listed tool has no name");
  }
  const { description, inputSchema, annotations } = tool;
  if (description !== undefined && typeof description !== "string") {
    throw fault("its description is not a string");
  }
  if (typeof inputSchema !== "object" || inputSchema === null) {
    throw fault("its inputSchema is not an object");
  }
  const mcp: McpToolInfo = { server };
  const title = typeof tool.title === "string"
    ? tool.title
    : annotations?.title;
  if (typeof title === "string") mcp.title = title;
  if (typeof annotations === "object" && annotations !== null) {
    // A copy: a handler cannot change the kept listing through it.
    mcp.annotations = (frozenJson(annotations) ??
      Object.freeze({ ...annotations })) as McpToolAnnotations;
  }
  Object.freeze(mcp);
  return Object.freeze({
    name,
    description: description ?? "",
    // A frozen copy, made once per listing: the registry knows it by
    // identity on every later step. What is not plain JSON data is given
    // as it came, for the registry to refuse with the path at fault.
    parameters: (frozenJson(inputSchema) ?? inputSchema) as JsonSchema,
    mcp,
  });
}
