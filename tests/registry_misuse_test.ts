// The registry under hostile use (docs/guide.md: "Registry and scopes",
// "Several agents", "Runtime context", "One call per step"; docs/design.md:
// "Async providers and cancellation"): user code that registers or disposes
// mid-assembly, thrown values that are not Errors, hostile names, huge
// inputs, concurrent assemblies, providers that mutate what they returned,
// odd abort timings. One `it` per behaviour.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import fc from "fast-check";
import {
  type AssembleArgs,
  type AssembleContext,
  type AssembleHandler,
  type ItemInput,
  type PromptAssembly,
  PromptError,
  type PromptItem,
  type PromptSection,
  renderContext,
  type RenderedStep,
  renderPrompt,
  SystemPrompt,
  TOOL_ORDER_REST,
  type ToolSchema,
} from "../mod.ts";
import { toolLayer, toolOwner } from "../inspect.ts";
import { stepBlocks } from "../src/adapters/_blocks.ts";

const tool = (name: string, description = `${name} tool`): ToolSchema => ({
  name,
  description,
  parameters: { type: "object" },
});

/** What render() must give: assemble(), then the two renderers. */
/** A step's fields as a plain object (a step is an instance of its own class). */
const plain = (step: RenderedStep): RenderedStep => ({
  prompt: step.prompt,
  tools: step.tools,
  context: step.context,
  blocks: step.blocks,
});

async function expected<C>(
  prompt: SystemPrompt<C>,
  context: C = {} as C,
  layer?: string,
): Promise<RenderedStep> {
  const assembly = await prompt.assemble(
    ...[context, layer === undefined ? {} : { layer }] as AssembleArgs<C>,
  );
  return {
    prompt: renderPrompt(assembly),
    tools: assembly.tools,
    context: renderContext(assembly),
    blocks: stepBlocks(assembly),
  };
}

