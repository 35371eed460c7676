// A read inside a tool's `parameters` that throws (a Proxy trap, a revoked
// proxy, a getter) is the tool's `invalid-value`: the provider returned
// normally, and the path at fault is named.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PromptError, SystemPrompt } from "../mod.ts";

const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

const CASES: [string, () => unknown, unknown, string][] = [
  [
    "a trap that throws",
    () => ({
      type: "object",
      properties: {
        a: new Proxy({}, {
          ownKeys() {
            throw new Error("boom");
          },
        }),
      },
    }),
    "boom",
    "parameters.properties.a",
  ],
  [
    "a revoked proxy",
    () => ({ properties: { a: revoked() } }),
    TypeError,
    "parameters.properties.a",
  ],
  [
    "a getter that throws a non-Error",
    () => ({
      properties: {
        get b() {
          throw 42;
        },
      },
    }),
    42,
    "parameters.properties.b",
  ],
  ["a revoked proxy as the schema", revoked, TypeError, "parameters"],
];

async function rejection(step: Promise<unknown>): Promise<PromptError> {
  try {
    await step;
  } catch (error) {
    assert.ok(error instanceof PromptError);
    return error;
  }
  assert.fail("the step did not reject");
}

describe("a throwing read inside a tool's parameters", () => {
  for (const [label, parameters, thrown, path] of CASES) {
    it(`${label} is the tool's invalid-value, naming the tool, owner and path, with the thrown value as cause`, async () => {
      for (const call of ["assemble", "render"] as const) {
        const prompt = new SystemPrompt();
        prompt.scope("mcp").tools(() => [{
          name: "search",
          description: "Search.",
          parameters: parameters() as never,
        }]);
        const error = await rejection(prompt[call]());
        assert.equal(error.code, "invalid-value", call);
        assert.equal(error.tool, "search");
        assert.equal(error.owner, "mcp");
        assert.match(error.message, /^Cannot list tool "search" of "mcp": /);
        assert.ok(error.message.includes(`tool "search"`), error.message);
        assert.ok(error.message.includes(` at ${path}`), error.message);
        if (typeof thrown === "function") {
          assert.ok(error.cause instanceof (thrown as typeof TypeError));
        } else if (thrown === "boom") {
          assert.equal((error.cause as Error).message, "boom");
        } else assert.equal(error.cause, thrown);
      }
    });
  }

  it("after a step that read the schema fine, a later throwing read is still the tool's invalid-value", async () => {
    let hostile = false;
    const properties = {
      get q(): unknown {
        if (hostile) throw new Error("gone");
        return { type: "string" };
      },
    };
    const prompt = new SystemPrompt();
    prompt.scope("mcp").tools(() => [{
      name: "search",
      description: "Search.",
      parameters: { type: "object", properties },
    }]);
    await prompt.render();
    hostile = true;
    const error = await rejection(prompt.render());
    assert.equal(error.code, "invalid-value");
    assert.equal(error.tool, "search");
    assert.ok(error.message.includes("at parameters.properties.q"));
  });
});
