// Deep-frozen tools: a schema (or a whole tool) that can never change is
// known by its identity after its first copy, so a step does not walk it
// again; anything that can still change (a getter, an unfrozen part, a
// fresh object) is compared as before, and an edit is never answered with
// a stale copy.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { SystemPrompt, type ToolSchema } from "../mod.ts";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const field of Object.values(value)) deepFreeze(field);
    Object.freeze(value);
  }
  return value;
}

/** A proxy that counts the reads of its target's fields. */
function counted<T extends object>(
  target: T,
): { value: T; reads: () => number } {
  let reads = 0;
  const value = new Proxy(target, {
    get(object, key, receiver) {
      reads++;
      return Reflect.get(object, key, receiver);
    },
  });
  return { value, reads: () => reads };
}

function registry(provider: () => readonly ToolSchema[]): SystemPrompt {
  const prompt = new SystemPrompt();
  prompt.scope("fs").tools(provider);
  return prompt;
}

const schema = () => ({
  type: "object",
  properties: { path: { type: "string", enum: ["a", "b"] } },
  required: ["path"],
});

describe("deep-frozen tools", () => {
  it("reads no field of a deep-frozen tool returned again", async () => {
    const parameters = deepFreeze(schema());
    const tool = counted(Object.freeze({
      name: "read",
      description: "Reads.",
      parameters,
    }));
    const prompt = registry(() => [tool.value]);
    const first = await prompt.render({}, { agent: "a" });
    const before = tool.reads();
    for (let i = 0; i < 3; i++) {
      assert.equal(await prompt.render({}, { agent: "a" }), first);
    }
    assert.equal(tool.reads(), before);
  });

  it("reads no field of a deep-frozen schema in a fresh wrapper each step", async () => {
    const parameters = counted(deepFreeze(schema()));
    const prompt = registry(() => [
      { name: "read", description: "Reads.", parameters: parameters.value },
    ]);
    const first = await prompt.render({}, { agent: "a" });
    const before = parameters.reads();
    assert.equal(await prompt.render({}, { agent: "a" }), first);
    assert.equal(parameters.reads(), before);
  });

  it("knows by identity an equal deep-frozen schema that replaced the first (a listing again)", async () => {
    // An MCP server listed again after a change notification, with the
    // same tools: new deep-frozen objects, equal to the first. After one
    // walk that finds them equal, they are known by identity too.
    const first = deepFreeze(schema());
    const again = counted(deepFreeze(schema()));
    let parameters: ToolSchema["parameters"] = first;
    const prompt = registry(() => [
      Object.freeze({ name: "read", description: "Reads.", parameters }),
    ]);
    const step = await prompt.render({}, { agent: "a" });
    parameters = again.value;
    assert.equal(await prompt.render({}, { agent: "a" }), step);
    const before = again.reads();
    for (let i = 0; i < 3; i++) {
      assert.equal(await prompt.render({}, { agent: "a" }), step);
    }
    assert.equal(again.reads(), before);
  });

  it("sees a frozen tool's getter that answers otherwise on the next step", async () => {
    let description = "Reads.";
    const tool = Object.freeze(Object.defineProperties({}, {
      name: { value: "read", enumerable: true },
      description: { get: () => description, enumerable: true },
      parameters: { value: deepFreeze(schema()), enumerable: true },
    })) as unknown as ToolSchema;
    const prompt = registry(() => [tool]);
    await prompt.render({}, { agent: "a" });
    description = "Reads files.";
    const step = await prompt.render({}, { agent: "a" });
    assert.equal(step.tools[0]!.description, "Reads files.");
  });

  it("sees an edit in place under a frozen root whose child is not frozen", async () => {
    const inner = { type: "string" } as Record<string, unknown>;
    const parameters = Object.freeze({
      type: "object",
      properties: Object.freeze({ path: inner }),
    });
    const prompt = registry(() => [
      Object.freeze({ name: "read", description: "Reads.", parameters }),
    ]);
    await prompt.render({}, { agent: "a" });
    inner.description = "A file.";
    const step = await prompt.render({}, { agent: "a" });
    assert.deepEqual(step.tools[0]!.parameters, {
      type: "object",
      properties: { path: { type: "string", description: "A file." } },
    });
  });

  it("answers every step as a fresh registry does, whatever is frozen and edited", async () => {
    // A schema of nested objects and arrays; some subtrees frozen; between
    // steps, edits land on the parts that are not frozen.
    const leaf = fc.oneof(
      fc.string({ maxLength: 3 }),
      fc.integer(),
      fc.boolean(),
    );
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.array(tie("tree"), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom("a", "b", "c"), tie("tree"), {
          maxKeys: 3,
        }),
      ),
    }));
    const root = fc.dictionary(fc.constantFrom("type", "x", "y"), tree, {
      maxKeys: 3,
    });
    await fc.assert(
      fc.asyncProperty(
        root,
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom("a", "b", "z"), leaf), {
          maxLength: 6,
        }),
        fc.boolean(),
        async (parameters, freezes, edits, wrap) => {
          const nodes: object[] = [];
          const collect = (value: unknown) => {
            if (typeof value !== "object" || value === null) return;
            nodes.push(value);
            Object.values(value).forEach(collect);
          };
          collect(parameters);
          for (const n of freezes) deepFreeze(nodes[n % nodes.length]);
          const tool = { name: "t", description: "T.", parameters };
          if (!wrap) Object.freeze(tool);
          const prompt = registry(() => [wrap ? { ...tool } : tool]);
          await prompt.render({}, { agent: "a" });
          for (const [n, key, value] of edits) {
            const node = nodes[n % nodes.length] as Record<string, unknown>;
            if (Object.isFrozen(node)) continue;
            if (Array.isArray(node)) node[0] = value;
            else node[key] = value;
            const ours = await prompt.render({}, { agent: "a" });
            const fresh = await registry(() => [tool]).render({});
            assert.deepEqual(ours.tools, fresh.tools);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
