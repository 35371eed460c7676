// docs/design.md ("Async providers and cancellation"): providers of every kind
// may return a promise (any thenable); assemble() starts them all before
// awaiting any; an abort signal rejects promptly with `aborted`; a rejection
// is provider-failed, a promise of the wrong type invalid-value. Late
// rejections are checked in a child process by async_late_rejections_io.ts.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type ItemInput,
  PromptError,
  type PromptScope,
  type ProviderOptions,
  renderContext,
  renderPrompt,
  SystemPrompt,
  type ToolSchema,
} from "@dsh/system-prompt";
import { checkPrompt, toolOwner } from "@dsh/system-prompt/inspect";
import {
  deferred,
  type Outcome,
  outcome,
  thenable,
  turns,
} from "./support/deferred.ts";

const OWNER = "plug";

/**
 * What a step shows: the prompt, the context message, tools, variables,
 * and each list's resolved footer and empty text.
 */
async function observe(prompt: SystemPrompt) {
  const assembly = await prompt.assemble();
  return {
    prompt: renderPrompt(assembly),
    context: renderContext(assembly),
    tools: assembly.tools.map((tool) => [tool.name, toolOwner(tool)]),
    variables: { ...assembly.variables },
    lists: assembly.sections.flatMap((section) =>
      section.list === undefined
        ? []
        : [[section.name, section.list.footer, section.list.empty]]
    ),
  };
}

type Fn = (context: unknown, options: ProviderOptions) => unknown;

interface Kind {
  readonly label: string;
  /** Registers `fn` as this kind of provider through `scope`. */
  register(scope: PromptScope, fn: Fn): void;
  /** What `fn` returns (or resolves to) when it works. */
  readonly value: unknown;
  /** What observe() shows when it works. */
  readonly shows: Partial<Awaited<ReturnType<typeof observe>>>;
  /** The fields of its provider-failed and invalid-value errors. */
  readonly where: Record<string, string>;
}

const list = (scope: PromptScope, layout: Record<string, unknown> = {}) =>
  scope.section({ name: "l", order: 0, text: "L:", list: layout });

const KINDS: readonly Kind[] = [
  {
    label: "a variable provider",
    register: (scope, fn) => {
      scope.variable("v", fn as () => string);
      scope.section({ name: "s", order: 0, text: "v={{v}}" });
    },
    value: "1",
    shows: { prompt: "v=1", variables: { v: "1" } },
    where: { variable: "v", owner: OWNER },
  },
  {
    label: "a section text function",
    register: (scope, fn) =>
      scope.section({ name: "s", order: 0, text: fn as () => string }),
    value: "S",
    shows: { prompt: "S" },
    where: { section: "s", owner: OWNER },
  },
  {
    label: "an item text function",
    register: (scope, fn) => {
      list(scope);
      scope.item("l", { name: "i", order: 0, text: fn as () => string });
    },
    value: "- i",
    shows: { prompt: "L:\n- i" },
    where: { section: "l", item: "i", owner: OWNER },
  },
  {
    label: "a context-entry text function",
    register: (scope, fn) =>
      scope.context({ name: "c", order: 0, text: fn as () => string }),
    value: "Today is Monday.",
    shows: { prompt: "", context: "Today is Monday." },
    where: { context: "c", owner: OWNER },
  },
  {
    label: "a list footer function",
    register: (scope, fn) => {
      list(scope, { footer: fn });
      scope.item("l", { name: "i", order: 0, text: "- i" });
    },
    value: "end",
    shows: { lists: [["l", "end", undefined]] },
    where: { section: "l", owner: OWNER },
  },
  {
    label: "a list empty function",
    register: (scope, fn) => list(scope, { empty: fn }),
    value: "No items.",
    shows: { prompt: "No items.", lists: [["l", undefined, "No items."]] },
    where: { section: "l", owner: OWNER },
  },
  {
    label: "an item provider",
    register: (scope, fn) => {
      list(scope);
      scope.items("l", fn as () => ItemInput[]);
    },
    value: [{ name: "i", order: 0, text: "- i" }],
    shows: { prompt: "L:\n- i" },
    where: { section: "l", owner: OWNER },
  },
  {
    label: "a tool provider",
    register: (scope, fn) => scope.tools(fn as () => ToolSchema[]),
    value: [{ name: "bash", description: "Runs.", parameters: {} }],
    shows: { tools: [["bash", OWNER]] },
    where: { owner: OWNER },
  },
];

