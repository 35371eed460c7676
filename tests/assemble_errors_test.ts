// What assemble() rejects with when user code fails while a step resolves:
// a throwing text function, variable or tool provider is provider-failed, a
// wrong-typed answer invalid-value, each naming the part and its owner, the
// original throw as cause; the registry is intact afterwards.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PromptError, SystemPrompt } from "../mod.ts";

const boom = new Error("boom");
const fail = () => {
  throw boom;
};

async function rejection(prompt: SystemPrompt): Promise<PromptError> {
  let caught: unknown;
  await assert.rejects(prompt.assemble(), (error) => ((caught = error), true));
  assert.ok(caught instanceof PromptError);
  return caught;
}

describe("assemble() resolution errors", () => {
  it("throws provider-failed naming the section and owner of a throwing text function", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("git").section({ name: "git:status", order: 50, text: fail });
    const error = await rejection(prompt);
    assert.equal(error.code, "provider-failed");
    assert.equal(error.section, "git:status");
    assert.equal(error.owner, "git");
    assert.equal(error.cause, boom);
    assert.equal(
      error.message,
      'Cannot assemble section "git:status" of "git": its text function threw: boom',
    );
  });

  it("throws provider-failed naming the variable and owner of a throwing provider", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("agent-loop").variable("model", fail);
    const error = await rejection(prompt);
    assert.equal(error.code, "provider-failed");
    assert.equal(error.variable, "model");
    assert.equal(error.owner, "agent-loop");
    assert.equal(error.cause, boom);
  });

  it("names the root registry when there is no owner", async () => {
    const prompt = new SystemPrompt();
    prompt.variable("model", fail);
    const error = await rejection(prompt);
    assert.equal(error.owner, undefined);
    assert.match(error.message, /of the root registry/);
  });

  it("throws provider-failed naming the owner of a throwing tool provider", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("bash").tools(fail);
    const error = await rejection(prompt);
    assert.equal(error.code, "provider-failed");
    assert.equal(error.owner, "bash");
    assert.equal(error.cause, boom);
  });

  it("keeps a non-Error throw as the cause", async () => {
    const prompt = new SystemPrompt();
    prompt.variable("x", () => {
      throw "plain";
    });
    const error = await rejection(prompt);
    assert.equal(error.cause, "plain");
    assert.match(error.message, /threw: plain$/);
  });

  it("throws invalid-value for a text function that returns a non-string", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("p").section({ name: "s", order: 0, text: () => 5 as never });
    const error = await rejection(prompt);
    assert.equal(error.code, "invalid-value");
    assert.equal(error.section, "s");
    assert.equal(error.owner, "p");
  });

  for (const value of [null, 1, {}, Promise.resolve(1)]) {
    it(`throws invalid-value for a variable provider returning ${Object.prototype.toString.call(value)}`, async () => {
      const prompt = new SystemPrompt();
      prompt.variable("v", () => value as never);
      const error = await rejection(prompt);
      assert.equal(error.code, "invalid-value");
      assert.equal(error.variable, "v");
    });
  }

  it("accepts an empty string as a value", async () => {
    const prompt = new SystemPrompt();
    prompt.variable("v", () => "");
    assert.equal((await prompt.assemble()).variables.v, "");
  });

  for (
    const [label, provided] of [
      ["a non-array", {}],
      ["a nameless tool", [{ description: "", parameters: {} }]],
      ["an empty name", [{ name: "", description: "", parameters: {} }]],
      ["null", [null]],
    ] as const
  ) {
    it(`throws invalid-value for a tool provider returning ${label}`, async () => {
      const prompt = new SystemPrompt();
      prompt.scope("p").tools(() => provided as never);
      const error = await rejection(prompt);
      assert.equal(error.code, "invalid-value");
      assert.equal(error.owner, "p");
    });
  }

  it("leaves the registry intact after a failure", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "ok", order: 0, text: "fine" });
    const plugin = prompt.scope("flaky");
    plugin.variable("x", fail);
    await rejection(prompt);
    plugin.dispose();
    const assembly = await prompt.assemble();
    assert.deepEqual(assembly.sections.map((s) => s.name), ["ok"]);
  });
});

/** Values user code may return that throw when read. */
function hostileValues(): [string, () => unknown][] {
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const throwingThen = () => ({
    get then() {
      throw boom;
    },
  });
  const throwingFields = () => ({
    get sections() {
      throw boom;
    },
    get tools() {
      throw boom;
    },
    get length() {
      throw boom;
    },
  });
  return [
    ["a revoked proxy", revoked],
    ["an object whose then getter throws", throwingThen],
    ["an object whose getters throw", throwingFields],
  ];
}

describe("hostile values user code returns", () => {
  for (const [label, make] of hostileValues()) {
    for (const async of [false, true]) {
      const how = async ? "a promise of" : "synchronously";
      it(`from a handler (${how} ${label}) reject with a PromptError naming the handler`, async () => {
        const prompt = new SystemPrompt();
        prompt.section({ name: "s", order: 0, text: "x" });
        prompt.scope("h").on("system-prompt/assemble", function bad() {
          return (async ? Promise.resolve().then(make) : make()) as never;
        });
        for (const step of [() => prompt.assemble(), () => prompt.render()]) {
          await assert.rejects(step(), (error) => {
            assert.ok(error instanceof PromptError, String(error));
            assert.ok(
              ["handler-failed", "invalid-value"].includes(error.code),
              error.code,
            );
            assert.equal(error.handler, "bad");
            assert.equal(error.owner, "h");
            assert.match(error.message, /handler "bad" of "h"/);
            return true;
          });
        }
      });

      const providers: [string, (prompt: SystemPrompt, fn: never) => void][] = [
        ["a variable provider", (p, fn) => p.scope("o").variable("v", fn)],
        [
          "a section text function",
          (p, fn) => p.scope("o").section({ name: "s", order: 0, text: fn }),
        ],
        ["a tool provider", (p, fn) => p.scope("o").tools(fn)],
        ["an item provider", (p, fn) => {
          p.section({ name: "l", order: 0, text: "", list: {} });
          p.scope("o").items("l", fn);
        }],
      ];
      for (const [kind, register] of providers) {
        it(`from ${kind} (${how} ${label}) reject with a PromptError naming its owner`, async () => {
          const prompt = new SystemPrompt();
          register(
            prompt,
            (() => async ? Promise.resolve().then(make) : make()) as never,
          );
          for (const step of [() => prompt.assemble(), () => prompt.render()]) {
            await assert.rejects(step(), (error) => {
              assert.ok(error instanceof PromptError, String(error));
              assert.ok(
                ["provider-failed", "invalid-value"].includes(error.code),
                error.code,
              );
              assert.equal(error.owner, "o");
              return true;
            });
          }
        });
      }
    }
  }
});