async function turns(count = 5): Promise<void> {
  for (let i = 0; i < count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/**
 * Runs `work` (its rejection is expected and ignored) and returns the
 * rejections nobody handled meanwhile. Under Node the listener sees them;
 * Deno's node:test fails the running test on its own as well.
 */
async function unhandledDuring(work: () => Promise<unknown>): Promise<
  unknown[]
> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => void seen.push(reason);
  process.on("unhandledRejection", listener);
  try {
    await work().catch(() => {});
    await turns();
  } finally {
    process.off("unhandledRejection", listener);
  }
  return seen;
}

async function rejection(work: Promise<unknown>): Promise<PromptError> {
  try {
    await work;
  } catch (error) {
    assert.ok(
      error instanceof PromptError,
      `expected a PromptError, got ${String(error)}`,
    );
    return error;
  }
  assert.fail("expected a rejection");
}

function listSection<C = AssembleContext>(
  name: string,
  order = 0,
): PromptSection<C> {
  return { name, order, text: `${name}:`, list: {} };
}

describe("render(): the per-agent memory never returns a stale step", () => {
  it("sees an item a provider edited in place between two steps", async () => {
    const prompt = new SystemPrompt();
    prompt.section(listSection("todos"));
    // A todo plugin keeps its items and ticks them off in place.
    const items: ItemInput[] = [{ name: "a", order: 0, text: "- [ ] a" }];
    prompt.items("todos", () => items);
    await prompt.render({}, { agent: "main" });
    items[0]!.text = "- [x] a";
    const step = await prompt.render({}, { agent: "main" });
    assert.deepEqual(plain(step), await expected(prompt));
    assert.equal(step.prompt, "todos:\n- [x] a");
  });

  it("compares what the step read, not a second read of the provider's array", async () => {
    const prompt = new SystemPrompt();
    prompt.section(listSection("l"));
    const first = { name: "a", order: 0, text: "first" };
    const later = { name: "a", order: 0, text: "later" };
    let reads = 0;
    const entries: ItemInput[] = [];
    Object.defineProperty(entries, 0, {
      enumerable: true,
      get: () => (reads++ === 0 ? first : later),
    });
    prompt.items("l", () => entries);
    await prompt.render({}, { agent: "main" });
    const step = await prompt.render({}, { agent: "main" });
    // Every read from now on gives `later`: so does assemble().
    assert.deepEqual(plain(step), await expected(prompt));
  });

  it("accepts a provider's array whose constructor is not Array, as assemble() does", async () => {
    const prompt = new SystemPrompt();
    prompt.section(listSection("l"));
    prompt.items("l", () => {
      const items = [{ name: "a", order: 0, text: "- a" }];
      // Any own `constructor` (a subclass, a tagged array, a deserialised one).
      Object.defineProperty(items, "constructor", { value: 5 });
      return items;
    });
    const want = await expected(prompt);
    assert.equal(want.prompt, "l:\n- a");
    assert.deepEqual(plain(await prompt.render({}, { agent: "main" })), want);
  });

  it("gives back a step that the caller's edits of an earlier step cannot change", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: "Be brief." });
    prompt.context({ name: "now", order: 0, text: "Monday." });
    const tools = [tool("bash")];
    prompt.tools(() => tools);
    const first = await prompt.render({}, { agent: "main" });
    // A host that hides the tools for one call, or marks the context sent.
    try {
      (first as { tools: readonly ToolSchema[] }).tools = [];
      (first as { context: string }).context = "";
    } catch {
      // A frozen step is fine too.
    }
    const second = await prompt.render({}, { agent: "main" });
    assert.deepEqual(plain(second), await expected(prompt));
  });

  it("gives tools whose toolOwner and toolLayer stay known when a handler is registered", async () => {
    const prompt = new SystemPrompt();
    prompt.layer("sub").scope("bash").tools(() => [tool("bash")]);
    const before = await prompt.render({}, { layer: "sub" });
    assert.equal(toolOwner(before.tools[0]!), "bash");
    // An unrelated, observing handler.
    prompt.scope("log").on("system-prompt/assemble", () => {});
    const after = await prompt.render({}, { layer: "sub" });
    const assembled = (await prompt.assemble({}, { layer: "sub" })).tools[0]!;
    assert.equal(toolOwner(assembled), "bash");
    assert.equal(toolOwner(after.tools[0]!), "bash");
    assert.equal(toolLayer(after.tools[0]!), "sub");
  });

  it("reads a complete list section's provided items once, so render() equals assemble()", async () => {
    const make = () => {
      const prompt = new SystemPrompt();
      prompt.section({ ...listSection("mine"), complete: true });
      let reads = 0;
      prompt.items("mine", () => [{
        name: "i",
        order: 0,
        get text() {
          return reads++ === 0 ? "- first read" : "- second read";
        },
      }]);
      return prompt;
    };
    const assembled = renderPrompt(await make().assemble());
    const rendered = (await make().render()).prompt;
    assert.equal(rendered, assembled);
  });

  it("sees a host field of a tool changed in place (the copy is not stale)", async () => {
    const prompt = new SystemPrompt();
    const bash = {
      ...tool("bash"),
      execute: (): string => "old",
    };
    prompt.tools(() => [bash]);
    await prompt.assemble();
    await prompt.render({}, { agent: "main" });
    bash.execute = () => "new";
    const assembled = (await prompt.assemble()).tools[0] as typeof bash;
    const rendered = (await prompt.render({}, { agent: "main" }))
      .tools[0] as typeof bash;
    assert.equal(assembled.execute(), "new");
    assert.equal(rendered.execute(), "new");
  });

  it("never returns a stale step, whatever a provider mutates between steps (property)", async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("edit-item" as const), text: fc.string() }),
      fc.record({ kind: fc.constant("push-item" as const), text: fc.string() }),
      fc.record({ kind: fc.constant("pop-item" as const) }),
      fc.record({
        kind: fc.constant("describe-tool" as const),
        text: fc.string(),
      }),
      fc.record({
        kind: fc.constant("tool-field" as const),
        value: fc.integer(),
      }),
      fc.record({
        kind: fc.constant("rename-tool" as const),
        name: fc.constantFrom("bash", "grep", "read"),
      }),
      fc.record({ kind: fc.constant("variable" as const), text: fc.string() }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            op,
            agent: fc.constantFrom("a", "b"),
            layer: fc.constantFrom(undefined, "sub"),
          }),
          { minLength: 1, maxLength: 15 },
        ),
        async (steps) => {
          const items: ItemInput[] = [{ name: "i0", order: 0, text: "x" }];
          const tools: (ToolSchema & { meta: number })[] = [
            { ...tool("bash"), meta: 0 },
          ];
          const state = { branch: "main" };
          const prompt = new SystemPrompt();
          prompt.section({ name: "l", order: 0, text: "On {{b}}:", list: {} });
          prompt.items("l", () => items);
          prompt.tools(() => tools);
          prompt.variable("b", () => state.branch);
          prompt.layer("sub").section({ name: "p", order: 1, text: "Sub." });
          for (const { op, agent, layer } of steps) {
            if (op.kind === "edit-item") items[0] && (items[0].text = op.text);
            if (op.kind === "push-item") {
              items.push({ name: `i${items.length}`, order: 1, text: op.text });
            }
            if (op.kind === "pop-item") items.pop();
            if (op.kind === "describe-tool") tools[0]!.description = op.text;
            if (op.kind === "tool-field") tools[0]!.meta = op.value;
            if (op.kind === "rename-tool") tools[0]!.name = op.name;
            if (op.kind === "variable") state.branch = op.text;
            const step = await prompt.render(
              {},
              layer === undefined ? { agent } : { agent, layer },
            );
            assert.deepEqual(plain(step), await expected(prompt, {}, layer));
          }
        },
      ),
      { numRuns: 200, seed: 18_19_20 },
    );
  });
});