function registry(kind: Kind, fn: Fn): SystemPrompt {
  const prompt = new SystemPrompt();
  kind.register(prompt.scope(OWNER), fn);
  return prompt;
}

/** The error's code and fields, without message and cause. */
function fieldsOf(error: unknown): Record<string, unknown> {
  assert.ok(error instanceof PromptError, `not a PromptError: ${error}`);
  const { message: _message, cause: _cause, name: _name, ...rest } = error
    .toJSON();
  return rest;
}

describe("assemble() with async providers: every kind may return a promise", () => {
  for (const kind of KINDS) {
    it(`awaits the promise ${kind.label} returns`, async () => {
      const sync = await observe(registry(kind, () => kind.value));
      const async = await observe(
        registry(kind, () => Promise.resolve(kind.value)),
      );
      assert.deepEqual(async, sync);
      for (const [key, value] of Object.entries(kind.shows)) {
        assert.deepEqual(async[key as keyof typeof async], value, key);
      }
    });

    it(`awaits a thenable that is not a Promise from ${kind.label}`, async () => {
      const shown = await observe(registry(kind, () => thenable(kind.value)));
      for (const [key, value] of Object.entries(kind.shows)) {
        assert.deepEqual(shown[key as keyof typeof shown], value, key);
      }
    });

    it(`render() awaits the promise ${kind.label} returns, as assemble() does`, async () => {
      const prompt = registry(kind, () => Promise.resolve(kind.value));
      const step = await prompt.render({}, { agent: "main" });
      const assembly = await prompt.assemble();
      assert.equal(step.prompt, renderPrompt(assembly));
      assert.equal(step.context, renderContext(assembly));
      assert.deepEqual(
        step.tools.map((tool) => tool.name),
        assembly.tools.map((tool) => tool.name),
      );
    });

    it(`passes { signal } as the second argument of ${kind.label}`, async () => {
      const seen: ProviderOptions[] = [];
      const prompt = registry(kind, (_context, options) => {
        seen.push(options);
        return Promise.resolve(kind.value);
      });
      const controller = new AbortController();
      await prompt.assemble({}, { signal: controller.signal });
      await prompt.render({}, { signal: controller.signal });
      await prompt.assemble();
      assert.equal(seen.length, 3);
      assert.equal(seen[0]!.signal, controller.signal);
      assert.equal(seen[1]!.signal, controller.signal);
      assert.equal(seen[2]!.signal, undefined);
    });

    it(`reports ${kind.label} whose promise rejects as provider-failed naming it and its owner, the rejection as cause`, async () => {
      const reason = new Error("no network");
      const prompt = registry(kind, () => Promise.reject(reason));
      for (const run of [() => prompt.assemble(), () => prompt.render()]) {
        await assert.rejects(run(), (error) => {
          assert.deepEqual(fieldsOf(error), {
            code: "provider-failed",
            ...kind.where,
          });
          assert.equal((error as PromptError).cause, reason);
          assert.match((error as Error).message, /rejected: no network$/);
          return true;
        });
      }
    });

    it(`reports ${kind.label} whose promise rejects as a throw of the same provider would be, but for the verb`, async () => {
      const reason = new Error("no network");
      let sync: unknown, async: unknown;
      await registry(kind, () => {
        throw reason;
      }).assemble().catch((error) => void (sync = error));
      await registry(kind, () => Promise.reject(reason)).assemble().catch((
        error,
      ) => void (async = error));
      assert.deepEqual(fieldsOf(async), fieldsOf(sync));
      assert.equal(
        (async as Error).message,
        (sync as Error).message.replace("threw:", "rejected:"),
      );
    });

    it(`reports ${kind.label} whose promise resolves to the wrong type as invalid-value naming it and its owner`, async () => {
      const prompt = registry(kind, () => Promise.resolve(42));
      await assert.rejects(prompt.assemble(), (error) => {
        assert.deepEqual(fieldsOf(error), {
          code: "invalid-value",
          ...kind.where,
        });
        assert.match((error as Error).message, /returned (42|a number), not /);
        return true;
      });
    });

    it(`reports ${kind.label} whose promise resolves to the wrong type exactly as the same value returned synchronously`, async () => {
      let sync: unknown, async: unknown;
      await registry(kind, () => 42).assemble().catch((error) =>
        void (sync = error)
      );
      await registry(kind, () => Promise.resolve(42)).assemble().catch((
        error,
      ) => void (async = error));
      assert.ok(sync instanceof PromptError && async instanceof PromptError);
      assert.deepEqual(async.toJSON(), sync.toJSON());
    });
  }

  it("reports a thenable whose then() throws as provider-failed", async () => {
    const prompt = new SystemPrompt();
    const reason = new Error("bad then");
    prompt.scope(OWNER).variable("v", () =>
      ({
        then() {
          throw reason;
        },
      }) as unknown as string);
    await assert.rejects(prompt.assemble(), (error) => {
      assert.deepEqual(fieldsOf(error), {
        code: "provider-failed",
        variable: "v",
        owner: OWNER,
      });
      assert.equal((error as PromptError).cause, reason);
      return true;
    });
  });

  it("keeps an item order function synchronous: a promise from it is invalid-value with a hint", async () => {
    const prompt = new SystemPrompt();
    const scope = prompt.scope(OWNER);
    list(scope);
    scope.item("l", {
      name: "i",
      order: (() => Promise.resolve(1)) as unknown as () => number,
      text: "- i",
    });
    await assert.rejects(prompt.assemble(), (error) => {
      assert.deepEqual(fieldsOf(error), {
        code: "invalid-value",
        section: "l",
        item: "i",
        owner: OWNER,
      });
      assert.match(
        (error as Error).message,
        /\(order functions are synchronous\)$/,
      );
      return true;
    });
  });

  it("reports a promise inside a tool provider's array as invalid-value", async () => {
    const prompt = new SystemPrompt();
    // `["bash"].map(async (name) => ({ … }))`: an array of promises.
    prompt.scope(OWNER).tools(() =>
      ["bash"].map((name) =>
        Promise.resolve({ name, description: "Runs.", parameters: {} })
      ) as unknown as ToolSchema[]
    );
    await assert.rejects(prompt.assemble(), (error) => {
      assert.deepEqual(fieldsOf(error), {
        code: "invalid-value",
        owner: OWNER,
      });
      assert.match((error as Error).message, /item 0 is .*, not a tool$/);
      return true;
    });
  });

  it("reports a promise inside an item provider's array as invalid-value", async () => {
    const prompt = new SystemPrompt();
    const scope = prompt.scope(OWNER);
    list(scope);
    scope.items("l", () =>
      Promise.resolve(
        ["a"].map((name) =>
          Promise.resolve({ name, order: 0, text: name })
        ) as unknown as ItemInput[],
      ));
    await assert.rejects(prompt.assemble(), (error) => {
      assert.deepEqual(fieldsOf(error), {
        code: "invalid-value",
        section: "l",
        owner: OWNER,
      });
      assert.match((error as Error).message, /item 0 is .*, not an item$/);
      return true;
    });
  });

  it("keeps owners and layers of async tools and items as the sync case does", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "l", order: 0, text: "L:", list: {} });
    const sub = prompt.layer("sub");
    sub.scope("mcp:docs").tools(() =>
      Promise.resolve([
        { name: "search", description: "Searches.", parameters: {} },
      ])
    );
    sub.scope("memory").items(
      "l",
      () => Promise.resolve([{ name: "m", order: 0, text: "- m" }]),
    );
    const assembly = await prompt.assemble({}, { layer: "sub" });
    assert.equal(toolOwner(assembly.tools[0]!), "mcp:docs");
    const item = assembly.sections[0]!.items![0]!;
    assert.deepEqual([item.owner, item.layer], ["memory", "sub"]);
  });

  it("snapshots the registry when assemble() is called: a registration while a provider pends counts only later", async () => {
    const prompt = new SystemPrompt();
    const gate = deferred<string>();
    prompt.variable("slow", () => gate.promise);
    prompt.section({ name: "a", order: 0, text: "A {{slow}}" });
    const first = prompt.assemble();
    const off = prompt.section({ name: "b", order: 1, text: "B" });
    gate.resolve("1");
    assert.equal(renderPrompt(await first), "A 1");
    off();
    prompt.section({ name: "c", order: 1, text: "C" });
    assert.equal(renderPrompt(await prompt.assemble()), "A 1\n\nC");
  });

  it("runs the waterfall after every provider settled, on the settled values", async () => {
    const prompt = new SystemPrompt();
    const gate = deferred<string>();
    prompt.variable("v", () => gate.promise);
    const seen: (string | undefined)[] = [];
    prompt.on("system-prompt/assemble", (assembly) => {
      seen.push(assembly.variables.v);
    });
    const pending = prompt.assemble();
    await turns();
    assert.deepEqual(seen, []);
    gate.resolve("late");
    await pending;
    assert.deepEqual(seen, ["late"]);
  });
});

