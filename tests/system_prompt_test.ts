// deno-lint-ignore-file require-await -- async handlers that never await are the cases under test
import { describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import {
  type PromptAssembly,
  type PromptChange,
  PromptError,
  renderPrompt,
  SystemPrompt,
} from "../mod.ts";

const names = (assembly: PromptAssembly) =>
  assembly.sections.map((s) => s.name);

describe("SystemPrompt.section()", () => {
  it("sorts by ascending order, ties by name in code-point order", async () => {
    const prompt = new SystemPrompt();
    for (
      const [name, order] of [
        ["tool:read", 110],
        ["b", 0],
        ["\uff5e", 0],
        ["😀", 0],
        ["a", 0],
        ["early", -5],
        ["tool:bash", 105],
      ] as const
    ) prompt.section({ name, order, text: name });
    assert.deepEqual(names(await prompt.assemble()), [
      "early",
      "a",
      "b",
      "\uff5e",
      "😀",
      "tool:bash",
      "tool:read",
    ]);
  });

  it("does not depend on registration order", async () => {
    const a = new SystemPrompt();
    const b = new SystemPrompt();
    const sections = [1, 2, 3, 4].map((i) => ({
      name: `s${i % 2}${i}`,
      order: i % 2,
      text: "",
    }));
    for (const s of sections) a.section(s);
    for (const s of [...sections].reverse()) b.section(s);
    assert.deepEqual(names(await a.assemble()), names(await b.assemble()));
  });

  it("resolves function texts with the context", async () => {
    const prompt = new SystemPrompt<{ user?: string }>();
    prompt.section({
      name: "greet",
      order: 0,
      text: (context) => `Hi ${context.user ?? "you"}`,
    });
    assert.equal(
      (await prompt.assemble({ user: "Ada" })).sections[0]?.text,
      "Hi Ada",
    );
    assert.equal((await prompt.assemble()).sections[0]?.text, "Hi you");
  });

  it("leaves references in the text uninterpolated", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "p", order: 0, text: "You are {{model}}." });
    assert.equal(
      (await prompt.assemble()).sections[0]?.text,
      "You are {{model}}.",
    );
  });

  it("throws duplicate-section naming the existing owner", () => {
    const prompt = new SystemPrompt();
    prompt.scope("auth").section({ name: "intro", order: 0, text: "" });
    assert.throws(() => prompt.section({ name: "intro", order: 1, text: "" }), {
      name: "PromptError",
      code: "duplicate-section",
      section: "intro",
      owner: "auth",
      message:
        'Cannot add section "intro" of the root registry: "auth" already added it',
    });
  });

  it("accepts the name again once the first section is disposed", async () => {
    const prompt = new SystemPrompt();
    const off = prompt.section({ name: "intro", order: 0, text: "one" });
    off();
    prompt.section({ name: "intro", order: 0, text: "two" });
    assert.equal((await prompt.assemble()).sections[0]?.text, "two");
  });

  it("throws invalid-section for an empty name or a non-finite order", () => {
    const prompt = new SystemPrompt();
    for (
      const bad of [{ name: "", order: 0 }, { name: "a", order: NaN }, {
        name: "a",
        order: Infinity,
      }]
    ) {
      assert.throws(() => prompt.section({ ...bad, text: "" }), {
        name: "PromptError",
        code: "invalid-section",
      });
    }
  });

  it("carries a declared stability into the assembly, and rejects an unknown one", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "clock", order: 9, text: "t", stability: "step" });
    assert.equal((await prompt.assemble()).sections[0]?.stability, "step");
    assert.throws(
      () =>
        prompt.section({
          name: "x",
          order: 0,
          text: "",
          stability: "often" as never,
        }),
      { name: "PromptError", code: "invalid-section", section: "x" },
    );
  });

  it("throws TypeError for fields of the wrong JS type", () => {
    const prompt = new SystemPrompt();
    const bad = [
      null,
      "x",
      { name: 1, order: 0, text: "" },
      { name: "a", order: "0", text: "" },
      { name: "a", order: 0, text: 5 },
      { name: "a", order: 0 },
    ];
    for (const section of bad) {
      assert.throws(() => prompt.section(section as never), TypeError);
    }
  });
});