describe("no rejection goes unhandled", () => {
  it("handles a promise in a tool provider's array after an earlier invalid tool", async () => {
    const prompt = new SystemPrompt();
    prompt.tools(() =>
      [{ name: "" }, Promise.reject(new Error("late"))] as never
    );
    assert.deepEqual(await unhandledDuring(() => prompt.assemble()), []);
  });

  it("handles a promise in an item provider's array after an earlier invalid item", async () => {
    const prompt = new SystemPrompt();
    prompt.section(listSection("l"));
    prompt.items(
      "l",
      () =>
        [
          { name: "", order: 0, text: "x" },
          Promise.reject(new Error("late")),
        ] as never,
    );
    assert.deepEqual(await unhandledDuring(() => prompt.assemble()), []);
  });

  it("handles promises in every provider's array when another provider fails first", async () => {
    const prompt = new SystemPrompt();
    prompt.section(listSection("l"));
    prompt.tools(() => 5 as never);
    prompt.tools(() => [Promise.reject(new Error("late tool"))] as never);
    prompt.items("l", () => [Promise.reject(new Error("late item"))] as never);
    assert.deepEqual(await unhandledDuring(() => prompt.assemble()), []);
  });

  for (const call of ["assemble", "render"] as const) {
    it(`handles pending providers' rejections when a synchronous provider aborts the signal, in ${call}()`, async () => {
      const prompt = new SystemPrompt();
      const controller = new AbortController();
      prompt.variable("a", () => Promise.reject(new Error("late")));
      prompt.variable("b", () => {
        controller.abort();
        return "b";
      });
      const unhandled = await unhandledDuring(() =>
        prompt[call]({}, { signal: controller.signal })
      );
      assert.deepEqual(unhandled, []);
    });
  }

  it("handles an order function's promise when a later provider throws", async () => {
    const prompt = new SystemPrompt();
    prompt.section(listSection("l"));
    prompt.item("l", {
      name: "i",
      order: (() => Promise.reject(new Error("late"))) as never,
      text: "x",
    });
    prompt.variable("z", () => {
      throw new Error("now");
    });
    assert.deepEqual(await unhandledDuring(() => prompt.assemble()), []);
  });

  it("reports an async change listener's rejection as listener-failed", async () => {
    const errors: Error[] = [];
    const prompt = new SystemPrompt({
      onListenerError: (error) => void errors.push(error),
    });
    prompt.scope("persist").on("system-prompt/change", async () => {
      await null;
      throw new Error("disk full");
    });
    const unhandled = await unhandledDuring(() => {
      prompt.variable("x", () => "1");
      return Promise.resolve();
    });
    assert.deepEqual(unhandled, []);
    assert.equal(
      (errors[0] as PromptError | undefined)?.code,
      "listener-failed",
    );
  });

  it("handles a late rejection after an abort, for every provider kind", async () => {
    const prompt = new SystemPrompt();
    const late: (() => void)[] = [];
    const pending = () =>
      new Promise<never>((_, reject) =>
        late.push(() => reject(new Error("late")))
      );
    prompt.section({ name: "s", order: 0, text: pending });
    prompt.section({ ...listSection("l", 1), list: { footer: pending } });
    prompt.items("l", pending);
    prompt.variable("v", pending);
    prompt.tools(pending);
    prompt.context({ name: "c", order: 0, text: pending });
    for (const call of ["assemble", "render"] as const) {
      const controller = new AbortController();
      const unhandled = await unhandledDuring(async () => {
        const work = prompt[call]({}, { signal: controller.signal });
        controller.abort(new Error("stop"));
        const error = await rejection(work);
        assert.equal(error.code, "aborted");
        for (const reject of late.splice(0)) reject();
      });
      assert.deepEqual(unhandled, [], call);
    }
  });
});

describe("abort", () => {
  it("rejects with aborted when a synchronous handler aborts the signal", async () => {
    const prompt = new SystemPrompt();
    const controller = new AbortController();
    prompt.on("system-prompt/assemble", () => controller.abort());
    const error = await rejection(
      prompt.assemble({}, { signal: controller.signal }),
    );
    assert.equal(error.code, "aborted");
  });

  it("runs no handler once the assembly was aborted", async () => {
    const prompt = new SystemPrompt();
    const controller = new AbortController();
    let release = (_: string) => {};
    prompt.variable("slow", () => new Promise<string>((r) => (release = r)));
    let ran = 0;
    prompt.on("system-prompt/assemble", () => void ran++);
    const work = prompt.assemble({}, { signal: controller.signal });
    controller.abort();
    assert.equal((await rejection(work)).code, "aborted");
    release("late");
    await turns();
    assert.equal(ran, 0);
  });

  it("gives every provider its own view of the signal: one provider cannot take it from the next", async () => {
    const prompt = new SystemPrompt();
    const controller = new AbortController();
    prompt.variable("a", (_context, options) => {
      try {
        (options as { signal: AbortSignal | undefined }).signal = undefined;
      } catch {
        // Frozen options are fine.
      }
      return "a";
    });
    let seen: AbortSignal | undefined;
    prompt.variable("b", (_context, options) => {
      seen = options.signal;
      return "b";
    });
    await prompt.assemble({}, { signal: controller.signal });
    assert.equal(seen, controller.signal);
  });

  it("runs no provider and no handler for an already-aborted signal", async () => {
    const prompt = new SystemPrompt();
    let calls = 0;
    prompt.variable("a", () => String(++calls));
    prompt.tools(() => (calls++, []));
    prompt.on("system-prompt/assemble", () => void calls++);
    const controller = new AbortController();
    controller.abort(new Error("early"));
    for (const call of ["assemble", "render"] as const) {
      const error = await rejection(
        prompt[call]({}, { signal: controller.signal }),
      );
      assert.equal(error.code, "aborted");
      assert.equal((error.cause as Error).message, "early");
    }
    assert.equal(calls, 0);
  });

  it("rejects with aborted, cause the reason, when a provider aborts the signal itself", async () => {
    for (const sync of [true, false]) {
      const prompt = new SystemPrompt();
      const controller = new AbortController();
      const reason = new Error("self");
      prompt.variable("a", () => {
        if (sync) {
          controller.abort(reason);
          return "a";
        }
        return Promise.resolve().then(() => {
          controller.abort(reason);
          return new Promise<string>(() => {});
        });
      });
      const error = await rejection(
        prompt.render({}, { signal: controller.signal }),
      );
      assert.equal(error.code, "aborted");
      assert.equal(error.cause, reason);
    }
  });

  it("adds and removes one abort listener per assembly on a long-lived signal", async () => {
    const controller = new AbortController();
    const signal = controller.signal;
    let live = 0;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    Object.assign(signal, {
      addEventListener: (...args: Parameters<typeof add>) => {
        live++;
        add(...args);
      },
      removeEventListener: (...args: Parameters<typeof remove>) => {
        live--;
        remove(...args);
      },
    });
    const prompt = new SystemPrompt();
    prompt.variable("a", () => Promise.resolve("a"));
    prompt.on("system-prompt/assemble", () => Promise.resolve());
    for (let i = 0; i < 50; i++) {
      await prompt.assemble({}, { signal });
      await prompt.render({}, { signal });
    }
    const failing = new SystemPrompt();
    failing.variable("a", () => Promise.reject(new Error("no")));
    await failing.assemble({}, { signal }).catch(() => {});
    assert.equal(live, 0);
  });
});

