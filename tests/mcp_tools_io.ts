// @dsh/system-prompt/mcp against the real MCP SDK's Client and a real server
// process (tests/support/mcp_docs_server.ts, over stdio). Named `_io.ts`: it
// starts a process, so it runs in the io stage with --allow-run.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { PromptError, renderPrompt, SystemPrompt } from "@dsh/system-prompt";
import { toolOwner } from "@dsh/system-prompt/inspect";
import {
  type McpClient,
  mcpTools,
  type McpToolSchema,
} from "@dsh/system-prompt/mcp";
import { repoRoot } from "./support/repo_root.ts";

const ROOT = repoRoot();
/** Deno, which runs this file (the Node suite only compiles it). */
const deno = (globalThis as { Deno?: { execPath(): string } }).Deno!;

/** A client connected to a new server process. */
async function connect(): Promise<Client> {
  const client = new Client({ name: "agent-host", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: deno.execPath(),
      args: [
        "run",
        "--quiet",
        "--lock=deno.lock",
        "--allow-read",
        "--allow-env",
        join(ROOT, "tests/support/mcp_docs_server.ts"),
      ],
      cwd: ROOT,
      stderr: "inherit",
    }),
  );
  return client;
}

/** How often the server answered a first `tools/list` page. */
async function listings(client: Client): Promise<number> {
  const result = await client.callTool({ name: "count", arguments: {} });
  const [first] = result.content as { text: string }[];
  return Number(first!.text);
}

/** Waits until `provider` has dropped its listing (the notification came). */
async function untilDropped(
  provider: (context: unknown) => unknown,
): Promise<void> {
  for (let turn = 0; turn < 1000; turn++) {
    const value = provider({});
    if (value instanceof Promise) return void await value;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  assert.fail("the listing was never dropped");
}

describe("mcpTools against the MCP SDK's Client and a server process", () => {
  let client: Client;

  before(async () => {
    client = await connect();
  });
  after(async () => {
    await client.close();
  });

  it("fits the SDK's Client as McpClient with no cast", () => {
    const structural: McpClient = client;
    assert.equal(typeof structural.listTools, "function");
  });

  it("lists every page (following nextCursor) as tools owned by the server's name, inputSchema as parameters", async () => {
    const docs = mcpTools(client);
    assert.equal(docs.server, "docs");
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: "You read docs." });
    prompt.scope(docs.server).tools(docs);
    const { tools } = await prompt.assemble();
    assert.deepEqual(
      tools.map((tool) => [tool.name, toolOwner(tool)]),
      [
        ["count", "docs"],
        ["erase", "docs"],
        ["grow", "docs"],
        ["read", "docs"],
        ["search", "docs"],
      ],
    );
    const listed = new Map<string, unknown>();
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      for (const tool of page.tools) listed.set(tool.name, tool.inputSchema);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    for (const tool of tools) {
      assert.deepEqual(tool.parameters, listed.get(tool.name));
    }
    assert.equal(renderPrompt(await prompt.assemble()), "You read docs.");
  });

  it('keeps the title and annotations in the host field mcp, and the server\'s description as it is ("" when none)', async () => {
    const docs = mcpTools(client);
    const tools = await docs({}) as readonly McpToolSchema[];
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    assert.deepEqual(byName.search!.mcp, {
      server: "docs",
      title: "Search the docs",
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
    assert.equal(
      byName.search!.description,
      "Searches the documentation for pages about the words.",
    );
    assert.deepEqual(byName.read!.mcp, {
      server: "docs",
      title: "Read a page",
      annotations: { title: "Read a page", readOnlyHint: true },
    });
    assert.equal(byName.erase!.description, "");
    assert.deepEqual(byName.erase!.mcp.annotations, { destructiveHint: true });
    assert.deepEqual(byName.count!.mcp, { server: "docs" });
  });

  it("keeps the listing across steps and lists again after notifications/tools/list_changed", async () => {
    const own = await connect();
    try {
      const docs = mcpTools(own, {
        listChanged: ToolListChangedNotificationSchema,
      });
      const prompt = new SystemPrompt();
      prompt.scope(docs.server).tools(docs);
      const first = await prompt.assemble();
      const second = await prompt.render({}, { agent: "main" });
      assert.deepEqual(
        second.tools.map((tool) => tool.name),
        first.tools.map((tool) => tool.name),
      );
      // The second step asked no server: the listing was kept (same array).
      assert.equal(docs({}), docs({}));
      assert.equal(await listings(own), 1);

      await own.callTool({ name: "grow", arguments: { name: "history" } });
      await untilDropped(docs);
      const third = await prompt.assemble();
      assert.deepEqual(third.tools.map((tool) => tool.name), [
        "count",
        "erase",
        "grow",
        "history",
        "read",
        "search",
      ]);
      assert.equal(toolOwner(third.tools[3]!), "docs");
      assert.equal(await listings(own), 2);
    } finally {
      await own.close();
    }
  });

  it("shares one listing between steps that ask at once", async () => {
    const own = await connect();
    try {
      const docs = mcpTools(own);
      const prompt = new SystemPrompt();
      prompt.scope("docs").tools(docs);
      const steps = await Promise.all([
        prompt.assemble(),
        prompt.assemble(),
        prompt.render({}, { agent: "a" }),
      ]);
      assert.deepEqual(steps.map((step) => step.tools.length), [5, 5, 5]);
      assert.equal(await listings(own), 1);
      docs.invalidate();
      await prompt.assemble();
      assert.equal(await listings(own), 2);
    } finally {
      await own.close();
    }
  });

  it("rejects with provider-failed naming the server when its process is gone, and tries again next step", async () => {
    const gone = await connect();
    const docs = mcpTools(gone);
    const prompt = new SystemPrompt();
    prompt.scope(docs.server).tools(docs);
    await gone.close();
    for (let step = 0; step < 2; step++) {
      await assert.rejects(prompt.assemble(), (error) => {
        assert.ok(error instanceof PromptError);
        assert.equal(error.code, "provider-failed");
        assert.equal(error.owner, "docs");
        const cause = error.cause;
        assert.ok(cause instanceof PromptError);
        assert.equal(cause.code, "provider-failed");
        assert.equal(cause.owner, "docs");
        assert.match(
          cause.message,
          /^Cannot list the tools of MCP server "docs": listTools\(\) rejected: .*Not connected/,
        );
        assert.ok(cause.cause instanceof Error);
        return true;
      });
    }
  });
});