describe("assemble() starts every provider before it awaits any", () => {
  it("calls every provider of every kind before assemble() returns", () => {
    const prompt = new SystemPrompt();
    const scope = prompt.scope(OWNER);
    let calls = 0;
    // `never`: a provider of any kind.
    const slow = (value: unknown) => (): never => {
      calls++;
      return new Promise(() => {}).then(() => value) as never;
    };
    scope.variable("v", slow("1"));
    scope.section({ name: "s", order: 0, text: slow("S") });
    scope.context({ name: "c", order: 0, text: slow("C") });
    scope.section({
      name: "l",
      order: 1,
      text: slow("L"),
      list: { footer: slow("F"), empty: slow("E") },
    });
    scope.item("l", { name: "i", order: 0, text: slow("I") });
    scope.items("l", slow([]));
    scope.tools(slow([]));
    void prompt.assemble();
    assert.equal(calls, 9);
    void prompt.render();
    assert.equal(calls, 18);
  });

  it("completes two providers that each wait for the other to start", async () => {
    const prompt = new SystemPrompt();
    const aStarted = deferred();
    const bStarted = deferred();
    prompt.variable("a", async () => {
      aStarted.resolve();
      await bStarted.promise;
      return "A";
    });
    prompt.tools(async () => {
      bStarted.resolve();
      await aStarted.promise;
      return [{ name: "b", description: "B", parameters: {} }];
    });
    // Were the second started only after the first settled, neither would
    // settle and the test runner would report the pending promise.
    const assembly = await prompt.assemble();
    assert.equal(assembly.variables.a, "A");
    assert.deepEqual(assembly.tools.map((tool) => tool.name), ["b"]);
  });

  it("completes providers that each wait for the other to start in render() too", async () => {
    const prompt = new SystemPrompt();
    const aStarted = deferred();
    const bStarted = deferred();
    prompt.section({
      name: "a",
      order: 0,
      text: async () => {
        aStarted.resolve();
        await bStarted.promise;
        return "A";
      },
    });
    prompt.context({
      name: "b",
      order: 0,
      text: async () => {
        bStarted.resolve();
        await aStarted.promise;
        return "B";
      },
    });
    const { prompt: text, tools, context } = await prompt.render();
    assert.deepEqual({ prompt: text, tools, context }, {
      prompt: "A",
      tools: [],
      context: "B",
    });
  });

  it("assembles the same whatever order the promises settle in", async () => {
    const build = () => {
      const gates = [
        deferred<string>(),
        deferred<string>(),
        deferred<string>(),
      ];
      const prompt = new SystemPrompt();
      prompt.section({ name: "l", order: 0, text: "L:", list: {} });
      gates.forEach((gate, i) => {
        prompt.scope(`p${i}`).item("l", {
          name: `i${i}`,
          order: i,
          text: () => gate.promise,
        });
      });
      return { prompt, gates };
    };
    const forward = build();
    const first = forward.prompt.assemble();
    forward.gates.forEach((gate, i) => gate.resolve(`- ${i}`));
    const backward = build();
    const second = backward.prompt.assemble();
    [...backward.gates].reverse().forEach((gate, i) =>
      gate.resolve(`- ${2 - i}`)
    );
    assert.deepEqual(await second, await first);
    assert.equal(renderPrompt(await first), "L:\n- 0\n- 1\n- 2");
  });
});