describe("SystemPrompt.variable()", () => {
  it("resolves every variable against the context, undefined for no value", async () => {
    const prompt = new SystemPrompt<{ model?: string }>();
    prompt.variable("model", (context) => context.model);
    prompt.variable("git.branch", () => "main");
    const { variables } = await prompt.assemble();
    assert.deepEqual({ ...variables }, {
      model: undefined,
      "git.branch": "main",
    });
    assert.ok(Object.hasOwn(variables, "model"));
  });

  it("builds a null-prototype variables object", async () => {
    const { variables } = await new SystemPrompt().assemble();
    assert.equal(Object.getPrototypeOf(variables), null);
    assert.equal(variables.toString, undefined);
    assert.equal(variables.constructor, undefined);
  });

  it("allows __proto__ and constructor as names without leaking", async () => {
    const prompt = new SystemPrompt();
    prompt.variable("__proto__", () => "p");
    prompt.variable("constructor", () => "c");
    prompt.section({
      name: "s",
      order: 0,
      text: "{{__proto__}} {{constructor}}",
    });
    const assembly = await prompt.assemble();
    assert.equal(renderPrompt(assembly), "p c");
    assert.equal(Object.getPrototypeOf(assembly.variables), null);
  });

  for (const name of ["", "1x", "a b", "a..b", ".a", "a.", "a-b", "{{a}}"]) {
    it(`throws invalid-variable-name for ${JSON.stringify(name)}`, () => {
      assert.throws(() => new SystemPrompt().variable(name, () => ""), {
        name: "PromptError",
        code: "invalid-variable-name",
        variable: name,
      });
    });
  }

  it("throws duplicate-variable naming the owner", () => {
    const prompt = new SystemPrompt();
    prompt.scope("agent-loop").variable("model", () => "a");
    assert.throws(() => prompt.variable("model", () => "b"), {
      code: "duplicate-variable",
      variable: "model",
      owner: "agent-loop",
      message:
        'Cannot add variable "model" of the root registry: "agent-loop" already added it',
    });
  });

  it("throws TypeError for a provider that is not a function", () => {
    assert.throws(
      () => new SystemPrompt().variable("x", "y" as never),
      TypeError,
    );
  });
});

describe("SystemPrompt.tools()", () => {
  it("lists the tools of every provider in name order, calling each with the context and options", async () => {
    const prompt = new SystemPrompt<{ n?: number }>();
    const second = mock.fn(
      () => [{ name: "b", description: "", parameters: {} }],
    );
    prompt.tools(() => [{ name: "a", description: "", parameters: {} }]);
    prompt.tools(second);
    const { tools } = await prompt.assemble({ n: 1 });
    assert.deepEqual(tools.map((t) => t.name), ["a", "b"]);
    assert.deepEqual(second.mock.calls[0]?.arguments, [{ n: 1 }, {
      signal: undefined,
    }]);
    await prompt.assemble();
    assert.equal(second.mock.callCount(), 2);
  });

  it("throws duplicate-tool for two tools with one name in one assembly", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("one").tools(
      () => [{ name: "bash", description: "", parameters: {} }],
    );
    prompt.scope("two").tools(
      () => [{ name: "bash", description: "", parameters: {} }],
    );
    await assert.rejects(prompt.assemble(), {
      code: "duplicate-tool",
      tool: "bash",
      owner: "one", // the holder; the message names both
      message: 'Cannot list tool "bash" of "two": "one" already added it',
    });
  });

  it("throws TypeError for a provider that is not a function", () => {
    assert.throws(() => new SystemPrompt().tools([] as never), TypeError);
  });
});

