// The registry's tool copies: what a provider returned is compared with the
// last copy of each tool, never copied again while it is equal, and copied
// where it changed; an edit in place is seen; the caller's objects are
// never frozen or modified.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type JsonSchema,
  PromptError,
  SystemPrompt,
  type ToolSchema,
} from "../mod.ts";
import { toolOwner } from "../inspect.ts";

const SCHEMA = {
  type: "object",
  properties: {
    path: { type: "string", description: "A file." },
    lines: { type: "array", items: { type: "integer" } },
  },
  required: ["path"],
};
const READ: ToolSchema = {
  name: "read",
  description: "Reads.",
  parameters: SCHEMA,
};

function registry(provider: () => readonly ToolSchema[]): SystemPrompt {
  const prompt = new SystemPrompt();
  prompt.scope("fs").tools(provider);
  return prompt;
}

describe("tool copies", () => {
  it("keeps the same step, tools and parameters for fresh wrappers around shared schemas", async () => {
    const prompt = registry(() => [{ ...READ }]);
    const first = await prompt.render({}, { agent: "a" });
    const second = await prompt.render({}, { agent: "a" });
    assert.equal(second, first);
    assert.equal(second.tools[0]!.parameters, first.tools[0]!.parameters);
    const [a, b] = [await prompt.assemble(), await prompt.assemble()];
    assert.equal(a.tools[0]!.parameters, b.tools[0]!.parameters);
    assert.equal(toolOwner(b.tools[0]!), "fs");
  });

  it("keeps the same copies for a listing parsed from JSON each step", async () => {
    const text = JSON.stringify([READ]);
    const prompt = registry(() => JSON.parse(text));
    const first = await prompt.render({}, { agent: "a" });
    assert.equal(await prompt.render({}, { agent: "a" }), first);
  });

  it("sees a schema edited in place between steps, as a fresh registry does", async () => {
    const schema = structuredClone(SCHEMA) as typeof SCHEMA & {
      additionalProperties?: boolean;
    };
    const tools = [{ name: "read", description: "Reads.", parameters: schema }];
    const prompt = registry(() => tools);
    const first = await prompt.render({}, { agent: "a" });
    schema.properties.path.description = "A file, relative to the root.";
    schema.additionalProperties = false;
    const second = await prompt.render({}, { agent: "a" });
    const fresh = await registry(() => tools).render({}, { agent: "a" });
    assert.equal(JSON.stringify(second.tools), JSON.stringify(fresh.tools));
    assert.notEqual(second.tools, first.tools);
    // What did not change is the same frozen copy.
    const was = first.tools[0]!.parameters as Record<
      string,
      Record<string, unknown>
    >;
    const now = second.tools[0]!.parameters as Record<
      string,
      Record<string, unknown>
    >;
    assert.equal(now.properties!.lines, was.properties!.lines);
    assert.notEqual(now.properties!.path, was.properties!.path);
    assert.equal((await prompt.assemble()).tools[0]!.parameters, now);
  });

  it("sees a tool edited in place and a host field that changed", async () => {
    const tool: Record<string, unknown> = {
      ...READ,
      parameters: structuredClone(SCHEMA),
    };
    const prompt = registry(() => [tool as unknown as ToolSchema]);
    await prompt.render();
    tool.description = "Reads files.";
    tool.deferLoading = true;
    const step = await prompt.render();
    assert.equal(step.tools[0]!.description, "Reads files.");
    assert.equal(
      (step.tools[0] as unknown as Record<string, unknown>).deferLoading,
      true,
    );
    delete tool.deferLoading;
    assert.equal("deferLoading" in (await prompt.render()).tools[0]!, false);
  });

  it("sees a mutated array the provider returns again", async () => {
    const tools: ToolSchema[] = [READ];
    const prompt = registry(() => tools);
    const first = await prompt.render();
    tools.push({ name: "write", description: "Writes.", parameters: {} });
    assert.deepEqual((await prompt.render()).tools.map((t) => t.name), [
      "read",
      "write",
    ]);
    tools.pop();
    assert.deepEqual((await prompt.render()).tools, first.tools);
  });

  it("never freezes or modifies the caller's objects, and freezes its copies deep", async () => {
    const schema = structuredClone(SCHEMA);
    const tool = {
      name: "read",
      description: "Reads.",
      parameters: schema,
      meta: { a: [1] },
    };
    const before = JSON.stringify(tool);
    const prompt = registry(() => [tool]);
    const { tools } = await prompt.assemble();
    await prompt.render();
    assert.equal(Object.isFrozen(schema), false);
    assert.equal(Object.isFrozen(schema.properties.path), false);
    assert.equal(Object.isFrozen(tool.meta), false);
    assert.deepEqual(Object.getOwnPropertySymbols(schema), []);
    assert.equal(JSON.stringify(tool), before);
    const copy = tools[0]!.parameters as Record<
      string,
      Record<string, unknown>
    >;
    assert.notEqual(copy, schema);
    assert.ok(Object.isFrozen(copy.properties!.path));
    assert.ok(Object.isFrozen(copy.required));
    assert.deepEqual(copy, schema);
  });

  it("sees a getter that answers differently on each read, and never loops", async () => {
    let reads = 0;
    const parameters = {
      get type() {
        return `t${reads++}`;
      },
    };
    const prompt = registry(
      () => [{
        name: "x",
        description: "",
        parameters: parameters as JsonSchema,
      }],
    );
    const a = await prompt.render();
    const b = await prompt.render();
    assert.notEqual(a.tools[0]!.parameters.type, b.tools[0]!.parameters.type);
  });

  it("refuses a cycle, however deep, and nesting past 1000 levels, as invalid-value naming the tool", async () => {
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.properties = { self: cyclic };
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    for (const parameters of [cyclic, deep]) {
      const prompt = registry(
        () => [{ name: "x", description: "", parameters }],
      );
      await assert.rejects(prompt.render(), {
        code: "invalid-value",
        tool: "x",
        owner: "fs",
      });
    }
    // A cycle that appears after a good step is refused too.
    const schema: Record<string, unknown> = { type: "object", properties: {} };
    const prompt = registry(
      () => [{ name: "x", description: "", parameters: schema }],
    );
    await prompt.render();
    (schema.properties as Record<string, unknown>).self = schema;
    await assert.rejects(
      prompt.render(),
      /refer to themselves at parameters\.properties\.self/,
    );
  });

  it("keeps registrations() as it was", () => {
    const prompt = registry(() => [READ]);
    assert.deepEqual(prompt.registrations().toolProviders, [{ owner: "fs" }]);
  });
});

