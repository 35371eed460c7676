// What the registry does with the user code and data it is given: handlers,
// listeners, odd thrown values, async providers, tool copies and schemas,
// the audit, serialisation.
import { describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import {
  type PromptAssembly,
  type PromptChange,
  PromptError,
  SystemPrompt,
  type ToolSchema,
} from "../mod.ts";

const nullProto = () => Object.create(null) as object;
const throwingToString = () => ({
  toString() {
    throw new Error("no string for you");
  },
});

/** Asserts `error` is a PromptError with `code`, `cause` and `fields`. */
function isPromptError(
  code: string,
  cause: unknown,
  fields: Record<string, unknown> = {},
) {
  return (error: unknown) => {
    assert.ok(error instanceof PromptError, `not a PromptError: ${error}`);
    assert.equal(error.code, code);
    assert.equal(error.cause, cause);
    for (const [key, value] of Object.entries(fields)) {
      assert.equal((error as unknown as Record<string, unknown>)[key], value);
    }
    assert.equal(typeof error.message, "string");
    return true;
  };
}

describe("handlers and listeners are called with this undefined", () => {
  it("calls sync and async assemble handlers without a this", async () => {
    const prompt = new SystemPrompt();
    const seen: unknown[] = [];
    prompt.on("system-prompt/assemble", function (this: unknown) {
      seen.push(this);
    });
    prompt.on("system-prompt/assemble", async function (this: unknown) {
      seen.push(this);
      await Promise.resolve();
    });
    prompt.on("system-prompt/assemble", function (this: unknown) {
      seen.push(this);
    });
    await prompt.assemble();
    assert.deepEqual(seen, [undefined, undefined, undefined]);
  });

  it("calls change listeners without a this", () => {
    const prompt = new SystemPrompt();
    const seen: unknown[] = [];
    prompt.on("system-prompt/change", function (this: unknown) {
      seen.push(this);
    });
    prompt.variable("x", () => "1");
    assert.deepEqual(seen, [undefined]);
  });
});

describe("change events arrive in the order the changes happened", () => {
  it("delivers a change made by a listener after the current event reached every listener", () => {
    const prompt = new SystemPrompt();
    const first: string[] = [];
    const second: string[] = [];
    const show = (c: PromptChange) => `${c.action} ${c.name}`;
    prompt.on("system-prompt/change", (change) => {
      first.push(show(change));
      if (change.action === "unregister" && change.name === "s") {
        prompt.section({ name: "s", order: 0, text: "again" });
      }
    });
    prompt.on(
      "system-prompt/change",
      (change) => void second.push(show(change)),
    );
    const off = prompt.section({ name: "s", order: 0, text: "once" });
    off();
    const expected = ["register s", "unregister s", "register s"];
    assert.deepEqual(first, expected);
    assert.deepEqual(second, expected);
  });

  it("lets an observer mirror the registry from events", async () => {
    const prompt = new SystemPrompt();
    const mirror = new Set<string>();
    prompt.on("system-prompt/change", (change) => {
      if (change.action === "register") mirror.add(change.name!);
      else mirror.delete(change.name!);
    });
    prompt.on("system-prompt/change", (change) => {
      // A plugin that keeps "b" present whenever "a" goes.
      if (change.name === "a" && change.action === "unregister") {
        prompt.section({ name: "b", order: 1, text: "B" });
      }
    });
    const offA = prompt.section({ name: "a", order: 0, text: "A" });
    offA();
    const live = (await prompt.assemble()).sections.map((s) => s.name);
    assert.deepEqual([...mirror].sort(), live);
  });

  it("gives a listener added during an event the events after it", () => {
    const prompt = new SystemPrompt();
    const late: string[] = [];
    prompt.on("system-prompt/change", (change) => {
      if (change.name === "a") {
        prompt.on("system-prompt/change", (c) => void late.push(c.name!));
        prompt.variable("b", () => "");
      }
    });
    prompt.variable("a", () => "");
    assert.deepEqual(late, ["b"]);
  });
});

describe("a change listener that throws any value", () => {
  for (
    const [label, make] of [
      ["a null-prototype object", nullProto],
      ["an object whose toString throws", throwingToString],
      ["undefined", () => undefined],
      ["a symbol", () => Symbol("s")],
    ] as const
  ) {
    it(`reports ${label} as listener-failed and runs later listeners`, () => {
      const errors: PromptError[] = [];
      const prompt = new SystemPrompt({
        onListenerError: (e) => void errors.push(e),
      });
      const thrown = make();
      prompt.on("system-prompt/change", () => {
        throw thrown;
      });
      const later = mock.fn();
      prompt.on("system-prompt/change", later);
      prompt.variable("x", () => "1");
      assert.equal(later.mock.callCount(), 1);
      assert.equal(errors.length, 1);
      isPromptError("listener-failed", thrown)(errors[0]);
    });
  }

  it("does not stop scope.dispose() half-way", () => {
    const prompt = new SystemPrompt({ onListenerError: () => {} });
    prompt.on("system-prompt/change", () => {
      throw throwingToString();
    });
    const plugin = prompt.scope("p");
    plugin.section({ name: "a", order: 0, text: "A" });
    plugin.variable("v", () => "1");
    plugin.tools(() => [{ name: "t", description: "", parameters: {} }]);
    plugin.on("system-prompt/assemble", () => {});
    plugin.item("l", { name: "i", order: 0, text: "" });
    plugin.items("l", () => []);
    plugin.dispose();
    assert.equal(plugin.disposed, true);
    const registrations = prompt.registrations();
    assert.deepEqual(registrations, {
      sections: [],
      contexts: [],
      variables: [],
      toolProviders: [],
      handlers: [],
      items: [],
      itemProviders: [],
      layers: [],
      toolOrder: ["<unlisted-tools>"],
    });
  });

  it("keeps registering when onListenerError itself throws, and says so on console.error", () => {
    const prompt = new SystemPrompt({
      onListenerError: () => {
        throw new Error("hook broke");
      },
    });
    prompt.on("system-prompt/change", () => {
      throw new Error("listener broke");
    });
    const consoleError = mock.method(console, "error", () => {});
    try {
      const off = prompt.variable("x", () => "1");
      off();
      assert.equal(consoleError.mock.callCount(), 2);
    } finally {
      consoleError.mock.restore();
    }
    assert.deepEqual(prompt.registrations().variables, []);
  });
});

describe("user code that throws any value rejects with a PromptError", () => {
  it("names a section function that throws a null-prototype object", async () => {
    const prompt = new SystemPrompt();
    const thrown = nullProto();
    prompt.scope("p").section({
      name: "s",
      order: 0,
      text: () => {
        throw thrown;
      },
    });
    await assert.rejects(
      prompt.assemble(),
      isPromptError("provider-failed", thrown, { section: "s", owner: "p" }),
    );
  });

  it("names a handler whose result has a throwing getter", async () => {
    const prompt = new SystemPrompt();
    const thrown = throwingToString();
    prompt.scope("p").on("system-prompt/assemble", function reshape() {
      return {
        get sections(): never {
          throw thrown;
        },
      } as unknown as PromptAssembly;
    });
    await assert.rejects(
      prompt.assemble(),
      isPromptError("invalid-value", thrown, {
        handler: "reshape",
        owner: "p",
      }),
    );
  });

  it("names by position a handler whose name getter throws", async () => {
    const prompt = new SystemPrompt();
    const handler = () => {
      throw nullProto();
    };
    Object.defineProperty(handler, "name", {
      get() {
        throw new Error("no name");
      },
    });
    prompt.on("system-prompt/assemble", handler);
    await assert.rejects(prompt.assemble(), {
      code: "handler-failed",
      handler: "#0",
    });
  });

  it("names a handler returning a thenable that rejects with an odd value", async () => {
    const prompt = new SystemPrompt();
    const thrown = throwingToString();
    prompt.scope("p").on("system-prompt/assemble", function late() {
      return {
        then(_: unknown, reject: (e: unknown) => void) {
          reject(thrown);
        },
      } as PromiseLike<undefined>;
    });
    await assert.rejects(
      prompt.assemble(),
      isPromptError("handler-failed", thrown, { handler: "late", owner: "p" }),
    );
  });

  it("names the tool provider whose tool has a throwing name getter", async () => {
    const prompt = new SystemPrompt();
    const thrown = nullProto();
    prompt.scope("p").tools(() => [{
      get name(): string {
        throw thrown;
      },
      description: "",
      parameters: {},
    }]);
    await assert.rejects(
      prompt.assemble(),
      isPromptError("provider-failed", thrown, { owner: "p" }),
    );
  });

  it("reports a handler that leaves a null tool as invalid-value", async () => {
    const prompt = new SystemPrompt();
    prompt.on("system-prompt/assemble", (assembly) => {
      assembly.tools.push(null as unknown as ToolSchema);
    });
    await assert.rejects(prompt.assemble(), { code: "invalid-value" });
  });
});

describe("async providers", () => {
  for (
    const [label, register] of [
      [
        "a variable provider",
        (p: SystemPrompt, value: unknown) =>
          p.variable("v", () => value as string),
      ],
      [
        "a section function",
        (p: SystemPrompt, value: unknown) =>
          p.section({ name: "s", order: 0, text: () => value as string }),
      ],
      [
        "a tool provider",
        (p: SystemPrompt, value: unknown) =>
          p.tools(() => value as ToolSchema[]),
      ],
    ] as const
  ) {
    it(`reports ${label} whose promise rejects as provider-failed, the rejection as cause`, async () => {
      const prompt = new SystemPrompt();
      const late = new Error("late");
      // Were the rejection left unhandled, the test runner would fail the run.
      register(prompt, Promise.reject(late));
      await assert.rejects(prompt.assemble(), (error) => {
        assert.ok(error instanceof PromptError);
        assert.equal(error.code, "provider-failed");
        assert.equal(error.cause, late);
        assert.match(error.message, /rejected: late$/);
        return true;
      });
    });

    it(`rejects with aborted when ${label} returns a thenable that never settles and the signal aborts`, async () => {
      const prompt = new SystemPrompt();
      const then = mock.fn();
      register(prompt, { then });
      const controller = new AbortController();
      const pending = prompt.assemble({}, { signal: controller.signal });
      controller.abort(new Error("stop"));
      await assert.rejects(pending, { code: "aborted" });
      assert.equal(then.mock.callCount(), 1);
    });

    it(`reports ${label} whose promise resolves to the wrong type as invalid-value`, async () => {
      const prompt = new SystemPrompt();
      register(prompt, Promise.resolve(42));
      await assert.rejects(prompt.assemble(), { code: "invalid-value" });
    });
  }
});

describe("copies read properties, not just own fields", () => {
  it("copies name, description and parameters of a class instance with getters", async () => {
    class Bash implements ToolSchema {
      get name() {
        return "bash";
      }
      get description() {
        return "Runs a command.";
      }
      get parameters() {
        return { type: "object" };
      }
    }
    const prompt = new SystemPrompt();
    prompt.tools(() => [new Bash()]);
    const [tool] = (await prompt.assemble()).tools;
    assert.deepEqual(JSON.parse(JSON.stringify(tool)), {
      name: "bash",
      description: "Runs a command.",
      parameters: { type: "object" },
    });
  });

  it("stores the name a tool name getter returned when it was validated", async () => {
    let reads = 0;
    const prompt = new SystemPrompt();
    prompt.tools(() => [{
      get name() {
        return reads++ === 0 ? "t" : (42 as unknown as string);
      },
      description: "",
      parameters: {},
    }]);
    const { tools } = await prompt.assemble();
    assert.equal(tools[0]!.name, "t");
  });

  it("stores the section text a text getter returned when it was validated", async () => {
    let reads = 0;
    const prompt = new SystemPrompt();
    prompt.section({
      name: "s",
      order: 0,
      get text() {
        return reads++ === 0 ? "fine" : (42 as unknown as string);
      },
    });
    assert.equal((await prompt.assemble()).sections[0]!.text, "fine");
    assert.equal((await prompt.assemble()).sections[0]!.text, "fine");
  });
});

describe("tool schemas are not shared mutable state", () => {
  const schema = () => ({
    type: "object",
    properties: { command: { type: "string" }, timeout: { type: "number" } },
  });

  it("rejects a handler that edits parameters in place, naming it, and keeps later assemblies whole", async () => {
    const prompt = new SystemPrompt<{ agent: string }>();
    const parameters = schema();
    prompt.tools(() => [{ name: "bash", description: "", parameters }]);
    prompt.scope("sandbox").on(
      "system-prompt/assemble",
      function noTimeout(assembly, context) {
        if (context.agent !== "sub") return;
        const properties = assembly.tools[0]!.parameters.properties as Record<
          string,
          unknown
        >;
        delete properties.timeout;
      },
    );
    await assert.rejects(prompt.assemble({ agent: "sub" }), (error) => {
      assert.ok(error instanceof PromptError);
      assert.equal(error.code, "handler-failed");
      assert.equal(error.handler, "noTimeout");
      assert.equal(error.owner, "sandbox");
      assert.ok(error.cause instanceof TypeError);
      assert.match(error.message, /instead of editing them in place/);
      return true;
    });
    const later = await prompt.assemble({ agent: "main" });
    assert.deepEqual(later.tools[0]!.parameters, schema());
  });

  it("lets a handler replace parameters with an edited copy, for one assembly", async () => {
    const prompt = new SystemPrompt<{ agent: string }>();
    prompt.tools(
      () => [{ name: "bash", description: "", parameters: schema() }],
    );
    prompt.on("system-prompt/assemble", (assembly, context) => {
      if (context.agent !== "sub") return;
      assembly.tools = assembly.tools.map((tool) => {
        const { timeout: _, ...properties } = tool.parameters
          .properties as Record<string, unknown>;
        return { ...tool, parameters: { ...tool.parameters, properties } };
      });
    });
    const sub = await prompt.assemble({ agent: "sub" });
    const main = await prompt.assemble({ agent: "main" });
    assert.deepEqual(Object.keys(sub.tools[0]!.parameters.properties!), [
      "command",
    ]);
    assert.deepEqual(main.tools[0]!.parameters, schema());
  });

  it("reports parameters that cannot be frozen as invalid-value naming the tool", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("p").tools(() => [{
      name: "blob",
      description: "",
      parameters: { bytes: new Uint8Array(4) },
    }]);
    await assert.rejects(prompt.assemble(), (error) => {
      assert.ok(error instanceof PromptError);
      assert.equal(error.code, "invalid-value");
      assert.equal(error.tool, "blob");
      assert.equal(error.owner, "p");
      assert.match(error.message, /a class instance at parameters\.bytes/);
      return true;
    });
  });
});

