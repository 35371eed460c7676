// Stable key order: a listing that only reorders keys (at any depth of
// `parameters`, and the tool's own fields) gives the same bytes in the
// step's tools and in every adapter's request; a real change does not.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { SystemPrompt, type ToolSchema } from "../../mod.ts";
import { EVERY_ADAPTER } from "../support/every_adapter.ts";
import { type Json, permuted, schema } from "../support/json_permutations.ts";

const RUNS = { numRuns: 300, seed: 20261202 };

async function bytes(prompt: SystemPrompt): Promise<string[]> {
  const step = await prompt.render();
  const assembly = await prompt.assemble();
  return [
    JSON.stringify(step.tools),
    JSON.stringify(assembly.tools),
    ...EVERY_ADAPTER.map(([, adapt]) => JSON.stringify(adapt(assembly))),
  ];
}

describe("tool key order", () => {
  it("a listing that only reorders keys gives byte-identical tools and requests", async () => {
    await fc.assert(
      fc.asyncProperty(
        schema,
        fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
        async (parameters, seed) => {
          const tool = {
            name: "t",
            description: "d",
            parameters,
            deferLoading: true,
          };
          let current: unknown = tool;
          const prompt = new SystemPrompt();
          prompt.scope("mcp").tools(() => [current as ToolSchema]);
          const first = await bytes(prompt);
          current = permuted(tool as unknown as Json, seed);
          assert.deepEqual(await bytes(prompt), first);
          // A fresh registry that saw only the reordered listing keeps its
          // order: the same content, maybe other bytes.
          const fresh = new SystemPrompt();
          fresh.scope("mcp").tools(() => [current as ToolSchema]);
          const [tools] = await bytes(fresh);
          assert.deepEqual(JSON.parse(tools!), JSON.parse(first[0]!));
        },
      ),
      RUNS,
    );
  });

  it("a real change gives other bytes, a key added goes last, a key removed disappears", async () => {
    await fc.assert(
      fc.asyncProperty(
        schema,
        fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
        async (parameters, seed) => {
          let current: unknown = { name: "t", description: "d", parameters };
          const prompt = new SystemPrompt();
          prompt.scope("mcp").tools(() => [current as ToolSchema]);
          const [first] = await bytes(prompt);
          const changed = {
            ...permuted(parameters, seed) as object,
            zz_added: 1,
          };
          current = { name: "t", description: "d", parameters: changed };
          const [second] = await bytes(prompt);
          assert.notEqual(second, first);
          const copy = JSON.parse(second!)[0].parameters;
          assert.deepEqual(Object.keys(copy), [
            ...Object.keys(parameters).filter((k) => k !== "zz_added"),
            "zz_added",
          ]);
          current = { name: "t", description: "d", parameters };
          const [third] = await bytes(prompt);
          assert.equal(third, first);
        },
      ),
      RUNS,
    );
  });
});