describe("assemble() and render() with an abort signal", () => {
  const reason = new Error("the user pressed Esc");

  function counting() {
    const prompt = new SystemPrompt();
    const scope = prompt.scope(OWNER);
    let calls = 0;
    const count = (value: unknown) => (): never => {
      calls++;
      return value as never;
    };
    scope.variable("v", count("1"));
    scope.section({ name: "s", order: 0, text: count("S") });
    scope.context({ name: "c", order: 0, text: count("C") });
    scope.section({
      name: "l",
      order: 1,
      text: count("L"),
      list: { footer: count("F"), empty: count("E") },
    });
    scope.item("l", {
      name: "i",
      order: count(0),
      text: count("I"),
    });
    scope.items("l", count([]));
    scope.tools(count([]));
    return { prompt, calls: () => calls };
  }

  function isAborted(signal: AbortSignal) {
    return (error: unknown) => {
      assert.ok(error instanceof PromptError);
      assert.equal(error.code, "aborted");
      assert.equal(error.cause, signal.reason);
      return true;
    };
  }

  /** The step rejected with `aborted` by the time `outcome()` looked. */
  function assertAborted(result: Outcome<unknown>, signal: AbortSignal) {
    assert.equal(result.state, "rejected", "the step did not reject promptly");
    if (result.state === "rejected") isAborted(signal)(result.error);
  }

  it("rejects an already-aborted signal with aborted before any provider runs", async () => {
    const { prompt, calls } = counting();
    await prompt.assemble(); // the registry works
    const before = calls();
    assert.equal(before, 10);
    const signal = AbortSignal.abort(reason);
    await assert.rejects(prompt.assemble({}, { signal }), isAborted(signal));
    await assert.rejects(prompt.render({}, { signal }), isAborted(signal));
    await assert.rejects(
      prompt.render({}, { signal, agent: "main" }),
      isAborted(signal),
    );
    assert.equal(calls(), before);
  });

  it("rejects an already-aborted signal before an assemble handler runs", async () => {
    const prompt = new SystemPrompt();
    let ran = 0;
    prompt.on("system-prompt/assemble", () => void ran++);
    const signal = AbortSignal.abort(reason);
    await assert.rejects(prompt.assemble({}, { signal }), isAborted(signal));
    await assert.rejects(prompt.render({}, { signal }), isAborted(signal));
    assert.equal(ran, 0);
  });

  it("rejects promptly while providers pend, without waiting for them", async () => {
    for (const kind of KINDS) {
      for (const run of ["assemble", "render"] as const) {
        const controller = new AbortController();
        const prompt = registry(kind, () => new Promise(() => {}));
        const pending = prompt[run]({}, { signal: controller.signal });
        await turns();
        controller.abort(reason);
        // The provider's promise never settles: only the abort can end this.
        assertAborted(await outcome<unknown>(pending), controller.signal);
      }
    }
  });

  it("rejects with the signal's default reason when abort() is given none", async () => {
    const controller = new AbortController();
    const prompt = new SystemPrompt();
    prompt.variable("v", () => new Promise(() => {}));
    const pending = prompt.assemble({}, { signal: controller.signal });
    controller.abort();
    const result = await outcome(pending);
    assert.equal(result.state, "rejected");
    await assert.rejects(pending, (error) => {
      assert.ok(error instanceof PromptError);
      assert.equal(error.code, "aborted");
      assert.equal(error.cause, controller.signal.reason);
      assert.equal((error.cause as Error).name, "AbortError");
      assert.equal(error.message, "Cannot assemble prompt: the signal aborted");
      return true;
    });
  });

  it("tells the pending providers: the signal they got aborts with the reason", async () => {
    const controller = new AbortController();
    const prompt = new SystemPrompt();
    const heard: unknown[] = [];
    prompt.variable(
      "v",
      (_context, { signal }) =>
        new Promise<string>((_resolve, reject) => {
          signal!.addEventListener("abort", () => {
            heard.push(signal!.reason);
            reject(signal!.reason);
          });
        }),
    );
    const pending = prompt.assemble({}, { signal: controller.signal });
    controller.abort(reason);
    // The provider rejected too, but the step reports the abort.
    await assert.rejects(pending, isAborted(controller.signal));
    assert.deepEqual(heard, [reason]);
  });

  it("rejects with aborted when the signal aborts during an async assemble handler, after async providers", async () => {
    const controller = new AbortController();
    const prompt = new SystemPrompt();
    prompt.variable("v", () => Promise.resolve("1"));
    const entered = deferred();
    prompt.on("system-prompt/assemble", async () => {
      entered.resolve();
      await new Promise(() => {});
    });
    const pending = prompt.assemble({}, { signal: controller.signal });
    await entered.promise;
    controller.abort(reason);
    assertAborted(await outcome<unknown>(pending), controller.signal);
  });

  for (const run of ["assemble", "render"] as const) {
    it(`${run}() rejects with aborted when the signal aborts during an async assemble handler of an all-sync registry`, async () => {
      const controller = new AbortController();
      const prompt = new SystemPrompt();
      prompt.variable("v", () => "1");
      const entered = deferred();
      prompt.on("system-prompt/assemble", async () => {
        entered.resolve();
        await new Promise(() => {});
      });
      const pending = prompt[run]({}, { signal: controller.signal });
      await entered.promise;
      controller.abort(reason);
      // The handler never settles: only the abort can end this.
      assertAborted(await outcome<unknown>(pending), controller.signal);
    });
  }

  it("keeps a settled assembly when the signal aborts afterwards, and rejects the next step", async () => {
    const controller = new AbortController();
    const prompt = new SystemPrompt();
    prompt.variable("v", () => Promise.resolve("1"));
    prompt.section({ name: "s", order: 0, text: "v={{v}}" });
    const assembly = await prompt.assemble({}, { signal: controller.signal });
    const step = await prompt.render({}, { signal: controller.signal });
    controller.abort(reason);
    assert.equal(renderPrompt(assembly), "v=1");
    assert.equal(step.prompt, "v=1");
    await assert.rejects(
      prompt.assemble({}, { signal: controller.signal }),
      isAborted(controller.signal),
    );
  });

  it("discards late results: a value that lands after the abort is not in any later step", async () => {
    const controller = new AbortController();
    const prompt = new SystemPrompt();
    let call = 0;
    const late = deferred<string>();
    prompt.variable("v", () => ++call === 1 ? late.promise : `fresh ${call}`);
    prompt.section({ name: "s", order: 0, text: "{{v}}" });
    const first = prompt.render({}, {
      signal: controller.signal,
      agent: "main",
    });
    controller.abort(reason);
    await assert.rejects(first, isAborted(controller.signal));
    late.resolve("stale");
    await turns();
    assert.equal(
      (await prompt.render({}, { agent: "main" })).prompt,
      "fresh 2",
    );
    assert.equal(renderPrompt(await prompt.assemble()), "fresh 3");
  });

  it("runs no assemble handler for a step aborted while its providers pended", async () => {
    const controller = new AbortController();
    const prompt = new SystemPrompt();
    const late = deferred<string>();
    prompt.variable("v", () => late.promise);
    let ran = 0;
    prompt.on("system-prompt/assemble", () => void ran++);
    const pending = prompt.assemble({}, { signal: controller.signal });
    controller.abort(reason);
    await assert.rejects(pending, isAborted(controller.signal));
    late.resolve("late");
    await turns();
    assert.equal(ran, 0);
  });

  it("handles the late rejection of a provider after an abort", async () => {
    // Were it unhandled, the test runner would fail this file.
    const controller = new AbortController();
    const prompt = new SystemPrompt();
    const late = deferred<string>();
    prompt.variable("v", () => late.promise);
    const pending = prompt.assemble({}, { signal: controller.signal });
    controller.abort(reason);
    await assert.rejects(pending, isAborted(controller.signal));
    late.reject(new Error("late"));
    await turns();
  });
});