describe("the waterfall and the check of its result", () => {
  it("names the handler that broke the assembly, not the last one that ran", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "a", order: 0, text: "A" });
    prompt.scope("bad").on("system-prompt/assemble", function breaker(a) {
      (a.sections as unknown[]).push(null);
    });
    prompt.scope("innocent").on(
      "system-prompt/assemble",
      function observer() {},
    );
    const error = await rejection(prompt.assemble());
    assert.equal(error.handler, "breaker");
    assert.equal(error.owner, "bad");
  });

  it("never writes to an assembly object a handler returned", async () => {
    for (const audit of [false, true]) {
      const prompt = new SystemPrompt();
      prompt.section({ name: "mine", order: 0, text: "Mine.", complete: true });
      // A handler that returns an object it shares (here: frozen).
      const handler: AssembleHandler = (a) => Object.freeze({ ...a });
      prompt.on("system-prompt/assemble", handler);
      const assembly = await prompt.assemble({}, { audit });
      assert.equal(renderPrompt(assembly), "Mine.");
    }
  });

  it("rejects a handler-left tool whose parameters no provider may return", async () => {
    const cycle: Record<string, unknown> = { type: "object" };
    cycle.self = cycle;
    for (const parameters of [[], cycle]) {
      const prompt = new SystemPrompt();
      prompt.scope("h").on("system-prompt/assemble", (a) => {
        a.tools.push({ name: "x", description: "d", parameters } as never);
      });
      const error = await rejection(prompt.assemble());
      assert.equal(error.code, "invalid-value");
      assert.equal(error.tool, "x");
      assert.equal(error.owner, "h");
    }
  });

  it("keeps anonymous handlers' labels distinct after one is disposed", () => {
    const prompt = new SystemPrompt();
    const anonymous = (): AssembleHandler => (() => {}) as AssembleHandler;
    const off = prompt.on("system-prompt/assemble", anonymous());
    prompt.on("system-prompt/assemble", anonymous());
    off();
    prompt.on("system-prompt/assemble", anonymous());
    const labels = prompt.registrations().handlers.map((h) => h.handler);
    assert.equal(new Set(labels).size, labels.length, labels.join(", "));
  });

  it("keeps a handler's in-place edits out of the registry and of later assemblies", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ ...listSection("l"), list: { footer: "end" } });
    prompt.item("l", { name: "i", order: 0, text: "- i" });
    prompt.items("l", () => [{ name: "p", order: 1, text: "- p" }]);
    prompt.layer("sub").section({ name: "s", order: 1, text: "S" });
    prompt.tools(() => [tool("bash")]);
    prompt.variable("v", () => "v");
    const clean = await prompt.assemble({}, { layer: "sub" });
    const off = prompt.on("system-prompt/assemble", (a) => {
      for (const s of a.sections) {
        s.text = "!";
        s.list && (s.list.footer = "!");
        s.items?.forEach((i) => (i.text = "!"));
        s.shadows && (s.shadows.owner = "!");
      }
      a.tools[0]!.description = "!";
      a.variables.v = "!";
    });
    await prompt.assemble({}, { layer: "sub" });
    off();
    assert.deepEqual(await prompt.assemble({}, { layer: "sub" }), clean);
  });
});