describe("SystemPrompt.on()", () => {
  it("throws TypeError for an unknown event or a non-function handler", () => {
    const prompt = new SystemPrompt();
    assert.throws(
      () => prompt.on("system-prompt/asemble" as never, (() => {}) as never),
      TypeError,
    );
    assert.throws(
      () => prompt.on("system-prompt/assemble", null as never),
      TypeError,
    );
  });
});

describe("SystemPrompt change events", () => {
  it("emits one event per register and unregister, with kind, action, name and owner", () => {
    const prompt = new SystemPrompt();
    const changes: PromptChange[] = [];
    prompt.on("system-prompt/change", (change) => void changes.push(change));
    const scope = prompt.scope("p");
    scope.section({ name: "s", order: 0, text: "" });
    scope.variable("v", () => "");
    const offTools = prompt.tools(() => []);
    scope.on("system-prompt/assemble", () => {});
    offTools();
    offTools();
    scope.dispose();
    assert.deepEqual(changes, [
      { kind: "section", action: "register", name: "s", owner: "p" },
      { kind: "variable", action: "register", name: "v", owner: "p" },
      { kind: "tools", action: "register" },
      { kind: "assemble-handler", action: "register", owner: "p" },
      { kind: "tools", action: "unregister" },
      { kind: "assemble-handler", action: "unregister", owner: "p" },
      { kind: "variable", action: "unregister", name: "v", owner: "p" },
      { kind: "section", action: "unregister", name: "s", owner: "p" },
    ]);
  });

  it("hands listeners a frozen event", () => {
    const prompt = new SystemPrompt();
    let seen: PromptChange | undefined;
    prompt.on("system-prompt/change", (change) => void (seen = change));
    prompt.variable("x", () => "");
    assert.ok(Object.isFrozen(seen));
  });

  it("keeps the registration when a listener throws, and reports listener-failed", async () => {
    const errors: PromptError[] = [];
    const prompt = new SystemPrompt({
      onListenerError: (error) => void errors.push(error),
    });
    const boom = new Error("boom");
    const after = mock.fn();
    prompt.scope("watcher").on("system-prompt/change", function audit() {
      throw boom;
    });
    prompt.on("system-prompt/change", after);
    const off = prompt.variable("x", () => "1");
    assert.equal((await prompt.assemble()).variables.x, "1");
    assert.equal(after.mock.callCount(), 1);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]?.code, "listener-failed");
    assert.equal(errors[0]?.owner, "watcher");
    assert.equal(errors[0]?.handler, "audit");
    assert.equal(errors[0]?.cause, boom);
    assert.equal(
      errors[0]?.message,
      'Cannot notify "system-prompt/change" listener "audit" of "watcher": it threw on register of variable "x": boom',
    );
    off();
    assert.equal(errors.length, 2);
  });

  it("reports to console.error by default", (t) => {
    const error = t.mock.method(console, "error", () => {});
    const prompt = new SystemPrompt();
    prompt.on("system-prompt/change", () => {
      throw new Error("boom");
    });
    prompt.variable("x", () => "1");
    assert.equal(error.mock.callCount(), 1);
    assert.equal(
      (error.mock.calls[0]?.arguments[0] as PromptError).code,
      "listener-failed",
    );
  });

  it("stops calling a disposed listener", () => {
    const prompt = new SystemPrompt();
    const listener = mock.fn();
    const off = prompt.on("system-prompt/change", listener);
    off();
    prompt.variable("x", () => "");
    assert.equal(listener.mock.callCount(), 0);
  });
});