describe("several failing providers: the error is the one the all-sync registry reports", () => {
  // The all-sync registry reports the first provider, in snapshot order,
  // that threw: its start loop stops there.
  async function firstError(prompt: SystemPrompt) {
    let caught: unknown;
    await prompt.assemble().catch((error) => void (caught = error));
    return fieldsOf(caught);
  }

  function twoFailing(asyncSection: boolean, asyncTools: boolean) {
    const prompt = new SystemPrompt();
    const fail = (isAsync: boolean, message: string) => (): never => {
      if (isAsync) return Promise.reject(new Error(message)) as never;
      throw new Error(message);
    };
    prompt.scope("sections").section({
      name: "s",
      order: 0,
      text: fail(asyncSection, "section"),
    });
    prompt.scope("tools").tools(fail(asyncTools, "tools"));
    return prompt;
  }

  it("names the section whose promise rejected, not the tool provider after it that threw", async () => {
    const sync = await firstError(twoFailing(false, false));
    assert.deepEqual(sync, {
      code: "provider-failed",
      section: "s",
      owner: "sections",
    });
    assert.deepEqual(await firstError(twoFailing(true, false)), sync);
  });

  it("names the section whose promise rejected, not the tool provider after it whose promise rejected", async () => {
    const sync = await firstError(twoFailing(false, false));
    assert.deepEqual(await firstError(twoFailing(true, true)), sync);
  });
  it("names the variable whose promise rejected, not an earlier variable's wrong value", async () => {
    const build = (rejects: boolean) => {
      const prompt = new SystemPrompt();
      prompt.variable("wrong", () => 42 as never);
      prompt.variable("failing", (): never => {
        if (rejects) return Promise.reject(new Error("down")) as never;
        throw new Error("down");
      });
      return prompt;
    };
    const sync = await firstError(build(false));
    assert.deepEqual(sync, { code: "provider-failed", variable: "failing" });
    assert.deepEqual(await firstError(build(true)), sync);
  });

  it("names the section whose promise rejected, not two tools that share a name", async () => {
    const build = (rejects: boolean) => {
      const prompt = new SystemPrompt();
      prompt.section({
        name: "s",
        order: 0,
        text: (): never => {
          if (rejects) return Promise.reject(new Error("down")) as never;
          throw new Error("down");
        },
      });
      const tool = { name: "bash", description: "Runs.", parameters: {} };
      prompt.scope("a").tools(() => [tool]);
      prompt.scope("b").tools(() => [{ ...tool }]);
      return prompt;
    };
    const sync = await firstError(build(false));
    assert.deepEqual(sync, { code: "provider-failed", section: "s" });
    assert.deepEqual(await firstError(build(true)), sync);
  });
});