describe("layers", () => {
  it("keeps a layer that a change listener re-creates during its own dispose usable", async () => {
    const prompt = new SystemPrompt();
    const old = prompt.layer("sub");
    old.section({ name: "persona", order: 0, text: "Old." });
    let recreated: ReturnType<SystemPrompt["layer"]> | undefined;
    // A host that makes sure an agent's layer always exists.
    prompt.on("system-prompt/change", (change) => {
      if (change.layer === "sub" && change.action === "unregister") {
        recreated ??= prompt.layer("sub");
      }
    });
    old.dispose();
    assert.ok(recreated !== undefined && recreated !== old);
    assert.equal(recreated.disposed, false);
    recreated.section({ name: "persona", order: 0, text: "New." });
    assert.equal(
      renderPrompt(await prompt.assemble({}, { layer: "sub" })),
      "New.",
    );
  });

  it("puts an item in one list when a layer's context list takes a global section list's name", async () => {
    const prompt = new SystemPrompt();
    prompt.section(listSection("memory"));
    prompt.layer("sub").context({ ...listSection("memory") });
    prompt.item("memory", { name: "x", order: 0, text: "- x" });
    let assembly: PromptAssembly;
    try {
      assembly = await prompt.assemble({}, { layer: "sub" });
    } catch (error) {
      // Refusing the ambiguity is fine too.
      assert.match(String((error as PromptError).code), /^duplicate-/);
      return;
    }
    const copies = [renderPrompt(assembly), renderContext(assembly)]
      .join("\n").split("- x").length - 1;
    assert.equal(copies, 1);
  });

  it("keeps an in-flight assembly on its snapshot while its layer is disposed and re-created", async () => {
    const prompt = new SystemPrompt();
    let release = (_: string) => {};
    const sub = prompt.layer("sub");
    sub.section({
      name: "persona",
      order: 0,
      text: () => new Promise<string>((r) => (release = r)),
    });
    sub.tools(() => [tool("grep")]);
    const inFlight = prompt.render({}, { layer: "sub", agent: "sub" });
    sub.dispose();
    await assert.rejects(prompt.assemble({}, { layer: "sub" }), {
      code: "unknown-layer",
    });
    prompt.layer("sub").section({ name: "persona", order: 0, text: "New." });
    release("Old.");
    const step = await inFlight;
    assert.equal(step.prompt, "Old.");
    assert.deepEqual(step.tools.map((t) => t.name), ["grep"]);
    const next = await prompt.render({}, { layer: "sub", agent: "sub" });
    assert.deepEqual(plain(next), await expected(prompt, {}, "sub"));
    assert.equal(next.prompt, "New.");
  });

  it("lets registrations and disposals made mid-assembly affect only later assemblies", async () => {
    const prompt = new SystemPrompt();
    const plugin = prompt.scope("plugin");
    const offB = prompt.section({ name: "b", order: 1, text: "B" });
    let offTools = () => {};
    let first = true;
    prompt.section({
      name: "a",
      order: 0,
      text: () => {
        if (first) {
          first = false;
          offB();
          plugin.section({ name: "c", order: 2, text: "C" });
          plugin.dispose();
          prompt.on(
            "system-prompt/assemble",
            (a) => void (a.variables.x = "late"),
          );
        }
        return "A";
      },
    });
    offTools = prompt.tools(() => [{
      get name() {
        offTools();
        return "bash";
      },
      description: "d",
      parameters: {},
    }]);
    let echoed = false;
    prompt.on("system-prompt/change", (change) => {
      // A listener that registers in turn, mid-assembly.
      if (change.name === "c" && !echoed) {
        echoed = true;
        prompt.variable("echo", () => "x");
      }
    });
    const during = await prompt.assemble();
    assert.deepEqual(during.sections.map((s) => s.text), ["A", "B"]);
    assert.deepEqual(during.tools.map((t) => t.name), ["bash"]);
    assert.equal(during.variables.x, undefined);
    assert.equal("echo" in during.variables, false);
    const after = await prompt.assemble();
    assert.deepEqual(after.sections.map((s) => s.text), ["A"]);
    assert.deepEqual(after.tools, []);
    assert.equal(after.variables.x, "late");
    assert.equal(after.variables.echo, "x");
  });

  it("keeps concurrent assemblies and renders for different contexts and layers apart (property)", async () => {
    type Context = { who: string; skills: string[]; tools: string[] };
    const delay = async (n: number) => {
      for (let i = 0; i < n; i++) await null;
    };
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          async: fc.array(fc.nat(4), { minLength: 6, maxLength: 6 }),
          handler: fc.boolean(),
          calls: fc.array(
            fc.record({
              who: fc.constantFrom("ann", "bob", "cy"),
              skills: fc.subarray(["pdf", "xlsx", "docx"]),
              tools: fc.subarray(["bash", "grep", "read"]),
              layer: fc.constantFrom(undefined, "sub", "sub/deep"),
              agent: fc.constantFrom(undefined, "a", "b", "c"),
              kind: fc.constantFrom("render", "assemble"),
            }),
            { minLength: 1, maxLength: 8 },
          ),
        }),
        async ({ async, handler, calls }) => {
          const maybe = <T>(slot: number, value: T): T | Promise<T> => {
            const n = async[slot]!;
            return n === 0 ? value : delay(n).then(() => value);
          };
          const prompt = new SystemPrompt<Context>({
            toolOrder: ["read", TOOL_ORDER_REST],
          });
          prompt.scope("loop").section({
            name: "persona",
            order: 0,
            text: (c) => maybe(0, `I am {{who}}, helping ${c.who}.`),
          });
          prompt.variable("who", (c) => maybe(1, c.who));
          prompt.section(listSection("skills", 10));
          prompt.items("skills", (c) =>
            maybe(
              2,
              c.skills.map((name, order) => ({
                name,
                order,
                text: `- ${name}`,
              })),
            ));
          prompt.scope("tools").tools((c) =>
            maybe(3, c.tools.map((n) => tool(n)))
          );
          prompt.context({
            name: "now",
            order: 0,
            text: (c) => maybe(4, `for ${c.who}`),
          });
          const sub = prompt.layer("sub");
          sub.section({ name: "persona", order: 0, text: "Sub of {{who}}." });
          sub.items(
            "skills",
            () => maybe(5, [{ name: "sub", order: 9, text: "- sub" }]),
          );
          prompt.layer("sub/deep", { parent: "sub" }).context({
            name: "now",
            order: 0,
            text: "deep",
          });
          if (handler) {
            prompt.on("system-prompt/assemble", async (a) => {
              await delay(1);
              a.variables.who = `${a.variables.who}!`;
            });
          }
          const results = await Promise.all(calls.map(async (call) => {
            const context = {
              who: call.who,
              skills: call.skills,
              tools: call.tools,
            };
            const options = {
              ...(call.layer === undefined ? {} : { layer: call.layer }),
              ...(call.agent === undefined ? {} : { agent: call.agent }),
            };
            if (call.kind === "render") {
              return plain(await prompt.render(context, options));
            }
            const a = await prompt.assemble(context, options);
            return {
              prompt: renderPrompt(a),
              tools: a.tools,
              context: renderContext(a),
              blocks: stepBlocks(a),
            };
          }));
          for (let i = 0; i < calls.length; i++) {
            const call = calls[i]!;
            assert.deepEqual(
              results[i],
              await expected(prompt, {
                who: call.who,
                skills: call.skills,
                tools: call.tools,
              }, call.layer),
            );
          }
        },
      ),
      { numRuns: 150, seed: 20261219 },
    );
  });
});