describe("SystemPrompt disposers", () => {
  it("are idempotent and Disposable", async () => {
    const prompt = new SystemPrompt();
    const off = prompt.section({ name: "a", order: 0, text: "a" });
    const other = prompt.section({ name: "b", order: 0, text: "b" });
    off();
    off();
    off[Symbol.dispose]();
    assert.deepEqual(names(await prompt.assemble()), ["b"]);
    {
      using _c = prompt.variable("c", () => "c");
      assert.ok("c" in (await prompt.assemble()).variables);
    }
    assert.ok(!("c" in (await prompt.assemble()).variables));
    other();
  });

  it("do not remove a later registration with the same name", async () => {
    const prompt = new SystemPrompt();
    const off = prompt.variable("x", () => "1");
    off();
    prompt.variable("x", () => "2");
    off();
    assert.equal((await prompt.assemble()).variables.x, "2");
  });
});

describe("SystemPrompt.assemble()", () => {
  it("passes {} as the context when none is given", async () => {
    const prompt = new SystemPrompt();
    const provider = mock.fn(() => "v");
    prompt.variable("x", provider);
    await prompt.assemble();
    assert.deepEqual(provider.mock.calls[0]?.arguments, [{}, {
      signal: undefined,
    }]);
  });

  it("returns fresh arrays and objects every call", async () => {
    const prompt = new SystemPrompt();
    const tool = { name: "t", description: "d", parameters: {} };
    prompt.section({ name: "s", order: 0, text: "x" });
    prompt.variable("v", () => "1");
    prompt.tools(() => [tool]);
    const first = await prompt.assemble();
    first.sections[0]!.text = "changed";
    first.sections.push({ name: "z", order: 9, text: "z" });
    first.tools[0]!.description = "changed";
    first.variables.v = "changed";
    const second = await prompt.assemble();
    assert.deepEqual(second.sections, [{ name: "s", order: 0, text: "x" }]);
    assert.equal(second.tools[0]?.description, "d");
    assert.equal(tool.description, "d");
    assert.equal(second.variables.v, "1");
    assert.notEqual(first.sections, second.sections);
  });

  it("carries the owner of each section", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("bash").section({ name: "tool:bash", order: 105, text: "x" });
    prompt.section({ name: "root", order: 0, text: "y" });
    assert.deepEqual((await prompt.assemble()).sections, [
      { name: "root", order: 0, text: "y" },
      { name: "tool:bash", order: 105, text: "x", owner: "bash" },
    ]);
  });

  it("snapshots registrations: changes during an in-flight assembly affect only later ones", async () => {
    const prompt = new SystemPrompt();
    const offA = prompt.section({ name: "a", order: 0, text: "a" });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    prompt.on("system-prompt/assemble", async () => {
      await gate;
    });
    const inFlight = prompt.assemble();
    offA();
    prompt.section({ name: "b", order: 0, text: "b" });
    const offLate = prompt.on("system-prompt/assemble", (assembly) => {
      assembly.sections = [];
    });
    release();
    assert.deepEqual(names(await inFlight), ["a"]);
    offLate();
    assert.deepEqual(names(await prompt.assemble()), ["b"]);
  });

  it("snapshots registrations made by a provider during resolution", async () => {
    const prompt = new SystemPrompt();
    let added = false;
    prompt.section({
      name: "a",
      order: 0,
      text: () => {
        if (!added) prompt.section({ name: "b", order: 1, text: "b" });
        added = true;
        return "a";
      },
    });
    assert.deepEqual(names(await prompt.assemble()), ["a"]);
    assert.deepEqual(names(await prompt.assemble()), ["a", "b"]);
  });

  it("keeps concurrent assemblies with different contexts independent", async () => {
    const prompt = new SystemPrompt<{ agent: string; delay: number }>();
    prompt.variable("agent", (context) => context.agent);
    prompt.on("system-prompt/assemble", async (assembly, context) => {
      await new Promise((resolve) => setTimeout(resolve, context.delay));
      assembly.variables.seen = context.agent;
    });
    const results = await Promise.all([
      prompt.assemble({ agent: "slow", delay: 20 }),
      prompt.assemble({ agent: "fast", delay: 0 }),
    ]);
    assert.deepEqual(
      results.map((r) => [r.variables.agent, r.variables.seen]),
      [
        ["slow", "slow"],
        ["fast", "fast"],
      ],
    );
  });

  it("never rejects synchronously: a failure is a rejected promise", () => {
    const prompt = new SystemPrompt();
    prompt.variable("x", () => {
      throw new Error("boom");
    });
    const result = prompt.assemble();
    assert.ok(result instanceof Promise);
    return assert.rejects(result, { code: "provider-failed" });
  });
});