describe("an all-sync registry", () => {
  it("assembles exactly what it assembled before async providers existed", async () => {
    const prompt = new SystemPrompt();
    const scope = prompt.scope(OWNER);
    scope.variable("model", () => "m-1");
    scope.section({
      name: "persona",
      order: 0,
      text: () => "You are {{model}}.",
    });
    scope.context({ name: "date", order: 0, text: () => "Monday" });
    scope.section({
      name: "l",
      order: 1,
      text: "Files:",
      list: { empty: () => "No files." },
    });
    scope.item("l", { name: "a", order: () => 1, text: () => "- a" });
    const items = [{ name: "b", order: 0, text: "- b" }];
    scope.items("l", () => items);
    const tools = [{ name: "read", description: "Reads.", parameters: {} }];
    scope.tools(() => tools);
    assert.deepEqual(await observe(prompt), {
      prompt: "You are m-1.\n\nFiles:\n- b\n- a",
      context: "Monday",
      tools: [["read", OWNER]],
      variables: { model: "m-1" },
      lists: [["l", undefined, "No files."]],
    });
    const step = await prompt.render({}, { agent: "main" });
    assert.equal(step.prompt, "You are m-1.\n\nFiles:\n- b\n- a");
    // Every provider answered as last step: the same step, not a rebuilt one.
    assert.equal(await prompt.render({}, { agent: "main" }), step);
  });
});

describe("checkPrompt() with async providers", () => {
  it("awaits them: an async variable a section references is no problem", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("git").variable("branch", () => Promise.resolve("main"));
    prompt.section({ name: "s", order: 0, text: "On {{branch}}." });
    assert.deepEqual(await checkPrompt(prompt), []);
  });

  it("reports a provider whose promise rejects as assemble-failed naming it and its owner", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("git").variable(
      "branch",
      () => Promise.reject(new Error("not a repository")),
    );
    prompt.section({ name: "s", order: 0, text: "On {{branch}}." });
    const [diagnostic, ...rest] = await checkPrompt(prompt);
    assert.deepEqual(rest, []);
    assert.equal(diagnostic?.code, "assemble-failed");
    assert.equal(diagnostic.severity, "error");
    assert.equal(diagnostic.owner, "git");
    assert.equal(diagnostic.variable, "branch");
    assert.match(
      diagnostic.message,
      /its provider rejected: not a repository$/,
    );
  });
});