describe("hostile names and shapes", () => {
  it("does not let a list name holding NUL collide with a nested list's path", async () => {
    const prompt = new SystemPrompt();
    prompt.section(listSection("a"));
    prompt.item("a", { name: "b", order: 0, text: "b:", list: {} });
    prompt.section(listSection("a\0b", 1));
    prompt.item(["a\0b"], { name: "x", order: 0, text: "- x" });
    const [a, ab] = (await prompt.assemble()).sections;
    assert.deepEqual(a!.items![0]!.items, []);
    assert.deepEqual(ab!.items!.map((item) => item.name), ["x"]);
  });

  it("copies a schema with a __proto__ key as an own property (JSON.parse output)", async () => {
    const prompt = new SystemPrompt();
    const parameters = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}}}',
    );
    prompt.tools(() => [{ name: "t", description: "d", parameters }]);
    const [copy] = (await prompt.assemble()).tools;
    assert.equal(JSON.stringify(copy!.parameters), JSON.stringify(parameters));
    assert.deepEqual(copy!.parameters, parameters);
  });

  it("registers and assembles __proto__, constructor and toString as layer keys, lists, items, tools and owners", async () => {
    const prompt = new SystemPrompt();
    const names = ["__proto__", "constructor", "toString", "hasOwnProperty"];
    for (const name of names) {
      const layer = prompt.layer(name);
      const scope = layer.scope(name);
      scope.section(listSection(name));
      scope.item(name, { name, order: 0, text: `- ${name}` });
      scope.tools(() => [tool(name)]);
      scope.variable(name, () => name);
      const assembly = await prompt.assemble({}, { layer: name });
      assert.equal(renderPrompt(assembly), `${name}:\n- ${name}`);
      assert.equal(assembly.variables[name], name);
      assert.equal(toolOwner(assembly.tools[0]!), name);
      assert.equal(toolLayer(assembly.tools[0]!), name);
    }
    assert.deepEqual(prompt.registrations().layers.map((l) => l.key), names);
  });

  it("sorts names with lone surrogates in code-point order (property)", async () => {
    const codePoints = (s: string) => Array.from(s, (c) => c.codePointAt(0)!);
    const byCodePoints = (a: string, b: string) => {
      const x = codePoints(a);
      const y = codePoints(b);
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        if (x[i] !== y[i]) return x[i]! - y[i]!;
      }
      return x.length - y.length;
    };
    const unit = fc.oneof(
      fc.integer({ min: 0xd7fe, max: 0xe001 }),
      fc.constantFrom(0x41, 0xffff),
    );
    const name = fc.array(unit, { minLength: 1, maxLength: 4 }).map((units) =>
      String.fromCharCode(...units)
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(name, { minLength: 2, maxLength: 8 }),
        async (names) => {
          const prompt = new SystemPrompt();
          prompt.tools(() => names.map((n) => tool(n)));
          for (const n of names) {
            prompt.section({ name: n, order: 0, text: "x" });
          }
          const assembly = await prompt.assemble();
          const sorted = [...names].sort(byCodePoints);
          assert.deepEqual(assembly.sections.map((s) => s.name), sorted);
          assert.deepEqual(assembly.tools.map((t) => t.name), sorted);
        },
      ),
      { numRuns: 300, seed: 8 },
    );
  });
});

