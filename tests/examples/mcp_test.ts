// examples/mcp.ts: an MCP server's tools and instructions through a plugin's
// scope, listed once and again after tools/list_changed, withdrawn with the
// plugin; an aborted step or a server gone away is reported as such.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import {
  PromptError,
  type PromptScope,
  renderPrompt,
  SystemPrompt,
} from "@dsh/system-prompt";
import { explainPrompt, toolOwner } from "@dsh/system-prompt/inspect";
import {
  DOCS_INSTRUCTIONS,
  type DocsServer,
  mcpPlugin,
  type McpToolSource,
  startDocsServer,
} from "../../examples/mcp.ts";

/** Lets the client take the server's notifications in. */
const announced = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("examples/mcp.ts: an MCP server's tools and instructions through async providers", () => {
  let docs: DocsServer;
  let prompt: SystemPrompt;
  let scope: PromptScope;

  before(async () => {
    docs = await startDocsServer();
  });
  after(async () => {
    await docs.close();
  });

  const setUp = () => {
    prompt = new SystemPrompt();
    prompt.scope("agent-loop").section({
      name: "agent:persona",
      order: 0,
      text: "You are a documentation assistant.",
    });
    scope = prompt.scope("mcp:docs");
    mcpPlugin(scope, docs.client, { server: "docs" });
  };

  it("lists the server's tools in the assembly, owned by the plugin's scope, the input schema as parameters", async () => {
    setUp();
    const { tools } = await prompt.assemble();
    assert.deepEqual(tools.map((tool) => [tool.name, toolOwner(tool)]), [
      ["read", "mcp:docs"],
      ["search", "mcp:docs"],
    ]);
    const search = tools.find((tool) => tool.name === "search")!;
    assert.equal(
      search.description,
      "Searches the documentation for pages about the words.",
    );
    const listed = (await docs.client.listTools()).tools.find((tool) =>
      tool.name === "search"
    )!;
    assert.deepEqual(search.parameters, listed.inputSchema);
    assert.deepEqual(search.parameters.properties, {
      words: { type: "string", description: "What to look for" },
    });
  });

  it("carries the server's instructions as literal text in a section the plugin owns", async () => {
    setUp();
    const assembly = await prompt.assemble();
    const text = renderPrompt(assembly);
    // `{{guide/install}}` would be a malformed reference in a template.
    assert.equal(
      text,
      `You are a documentation assistant.\n\nInstructions from the MCP server "docs":\n${DOCS_INSTRUCTIONS}`,
    );
    assert.ok(DOCS_INSTRUCTIONS.includes("{{guide/install}}"));
    assert.deepEqual(
      explainPrompt(assembly).sections.map((section) => [
        section.name,
        section.owner,
      ]),
      [["agent:persona", "agent-loop"], ["mcp:docs", "mcp:docs"]],
    );
  });

  it("lists the tools once, and shows a tool the server adds after connecting in the next assembly once it says tools/list_changed, owned by the plugin's scope, and drops it when removed", async () => {
    setUp();
    const before = await prompt.assemble();
    assert.deepEqual(before.tools.map((tool) => tool.name), ["read", "search"]);
    const history = docs.server.registerTool("history", {
      description: "Lists a page's past versions.",
      inputSchema: { page: z.string() },
    }, ({ page }) => ({ content: [{ type: "text", text: page }] }));
    await announced();
    const after = await prompt.assemble();
    assert.deepEqual(
      after.tools.map((tool) => [tool.name, toolOwner(tool)]),
      [["history", "mcp:docs"], ["read", "mcp:docs"], [
        "search",
        "mcp:docs",
      ]],
    );
    history.remove();
    await announced();
    const removed = await prompt.assemble();
    assert.deepEqual(removed.tools.map((tool) => tool.name), [
      "read",
      "search",
    ]);
  });

  it("gives render() the same tools and prompt as assemble()", async () => {
    setUp();
    const step = await prompt.render({}, { agent: "main" });
    const assembly = await prompt.assemble();
    assert.equal(step.prompt, renderPrompt(assembly));
    assert.deepEqual(
      step.tools.map((tool) => tool.name),
      assembly.tools.map((tool) => tool.name),
    );
  });

  it("takes the tools and the section out of the prompt when the plugin's scope is disposed", async () => {
    setUp();
    scope.dispose();
    const assembly = await prompt.assemble();
    assert.deepEqual(assembly.tools, []);
    assert.equal(renderPrompt(assembly), "You are a documentation assistant.");
  });

  it("rejects an aborted step with aborted at once; the listing it started is kept for the next step", async () => {
    let requests = 0;
    const source: McpToolSource = {
      getInstructions: () => docs.client.getInstructions(),
      // This test needs no notification.
      setNotificationHandler: () => {},
      listTools: (params) => {
        requests++;
        return docs.client.listTools(params);
      },
    };
    const own = new SystemPrompt();
    mcpPlugin(own.scope("mcp:docs"), source, { server: "docs" });
    const aborting = new AbortController();
    const pending = own.assemble({}, { signal: aborting.signal });
    const reason = new Error("the user pressed Esc");
    aborting.abort(reason);
    await assert.rejects(pending, (error) => {
      assert.ok(error instanceof PromptError);
      assert.equal(error.code, "aborted");
      assert.equal(error.cause, reason);
      return true;
    });
    const { tools } = await own.assemble();
    assert.deepEqual(tools.map((tool) => tool.name), ["read", "search"]);
    await own.assemble();
    assert.equal(requests, 1);
  });

  it("reports a server that went away as provider-failed naming the plugin's scope", async () => {
    const gone = await startDocsServer();
    const own = new SystemPrompt();
    mcpPlugin(own.scope("mcp:gone"), gone.client, { server: "gone" });
    await gone.close();
    await assert.rejects(own.assemble(), (error) => {
      assert.ok(error instanceof PromptError);
      assert.equal(error.code, "provider-failed");
      assert.equal(error.owner, "mcp:gone");
      assert.match(
        error.message,
        /^Cannot list tools of "mcp:gone": its tool provider rejected: /,
      );
      return true;
    });
  });
});