describe("the audit only records", () => {
  it("assembles tools with deep parameters the same with and without it", async () => {
    const prompt = new SystemPrompt();
    let parameters: Record<string, unknown> = { type: "object" };
    for (let i = 0; i < 50; i++) {
      parameters = { type: "object", inner: parameters };
    }
    prompt.tools(() => [{ name: "loop", description: "", parameters }]);
    prompt.on("system-prompt/assemble", function dropNothing(assembly) {
      assembly.variables.x = "1";
    });
    const plain = await prompt.assemble();
    const audited = await prompt.assemble({}, { audit: true });
    assert.deepEqual(audited.tools.map((t) => t.name), ["loop"]);
    assert.deepEqual(audited.audit, [{
      handler: "dropNothing",
      kind: "variable",
      name: "x",
      change: "added",
    }]);
    assert.deepEqual({ ...audited, audit: undefined }, {
      ...plain,
      audit: undefined,
    });
  });

  it("fails the same way with and without it when a handler leaves a null section", async () => {
    const prompt = new SystemPrompt();
    prompt.on("system-prompt/assemble", (assembly) => {
      assembly.tools.push(null as unknown as ToolSchema);
      assembly.sections.push(null as never);
    });
    const outcome = (p: Promise<unknown>) =>
      p.then(() => "ok", (e: PromptError) => `${e.name} ${e.code}`);
    assert.equal(
      await outcome(prompt.assemble({}, { audit: true })),
      await outcome(prompt.assemble()),
    );
  });
});

describe("PromptError serialisation", () => {
  it("keeps the message and fields in JSON, and the cause as its message", () => {
    const error = new PromptError("provider-failed", "Cannot resolve", {
      variable: "v",
      owner: "p",
      cause: new Error("boom"),
    });
    assert.deepEqual(JSON.parse(JSON.stringify(error)), {
      name: "PromptError",
      code: "provider-failed",
      message: "Cannot resolve",
      variable: "v",
      owner: "p",
      cause: "boom",
    });
    const odd = new PromptError("handler-failed", "m", {
      cause: throwingToString(),
    });
    assert.equal(typeof JSON.stringify(odd), "string");
  });

  it("survives structuredClone as a plain Error with its message and cause", () => {
    const error = new PromptError("missing-value", "Cannot render", {
      section: "s",
      cause: new Error("inner"),
    });
    const clone = structuredClone(error);
    assert.ok(clone instanceof Error);
    assert.equal(clone.message, "Cannot render");
    assert.equal((clone.cause as Error).message, "inner");
    assert.equal((clone as Partial<PromptError>).code, undefined);
  });
});