describe("each field is read once, and the caller's objects are never touched", () => {
  it("reads each list layout field once at registration", async () => {
    const prompt = new SystemPrompt();
    let reads = 0;
    const list = {
      get footer(): string {
        return (reads++ === 0 ? "</x>" : 42) as never;
      },
    };
    prompt.section({ name: "s", order: 0, text: "<x>", list });
    prompt.item("s", { name: "i", order: 0, text: "i" });
    const [section] = (await prompt.assemble()).sections;
    assert.equal(section!.list!.footer, "</x>");
  });

  it("keeps an inherited list layout field, as it keeps an inherited section field", async () => {
    const prompt = new SystemPrompt();
    const section = Object.assign(
      Object.create({ text: "<x>" }) as PromptSection,
      {
        name: "s",
        order: 0,
        list: Object.create({ footer: "</x>" }),
      },
    );
    prompt.section(section);
    prompt.item("s", { name: "i", order: 0, text: "i" });
    assert.equal(renderPrompt(await prompt.assemble()), "<x>\ni\n</x>");
  });

  it("reads each element of a list path once", async () => {
    const prompt = new SystemPrompt();
    prompt.section(listSection("skills"));
    let reads = 0;
    const path: string[] = [];
    Object.defineProperty(path, 0, {
      enumerable: true,
      get: () => (reads++ === 0 ? "skills" : 42),
    });
    path.length = 1;
    try {
      prompt.item(path, { name: "x", order: 0, text: "- x" });
    } catch (error) {
      // Refusing the path at registration is fine too.
      assert.ok(error instanceof TypeError || error instanceof PromptError);
      return;
    }
    assert.deepEqual(prompt.registrations().items[0]?.path, ["skills"]);
    assert.equal(renderPrompt(await prompt.assemble()), "skills:\n- x");
  });

  it("reads toolOrder once: registrations() reports the order tools are sorted by", async () => {
    let reads = 0;
    const order: string[] = [TOOL_ORDER_REST];
    Object.defineProperty(order, 1, {
      enumerable: true,
      get: () => (reads++ === 0 ? "read" : "grep"),
    });
    const prompt = new SystemPrompt({ toolOrder: order });
    prompt.tools(() => [tool("grep"), tool("read")]);
    const names = (await prompt.assemble()).tools.map((t) => t.name);
    const listed = prompt.registrations().toolOrder;
    assert.deepEqual(names, ["grep", "read"]); // "read" ranks after the rest
    assert.deepEqual(listed, [TOOL_ORDER_REST, "read"]);
  });

  it("returns a fresh toolOrder from registrations()", () => {
    const prompt = new SystemPrompt({ toolOrder: ["read", TOOL_ORDER_REST] });
    const first = prompt.registrations().toolOrder as string[];
    try {
      first.push("bash");
    } catch {
      // A frozen array is fine too.
    }
    assert.deepEqual(prompt.registrations().toolOrder, [
      "read",
      TOOL_ORDER_REST,
    ]);
  });

  it("never writes to, freezes or extends anything the caller passed in", async () => {
    const writes: string[] = [];
    const proxies = new WeakMap<object, object>();
    const watched = <T>(value: T, path: string): T => {
      if (typeof value !== "object" || value === null) return value;
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== Array.prototype) return value;
      const known = proxies.get(value);
      if (known !== undefined) return known as T;
      const log = (what: string) => (key?: PropertyKey) => {
        writes.push(`${what} ${path}.${String(key)}`);
      };
      const proxy = new Proxy(value, {
        get: (target, key, receiver) =>
          watched(Reflect.get(target, key, receiver), `${path}.${String(key)}`),
        set: (
          target,
          key,
          v,
          receiver,
        ) => (log("set")(key), Reflect.set(target, key, v, receiver)),
        defineProperty: (
          target,
          key,
          d,
        ) => (log("define")(key), Reflect.defineProperty(target, key, d)),
        deleteProperty: (
          target,
          key,
        ) => (log("delete")(key), Reflect.deleteProperty(target, key)),
        setPrototypeOf: (
          target,
          p,
        ) => (log("setPrototypeOf")(), Reflect.setPrototypeOf(target, p)),
        preventExtensions: (
          target,
        ) => (log("preventExtensions")(), Reflect.preventExtensions(target)),
      });
      proxies.set(value, proxy);
      return proxy as T;
    };
    const w = watched;
    const prompt = new SystemPrompt<{ who: string }>(
      w({ toolOrder: ["read", TOOL_ORDER_REST], separator: "\n" }, "options"),
    );
    const params = { type: "object", properties: { a: { type: "string" } } };
    const meta = { tags: ["x"] };
    const tools = [
      { ...tool("read"), parameters: params },
      { ...tool("bash"), execute: () => "ok", meta },
    ];
    prompt.section(w(
      {
        name: "persona",
        order: 0,
        text: "You help {{who}}.",
        stability: "session",
      } as const,
      "section",
    ));
    prompt.section(w({
      name: "skills",
      order: 1,
      text: "Skills:",
      list: { footer: "end", separator: "\n", dedupe: true },
    }, "list"));
    prompt.item(
      w(["skills"], "path"),
      w(
        { name: "pdf", order: 0, text: "- pdf" } as PromptItem<{ who: string }>,
        "item",
      ),
    );
    prompt.items(
      "skills",
      () =>
        w([{ name: "xlsx", order: 1, text: "- xlsx", literal: true }], "items"),
    );
    prompt.context(w({ name: "now", order: 0, text: "Monday" }, "context"));
    prompt.variable("who", (c) => c.who);
    prompt.scope("tools").tools(() => w(tools, "tools"));
    prompt.layer("sub", w({}, "layer options")).section(
      w({ name: "persona", order: 0, text: "Sub." }, "sub section"),
    );
    const controller = new AbortController();
    for (const layer of [{}, { layer: "sub" }]) {
      const options = w({ ...layer, audit: false }, "assemble options");
      const context = w({ who: "ann" }, "context object");
      await prompt.assemble(context, { ...options, signal: controller.signal });
      await prompt.render(
        context,
        w({ agent: "a", ...layer }, "render options"),
      );
      await prompt.render(
        context,
        w({ agent: "a", ...layer }, "render options"),
      );
    }
    prompt.registrations();
    assert.deepEqual(writes, []);
    assert.equal(Object.isFrozen(params), false);
    assert.equal(Object.isFrozen(meta), false);
  });
});

