// List items (docs/layout.md) from item providers: what an item provider
// returns is user data that can throw when it is read, and an item function
// or item provider that returns a promise must not leave its rejection
// unhandled (docs/design.md, "Async providers and cancellation").
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type ItemInput,
  type ItemProvider,
  PromptError,
  SystemPrompt,
  type ToolSchema,
} from "../mod.ts";

const LIST = { name: "skills", order: 10, text: "Skills:", list: {} };

function revokedArray(): unknown[] {
  const { proxy, revoke } = Proxy.revocable<unknown[]>([], {});
  revoke();
  return proxy;
}

const thrown = Object.create(null);

/** Results that throw (`thrown`, or a TypeError) when they are read. */
const HOSTILE_RESULTS: readonly (readonly [string, () => unknown])[] = [
  ["an entry getter that throws", () => {
    const entries: unknown[] = [];
    Object.defineProperty(entries, 0, {
      enumerable: true,
      get() {
        throw thrown;
      },
    });
    return entries;
  }],
  ["an item whose name getter throws", () => [{
    get name(): string {
      throw thrown;
    },
    order: 0,
    text: "x",
  }]],
  ["an item that is a throwing proxy", () => [
    new Proxy({}, {
      get() {
        throw thrown;
      },
    }),
  ]],
  ["an array whose length throws", () =>
    new Proxy([], {
      get(target, key) {
        if (key === "length") throw thrown;
        return Reflect.get(target, key);
      },
    })],
  ["a revoked proxy", revokedArray],
];

async function rejection(prompt: SystemPrompt): Promise<PromptError> {
  try {
    await prompt.assemble();
  } catch (error) {
    assert.ok(error instanceof PromptError, "rejected with something else");
    return error;
  }
  assert.fail("assemble() resolved");
}

describe("items() provider results that throw when read", () => {
  for (const [label, result] of HOSTILE_RESULTS) {
    it(`rejects ${label} as provider-failed naming the list and owner`, async () => {
      const prompt = new SystemPrompt();
      prompt.section(LIST);
      prompt.scope("skills-plugin").items(
        "skills",
        result as unknown as ItemProvider,
      );
      const error = await rejection(prompt);
      assert.equal(error.code, "provider-failed");
      assert.equal(error.section, "skills");
      assert.equal(error.owner, "skills-plugin");
      assert.match(error.message, /item provider/);
      assert.ok("cause" in error);
    });
  }

  it("keeps the thrown value as cause", async () => {
    const prompt = new SystemPrompt();
    prompt.section(LIST);
    prompt.scope("skills-plugin").items(
      "skills",
      HOSTILE_RESULTS[1]![1] as unknown as ItemProvider,
    );
    assert.equal((await rejection(prompt)).cause, thrown);
  });
});

describe("tools() provider returning a revoked proxy", () => {
  it("rejects as provider-failed naming the owner", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("bash").tools(() => revokedArray() as ToolSchema[]);
    const error = await rejection(prompt);
    assert.equal(error.code, "provider-failed");
    assert.equal(error.owner, "bash");
    assert.ok(error.cause instanceof TypeError);
  });
});

describe("item functions and item providers returning a promise", () => {
  const PLACES: readonly (readonly [
    string,
    (prompt: SystemPrompt, value: unknown) => void,
  ])[] = [
    [
      "an item text function",
      (prompt, value) =>
        prompt.scope("p").item("skills", {
          name: "pdf",
          order: 0,
          text: () => value as string,
        }),
    ],
    [
      "an item order function",
      (prompt, value) =>
        prompt.scope("p").item("skills", {
          name: "pdf",
          order: () => value as number,
          text: "x",
        }),
    ],
    [
      "an item provider",
      (prompt, value) =>
        prompt.scope("p").items("skills", () => value as ItemInput[]),
    ],
  ];
  for (const [label, register] of PLACES) {
    const sync = label === "an item order function";
    it(
      sync
        ? `reports a promise ${label} returned as invalid-value (order functions are synchronous), handling its rejection`
        : `awaits a promise ${label} returned, and reports its rejection as provider-failed`,
      async () => {
        const prompt = new SystemPrompt();
        prompt.section(LIST);
        // Were it left unhandled, the test runner would fail the run.
        register(prompt, Promise.reject(new Error("late")));
        const error = await rejection(prompt);
        assert.equal(error.code, sync ? "invalid-value" : "provider-failed");
        if (sync) assert.match(error.message, /returned a promise/);
      },
    );
  }
});