describe("SystemPrompt assemble waterfall", () => {
  it("runs handlers in registration order with the context", async () => {
    const prompt = new SystemPrompt<{ tag: string }>();
    prompt.on("system-prompt/assemble", (assembly, context) => {
      assembly.sections.push({
        name: "one",
        order: 1,
        text: `1${context.tag}`,
      });
    });
    prompt.on("system-prompt/assemble", async (assembly, context) => ({
      ...assembly,
      variables: { ...assembly.variables, tag: context.tag },
    }));
    prompt.on("system-prompt/assemble", (assembly) => {
      assembly.sections.push({ name: "two", order: 2, text: "2{{tag}}" });
    });
    const assembly = await prompt.assemble({ tag: "!" });
    assert.equal(renderPrompt(assembly), "1!\n\n2!");
  });

  it("lets handlers filter tools and rewrite sections", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "a", order: 0, text: "old" });
    prompt.tools(() => [
      { name: "read", description: "", parameters: {} },
      { name: "bash", description: "", parameters: {} },
    ]);
    prompt.on("system-prompt/assemble", (assembly) => {
      assembly.tools = assembly.tools.filter((t) => t.name !== "bash");
      assembly.sections[0]!.text = "new";
    });
    const assembly = await prompt.assemble();
    assert.deepEqual(assembly.tools.map((t) => t.name), ["read"]);
    assert.equal(renderPrompt(assembly), "new");
  });

  it("throws handler-failed naming the handler and owner, sync or async", async () => {
    const boom = new Error("boom");
    for (
      const handler of [function shrink() {
        throw boom;
      }, async function shrink() {
        throw boom;
      }]
    ) {
      const prompt = new SystemPrompt();
      prompt.on("system-prompt/assemble", () => {});
      prompt.scope("trimmer").on("system-prompt/assemble", handler);
      await assert.rejects(prompt.assemble(), (error) => {
        assert.ok(error instanceof PromptError);
        assert.equal(error.code, "handler-failed");
        assert.equal(error.owner, "trimmer");
        assert.equal(error.handler, "shrink");
        assert.equal(error.cause, boom);
        assert.equal(
          error.message,
          'Cannot run "system-prompt/assemble" handler "shrink" of "trimmer": it threw: boom',
        );
        return true;
      });
    }
  });

  it("names an anonymous handler by its position", async () => {
    const prompt = new SystemPrompt();
    prompt.on("system-prompt/assemble", () => {});
    prompt.on(
      "system-prompt/assemble",
      [() => {
        throw new Error("x");
      }][0]!,
    );
    await assert.rejects(prompt.assemble(), {
      code: "handler-failed",
      handler: "#1",
    });
  });

  it("throws invalid-value for a handler that returns something other than an assembly", async () => {
    for (const value of [null, 42, "x", { sections: [] }]) {
      const prompt = new SystemPrompt();
      prompt.scope("p").on("system-prompt/assemble", () => value as never);
      await assert.rejects(prompt.assemble(), {
        code: "invalid-value",
        owner: "p",
      });
    }
  });

  it("throws duplicate-tool when handlers leave two tools with one name", async () => {
    const prompt = new SystemPrompt();
    prompt.tools(() => [{ name: "bash", description: "", parameters: {} }]);
    prompt.on("system-prompt/assemble", (assembly) => {
      assembly.tools.push({
        name: "bash",
        description: "again",
        parameters: {},
      });
    });
    await assert.rejects(prompt.assemble(), {
      code: "duplicate-tool",
      tool: "bash",
    });
  });
});