describe("thrown values that are not Errors", () => {
  const revoked = (() => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  })();
  const trapsThrow = new Proxy({}, {
    get() {
      throw new Error("get trap");
    },
    getPrototypeOf() {
      throw new Error("getPrototypeOf trap");
    },
    has() {
      throw new Error("has trap");
    },
    ownKeys() {
      throw new Error("ownKeys trap");
    },
    getOwnPropertyDescriptor() {
      throw new Error("gOPD trap");
    },
  });
  const hostileError = Object.defineProperties(new Error("x"), {
    message: {
      get() {
        throw new Error("message getter");
      },
    },
    name: {
      get() {
        throw new Error("name getter");
      },
    },
    toString: {
      value() {
        throw new Error("toString");
      },
    },
  });
  const noToString = Object.assign(Object.create(null), {
    [Symbol.toPrimitive]() {
      throw new Error("toPrimitive");
    },
  });
  const values: readonly (readonly [string, unknown])[] = [
    ["null", null],
    ["undefined", undefined],
    ["0", 0],
    ["a symbol", Symbol("s")],
    ["a revoked proxy", revoked],
    ["a proxy whose traps throw", trapsThrow],
    ["an Error whose message, name and toString throw", hostileError],
    ["an object whose toPrimitive throws", noToString],
  ];
  type Register = (prompt: SystemPrompt, fail: () => never) => void;
  const kinds: readonly (readonly [string, string, Register])[] = [
    [
      "a section text",
      "provider-failed",
      (p, f) => p.section({ name: "s", order: 0, text: f }),
    ],
    ["a variable", "provider-failed", (p, f) => p.variable("v", f)],
    ["a tool provider", "provider-failed", (p, f) => p.tools(f)],
    ["an item provider", "provider-failed", (p, f) => {
      p.section(listSection("l"));
      p.items("l", f);
    }],
    ["an item order", "provider-failed", (p, f) => {
      p.section(listSection("l"));
      p.item("l", { name: "i", order: f, text: "x" });
    }],
    [
      "a list footer",
      "provider-failed",
      (p, f) => p.section({ ...listSection("l"), list: { footer: f } }),
    ],
    [
      "a context text",
      "provider-failed",
      (p, f) => p.context({ name: "c", order: 0, text: f }),
    ],
    [
      "a handler",
      "handler-failed",
      (p, f) => p.on("system-prompt/assemble", f),
    ],
  ];
  it("becomes the kind's PromptError with the value as cause, thrown or rejected, from assemble() and render()", async () => {
    for (const [label, value] of values) {
      for (const [kind, code, register] of kinds) {
        for (const how of ["throw", "reject", "thenable"] as const) {
          if (how !== "throw" && kind === "an item order") continue;
          const fail = (() => {
            if (how === "throw") throw value;
            if (how === "reject") return Promise.reject(value);
            return {
              then() {
                throw value;
              },
            };
          }) as () => never;
          for (const call of ["assemble", "render"] as const) {
            const prompt = new SystemPrompt();
            register(prompt, fail);
            const at = `${kind} that does ${how} ${label}, ${call}()`;
            const error = await rejection(prompt[call]()).catch((e) => {
              throw new Error(`${at}: ${String(e)}`);
            });
            assert.equal(error.code, code, at);
            assert.equal(error.cause, value, at);
            assert.equal(typeof error.message, "string", at);
            assert.doesNotThrow(() => JSON.stringify(error), at);
          }
        }
      }
    }
  });

  it("reports a thenable whose then getter throws as provider-failed", async () => {
    const prompt = new SystemPrompt();
    prompt.variable("v", () =>
      ({
        get then() {
          throw null;
        },
      }) as never);
    const error = await rejection(prompt.assemble());
    assert.equal(error.code, "provider-failed");
    assert.equal(error.variable, "v");
  });
});

describe("errors name the right place", () => {
  it("names a context list as context, not section, when an item of it is refused at registration", () => {
    const prompt = new SystemPrompt();
    prompt.context({ ...listSection("todos") });
    prompt.scope("a").item("todos", { name: "x", order: 0, text: "- x" });
    for (const name of ["x", ""]) {
      assert.throws(
        () => prompt.item("todos", { name, order: 0, text: "- y" }),
        (error: PromptError) => {
          assert.equal(error.context, "todos", error.message);
          assert.equal(error.section, undefined, error.message);
          return true;
        },
      );
    }
  });

  it("names the nested list of an item provider that fails", async () => {
    const prompt = new SystemPrompt();
    prompt.section(listSection("memory"));
    prompt.item("memory", { name: "project", order: 0, text: "P:", list: {} });
    prompt.scope("repo").items(["memory", "project"], () => 5 as never);
    const error = await rejection(prompt.assemble());
    assert.equal(error.code, "invalid-value");
    assert.equal(error.section, "memory");
    assert.match(error.message, /"project"/);
  });
});

describe("huge inputs", () => {
  it("assembles and renders 100,000 provided and 20,000 registered items", async () => {
    const prompt = new SystemPrompt();
    prompt.section(listSection("l"));
    const scope = prompt.scope("many");
    for (let i = 0; i < 20_000; i++) {
      scope.item("l", { name: `r${i}`, order: i % 7, text: `- r${i}` });
    }
    const provided = Array.from({ length: 100_000 }, (_, i) => ({
      name: `p${i}`,
      order: i,
      text: `- p${i}`,
    }));
    prompt.items("l", () => provided);
    const step = await prompt.render({}, { agent: "a" });
    assert.equal(step.prompt.split("\n").length, 120_001);
    assert.equal(await prompt.render({}, { agent: "a" }), step);
    scope.dispose();
    const after = await prompt.render({}, { agent: "a" });
    assert.equal(after.prompt.split("\n").length, 100_001);
  });

  it("assembles and renders a list nested 1,000 deep", async () => {
    const prompt = new SystemPrompt();
    prompt.section(listSection("l0"));
    const path = ["l0"];
    for (let i = 1; i < 1_000; i++) {
      prompt.item([...path], {
        name: `l${i}`,
        order: 0,
        text: `${i}`,
        list: {},
      });
      path.push(`l${i}`);
    }
    prompt.item(path, { name: "leaf", order: 0, text: "leaf" });
    // The assembly nests (the renderer is checked elsewhere).
    let part = (await prompt.assemble()).sections[0];
    for (let depth = 1; depth < 1_000; depth++) part = part?.items?.[0];
    assert.deepEqual(part?.items, [{ name: "leaf", order: 0, text: "leaf" }]);
    assert.deepEqual(plain(await prompt.render()), await expected(prompt));
  });

  it("assembles a list nested 3,000 deep, or refuses it with a PromptError", async () => {
    const prompt = new SystemPrompt();
    prompt.section(listSection("l0"));
    const path = ["l0"];
    try {
      for (let i = 1; i < 3_000; i++) {
        prompt.item([...path], {
          name: `l${i}`,
          order: 0,
          text: `${i}`,
          list: {},
        });
        path.push(`l${i}`);
      }
      prompt.item(path, { name: "leaf", order: 0, text: "leaf" });
    } catch (error) {
      assert.ok(error instanceof PromptError, String(error));
      return;
    }
    try {
      assert.deepEqual(plain(await prompt.render()), await expected(prompt));
    } catch (error) {
      assert.ok(error instanceof PromptError, String(error));
    }
  });
});
