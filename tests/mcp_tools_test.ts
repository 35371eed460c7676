// mcpTools with fake clients: what the real server cannot easily do (bad
// listings, cursors that loop, a notification mid-listing, hostile values).
// tests/mcp_tools_io.ts runs it against the SDK and a server process.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { PromptError, SystemPrompt } from "@dsh/system-prompt";
import {
  type McpClient,
  type McpToolList,
  mcpTools,
} from "@dsh/system-prompt/mcp";

const tool = (name: string) => ({
  name,
  description: `${name}.`,
  inputSchema: { type: "object" as const },
});

/** A client whose pages are given, counting its requests. */
function paged(pages: McpToolList[], name = "docs") {
  const requests: (string | undefined)[] = [];
  const client: McpClient = {
    getServerVersion: () => ({ name }),
    listTools: (params) => {
      requests.push(params?.cursor);
      const at = params?.cursor === undefined ? 0 : Number(params.cursor);
      return Promise.resolve(pages[at]!);
    },
  };
  return { client, requests };
}

function rejectsWith(code: string, pattern: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof PromptError);
    assert.equal(error.code, code);
    assert.match(error.message, pattern);
    return true;
  };
}

describe("mcpTools", () => {
  it("follows nextCursor to the last page, in the server's order", async () => {
    const { client, requests } = paged([
      { tools: [tool("b")], nextCursor: "1" },
      { tools: [tool("a")], nextCursor: "2" },
      { tools: [] },
    ]);
    const tools = await mcpTools(client)({});
    assert.deepEqual(tools.map((t) => t.name), ["b", "a"]);
    assert.deepEqual(requests, [undefined, "1", "2"]);
    assert.ok(Object.isFrozen(tools) && Object.isFrozen(tools[0]));
  });

  it("answers a kept listing synchronously with the same array, and lists again after invalidate()", async () => {
    const { client, requests } = paged([{ tools: [tool("a")] }]);
    const docs = mcpTools(client);
    const first = await docs({});
    assert.equal(docs({}), first);
    docs.invalidate();
    const again = docs({});
    assert.ok(again instanceof Promise);
    assert.notEqual(await again, first);
    assert.equal(requests.length, 2);
  });

  it("does not keep a listing that an invalidation overtook", async () => {
    let release!: (page: McpToolList) => void;
    let calls = 0;
    const client: McpClient = {
      listTools: () => {
        calls++;
        return calls === 1
          ? new Promise((resolve) => (release = resolve))
          : Promise.resolve({ tools: [tool("new")] });
      },
    };
    const docs = mcpTools(client, { server: "docs" });
    const stale = docs({});
    docs.invalidate();
    release({ tools: [tool("old")] });
    assert.deepEqual((await stale).map((t) => t.name), ["old"]);
    assert.deepEqual((await docs({})).map((t) => t.name), ["new"]);
  });

  it("sets the notification handler with the schema given, and drops the listing when it fires", async () => {
    let handler: (() => void) | undefined;
    const schema = { method: "notifications/tools/list_changed" };
    const { client, requests } = paged([{ tools: [tool("a")] }]);
    client.setNotificationHandler = (given: never, fn: () => void) => {
      assert.equal(given, schema);
      handler = fn;
    };
    const docs = mcpTools(client, { listChanged: schema });
    await docs({});
    assert.ok(!(docs({}) instanceof Promise));
    handler!();
    await docs({});
    assert.equal(requests.length, 2);
  });

  it("drops the listing of every provider following one client: the SDK keeps one handler a notification", async () => {
    const handlers: (() => void)[] = [];
    const { client, requests } = paged([{ tools: [tool("a")] }]);
    client.setNotificationHandler = (_: never, fn: () => void) =>
      void handlers.push(fn);
    const schema = {};
    const one = mcpTools(client, { listChanged: schema });
    const two = mcpTools(client, { listChanged: schema, server: "again" });
    await one({});
    await two({});
    assert.equal(handlers.length, 1);
    handlers[0]!();
    assert.ok(one({}) instanceof Promise && two({}) instanceof Promise);
    await Promise.all([one({}), two({})]);
    assert.equal(requests.length, 4);
  });

  it("names the server from the option, else from getServerVersion(), and refuses a nameless one", () => {
    const { client } = paged([{ tools: [] }], "git");
    assert.equal(mcpTools(client).server, "git");
    assert.equal(mcpTools(client, { server: "mine" }).server, "mine");
    assert.throws(
      () => mcpTools({ listTools: client.listTools }),
      rejectsWith(
        "invalid-option",
        /^Cannot list the tools of an MCP server: the server has no name/,
      ),
    );
    assert.throws(
      () => mcpTools(client, { listChanged: {} }),
      rejectsWith(
        "invalid-option",
        /^Cannot follow the tools of MCP server "git": listChanged was given/,
      ),
    );
  });

  it("rejects with invalid-value naming the server and the tool for a listing that is not one, and keeps nothing", async () => {
    const cases: [unknown, RegExp][] = [
      [undefined, /listTools\(\) resolved to a value without a tools array/],
      [{ tools: {} }, /without a tools array/],
      [{ tools: [{ inputSchema: {} }] }, /: a listed tool has no name$/],
      [
        { tools: [{ name: "x", description: 1, inputSchema: {} }] },
        /^Cannot list the tools of MCP server "docs" tool "x": its description is not a string$/,
      ],
      [
        { tools: [{ name: "x" }] },
        /tool "x": its inputSchema is not an object/,
      ],
      [{ tools: [], nextCursor: "0" }, /gave the cursor "0" twice/],
    ];
    for (const [page, pattern] of cases) {
      const docs = mcpTools({
        listTools: () => Promise.resolve(page as McpToolList),
      }, { server: "docs" });
      if ((page as McpToolList | undefined)?.nextCursor === "0") {
        // The first page's cursor "0" comes back: a loop, not a listing.
        await assert.rejects(
          Promise.resolve(docs({})),
          rejectsWith("invalid-value", pattern),
        );
        continue;
      }
      await assert.rejects(
        Promise.resolve(docs({})),
        (error: unknown) => {
          rejectsWith("invalid-value", pattern)(error);
          assert.equal((error as PromptError).owner, "docs");
          return true;
        },
      );
      const next = docs({});
      assert.ok(next instanceof Promise, "a failed listing is not kept");
      await next.catch(() => {});
    }
  });

  it("wraps a client that throws synchronously or rejects with a non-Error as provider-failed, the cause kept", async () => {
    for (
      const listTools of [
        () => {
          throw "down";
        },
        () => Promise.reject(42),
      ]
    ) {
      const docs = mcpTools({ listTools }, { server: "docs" });
      await assert.rejects(Promise.resolve(docs({})), (error: unknown) => {
        rejectsWith(
          "provider-failed",
          /^Cannot list the tools of MCP server "docs": listTools\(\) rejected: /,
        )(error);
        assert.ok([42, "down"].includes((error as PromptError).cause as never));
        return true;
      });
    }
  });

  it("lists the same tools in the same order however the server pages them", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), {
          maxLength: 30,
        }),
        fc.array(fc.nat(5), { maxLength: 30 }),
        async (names, sizes) => {
          const pages: McpToolList[] = [];
          let at = 0;
          for (const size of sizes) {
            if (at >= names.length) break;
            pages.push({ tools: names.slice(at, at + size).map(tool) });
            at += size;
          }
          pages.push({ tools: names.slice(at).map(tool) });
          pages.forEach((page, i) => {
            if (i < pages.length - 1) page.nextCursor = String(i + 1);
          });
          const listed = await mcpTools(paged(pages).client)({});
          assert.deepEqual(listed.map((t) => t.name), names);
        },
      ),
    );
  });

  it("wraps a listing whose getters or Proxies throw as invalid-value naming the server, the thrown value as cause", async () => {
    const thrown = new Error("getter");
    const hostile: unknown[] = [
      {
        get tools() {
          throw thrown;
        },
      },
      {
        tools: [{
          get name() {
            throw thrown;
          },
          inputSchema: {},
        }],
      },
      {
        tools: [
          new Proxy({}, {
            get() {
              throw thrown;
            },
          }),
        ],
      },
      {
        tools: [{
          name: "x",
          inputSchema: {},
          annotations: new Proxy({}, {
            ownKeys() {
              throw thrown;
            },
          }),
        }],
      },
      {
        tools: [],
        get nextCursor() {
          throw thrown;
        },
      },
    ];
    for (const page of hostile) {
      const docs = mcpTools({
        listTools: () => Promise.resolve(page as McpToolList),
      }, { server: "docs" });
      await assert.rejects(Promise.resolve(docs({})), (error: unknown) => {
        rejectsWith(
          "invalid-value",
          /^Cannot list the tools of MCP server "docs": reading the listing threw: getter$/,
        )(error);
        assert.equal((error as PromptError).cause, thrown);
        return true;
      });
    }
    const docs = mcpTools({
      listTools: () => Promise.resolve({ tools: [], nextCursor: 7 } as never),
    }, { server: "docs" });
    await assert.rejects(
      Promise.resolve(docs({})),
      rejectsWith("invalid-value", /its nextCursor is not a string$/),
    );
  });

  it("keeps the listing as it was: a handler cannot change the annotations of later steps", async () => {
    const annotations = { readOnlyHint: true };
    const { client } = paged([{
      tools: [{ ...tool("a"), annotations }],
    }]);
    const docs = mcpTools(client);
    const prompt = new SystemPrompt();
    prompt.scope(docs.server).tools(docs);
    prompt.on("system-prompt/assemble", (assembly) => {
      const [a] = assembly.tools as unknown as {
        mcp: { annotations: { readOnlyHint: boolean } };
      }[];
      assert.throws(() => (a!.mcp.annotations.readOnlyHint = false));
    });
    await prompt.assemble();
    annotations.readOnlyHint = false; // the server's object, not the listing
    const [a] = await docs({});
    assert.deepEqual(a!.mcp.annotations, { readOnlyHint: true });
  });

  it("keeps a deep-frozen copy of each input schema, the server's objects untouched", async () => {
    const inputSchema = {
      type: "object" as const,
      properties: { q: { type: "string", enum: ["a", "b"] } },
      required: ["q"],
    };
    const annotations = { readOnlyHint: true, title: "Search" };
    const { client } = paged([{
      tools: [{ name: "search", inputSchema, annotations }],
    }]);
    const [search] = await mcpTools(client)({});
    assert.notEqual(search!.parameters, inputSchema);
    assert.deepEqual(search!.parameters, inputSchema);
    assert.equal(
      JSON.stringify(search!.parameters),
      JSON.stringify(inputSchema),
    );
    // Frozen at every depth, the tool itself too: what the registry knows
    // by identity, without a walk of the schema each step.
    const frozen = (value: unknown): boolean =>
      typeof value !== "object" || value === null ||
      (Object.isFrozen(value) && Object.values(value).every(frozen));
    assert.ok(frozen(search));
    assert.equal(Object.isFrozen(inputSchema), false);
    assert.equal(Object.isFrozen(inputSchema.properties.q.enum), false);
    assert.equal(Object.isFrozen(annotations), false);
  });

  it("copies any JSON data to the same JSON, and the registry sends what the server sent", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })),
        async (fields) => {
          const inputSchema = { ...fields, type: "object" as const };
          const { client } = paged([{ tools: [{ name: "a", inputSchema }] }]);
          const docs = mcpTools(client);
          const prompt = new SystemPrompt();
          prompt.scope(docs.server).tools(docs);
          const step = await prompt.render({}, { agent: "x" });
          assert.equal(
            JSON.stringify(step.tools[0]!.parameters),
            JSON.stringify(inputSchema),
          );
          assert.equal(await prompt.render({}, { agent: "x" }), step);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("copies a __proto__ key as an own field, as JSON.parse makes it", async () => {
    const inputSchema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}}}',
    );
    const { client } = paged([{ tools: [{ name: "a", inputSchema }] }]);
    const [a] = await mcpTools(client)({});
    const properties = a!.parameters.properties as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(properties), Object.prototype);
    assert.deepEqual(Object.keys(properties), ["__proto__"]);
    assert.equal(JSON.stringify(a!.parameters), JSON.stringify(inputSchema));
  });

  it("copies what a Proxy's get trap answers, as JSON.stringify and the registry read it", async () => {
    // The trap answers otherwise than the target's own fields; a copy read
    // through descriptors would keep the target's, not what was sent.
    const lying = new Proxy({ type: "object", title: "target" }, {
      get: (target, key, receiver) =>
        key === "title" ? "trap" : Reflect.get(target, key, receiver),
    });
    const throwing = new Proxy({ type: "object", title: "target" }, {
      get: (target, key, receiver) => {
        if (key === "title") throw new Error("no title");
        return Reflect.get(target, key, receiver);
      },
    });
    const listed = async (inputSchema: object) => {
      const { client } = paged([{
        tools: [{ name: "a", inputSchema: inputSchema as { type: "object" } }],
      }]);
      const docs = mcpTools(client);
      const prompt = new SystemPrompt();
      prompt.scope(docs.server).tools(docs);
      return (await prompt.render({}, { agent: "x" })).tools[0]!.parameters;
    };
    assert.equal(
      JSON.stringify(await listed(lying)),
      JSON.stringify(lying),
    );
    // A get trap that throws: given as it came, refused with the path.
    await assert.rejects(
      listed(throwing),
      rejectsWith(
        "invalid-value",
        /threw at parameters\.title when read: no title/,
      ),
    );
  });

  it("gives a schema that is not plain JSON data as it came, for the registry to refuse with the path", async () => {
    class Field {
      type = "string";
    }
    let reads = 0;
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { type: "object", properties: { q: new Field() } },
        /class instance at parameters\.properties\.q/,
      ],
      [{ type: "object", limit: Infinity }, /Infinity at parameters\.limit/],
      [{ type: "object", items: [1, , 2] }, /parameters\.items\[1\]/],
      [{
        type: "object",
        get properties() {
          reads++;
          return { q: { type: "string" } };
        },
      }, /^$/],
    ];
    for (const [inputSchema, refused] of cases) {
      const { client } = paged([{
        tools: [{ name: "a", inputSchema: inputSchema as { type: "object" } }],
      }]);
      const docs = mcpTools(client);
      const [a] = await docs({});
      assert.equal(a!.parameters, inputSchema);
      const prompt = new SystemPrompt();
      prompt.scope(docs.server).tools(docs);
      if (refused.source === "^$") {
        // A getter is read where the registry reads it, each step.
        const before = reads;
        await prompt.render({}, { agent: "x" });
        await prompt.render({}, { agent: "x" });
        assert.ok(reads >= before + 2);
        continue;
      }
      await assert.rejects(prompt.assemble(), (error: unknown) => {
        assert.ok(error instanceof PromptError);
        assert.equal(error.code, "invalid-value");
        assert.match(error.message, refused);
        return true;
      });
    }
  });

  it("through a registry: its failure is the provider's, owned by the scope, with the server's error as cause", async () => {
    const prompt = new SystemPrompt();
    const docs = mcpTools({
      listTools: () => Promise.reject(new Error("Connection closed")),
    }, { server: "docs" });
    prompt.scope(docs.server).tools(docs);
    await assert.rejects(prompt.assemble(), (error: unknown) => {
      assert.ok(error instanceof PromptError);
      assert.equal(error.owner, "docs");
      assert.ok(error.cause instanceof PromptError);
      assert.match(error.cause.message, /Connection closed$/);
      return true;
    });
  });
});