describe("tool copies under attack", () => {
  it("a tool provider whose array turns hostile after a good step is reported as the array's fault", async () => {
    let hostile = false;
    const tools = [READ];
    const prompt = registry(() =>
      hostile
        ? new Proxy(tools, {
          get(target, key) {
            if (key === "0") throw new Error("index");
            return Reflect.get(target, key);
          },
        })
        : tools
    );
    await prompt.render();
    hostile = true;
    await assert.rejects(prompt.render(), {
      code: "provider-failed",
      owner: "fs",
    });
  });

  it("a Proxy whose keys differ on every read is copied as one of its answers, never looping", async () => {
    let reads = 0;
    const parameters = new Proxy({}, {
      ownKeys: () => [`k${reads++}`],
      getOwnPropertyDescriptor: () => ({
        value: 1,
        enumerable: true,
        configurable: true,
      }),
      get: () => 1,
    });
    const prompt = registry(() => [{ name: "x", description: "", parameters }]);
    const step = await prompt.render();
    assert.equal(Object.keys(step.tools[0]!.parameters).length, 1);
    const next = await prompt.render();
    assert.equal(Object.keys(next.tools[0]!.parameters).length, 1);
  });

  it("a getter that disposes the provider or registers another mid-copy leaves the step consistent", async () => {
    const prompt = new SystemPrompt();
    const scope = prompt.scope("fs");
    let dispose: (() => void) | undefined;
    const parameters = {
      get type() {
        dispose?.();
        prompt.scope("late").tools(
          () => [{ name: "late", description: "", parameters: {} }],
        );
        return "object";
      },
    };
    dispose = scope.tools(() => [{ name: "x", description: "", parameters }]);
    const step = await prompt.render();
    assert.deepEqual(step.tools.map((t) => t.name), ["x"]);
    dispose = undefined;
    assert.deepEqual((await prompt.render()).tools.map((t) => t.name), [
      "late",
    ]);
  });

  it("copies a 100,000-node schema once and compares it after", async () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) {
      properties[`f${i}`] = {
        type: "string",
        enum: ["a", "b"],
        description: `${i}`,
      };
    }
    const shared = { type: "object", properties };
    const prompt = registry(
      () => [{ name: "big", description: "", parameters: shared }],
    );
    const first = await prompt.render();
    assert.equal(await prompt.render(), first);
    (properties.f9999 as { description: string }).description = "changed";
    const second = await prompt.render();
    const copy = second.tools[0]!.parameters.properties as Record<
      string,
      Record<string, unknown>
    >;
    assert.equal(copy.f9999!.description, "changed");
    const was = first.tools[0]!.parameters.properties as Record<
      string,
      unknown
    >;
    assert.equal(copy.f0, was.f0);
  });

  it("a thrown non-Error from a schema getter is the cause, shown in the message", async () => {
    const cause = Object.create(null);
    const parameters = {
      get type(): string {
        throw cause;
      },
    };
    const prompt = registry(() => [{ name: "x", description: "", parameters }]);
    await assert.rejects(prompt.assemble(), (error: unknown) => {
      assert.ok(error instanceof PromptError);
      assert.equal(error.cause, cause);
      assert.equal(error.code, "invalid-value");
      return true;
    });
  });
  it("refuses a class instance that takes a plain object's place, as a fresh registry does", async () => {
    class Node {
      type = "string";
    }
    let node: object = { type: "string" };
    const parameters = { type: "object", properties: { path: node } };
    const prompt = registry(() => [{
      name: "read",
      description: "",
      parameters: { ...parameters, properties: { path: node } },
    }]);
    await prompt.render({}, { agent: "a" });
    node = new Node();
    const refused = (error: unknown) =>
      error instanceof PromptError && error.code === "invalid-value" &&
      /class instance at parameters\.properties\.path/.test(
        error.message,
      );
    await assert.rejects(prompt.render({}, { agent: "a" }), refused);
    await assert.rejects(
      registry(
        () => [{
          name: "read",
          description: "",
          parameters: { properties: { path: node } },
        }],
      )
        .render({}, { agent: "a" }),
      refused,
    );
  });

  it("keeps the copy of an object it accepted whose prototype is replaced in place (the one edit not seen)", async () => {
    // The walk asks an object its prototype when it first meets it at a
    // place of the copy, not again each step (the walk's dearest read).
    const path = { type: "string" };
    const parameters = { type: "object", properties: { path } };
    const prompt = registry(
      () => [{ name: "read", description: "", parameters }],
    );
    const first = await prompt.render({}, { agent: "a" });
    class Node {}
    Object.setPrototypeOf(path, Node.prototype);
    // Its fields are still compared, and its copy is still its JSON data (an
    // inherited field that for-in meets is a difference).
    assert.equal(await prompt.render({}, { agent: "a" }), first);
    // Once its fields change, the copy walk asks again, and refuses it.
    path.type = "number";
    await assert.rejects(
      prompt.render({}, { agent: "a" }),
      /class instance at parameters\.properties\.path/,
    );
  });
});
