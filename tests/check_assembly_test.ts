// checkPrompt on hand-built registries: the assemblies and registrations are
// given as data, so each rule is tested on the shapes it reads, including
// shapes a registry would never return.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PromptError } from "../mod.ts";
import { checkPrompt, type PromptDiagnostic } from "../inspect.ts";
import { checkable, rawAssembly } from "./support/checkable.ts";

const codes = (diagnostics: PromptDiagnostic[]) =>
  diagnostics.map((d) => [d.code, d.section ?? d.context, d.item, d.variable]);

describe("checkPrompt() on hand-built assemblies", () => {
  it("reports every problem of one text, not only the first", async () => {
    const prompt = checkable(() =>
      rawAssembly([{ name: "p", order: 0, text: "{{a}} {{b}} {{ x y }}" }])
    );
    assert.deepEqual(codes(await checkPrompt(prompt)), [
      ["unknown-variable", "p", undefined, "a"],
      ["unknown-variable", "p", undefined, "b"],
      ["malformed-reference", "p", undefined, undefined],
    ]);
  });

  it("reports the problems of nested items with their owner and list path", async () => {
    const prompt = checkable(() =>
      rawAssembly([{
        name: "memory",
        order: 0,
        text: "<memory>",
        list: {},
        items: [{
          name: "project",
          order: 0,
          text: "# Project",
          list: {},
          items: [
            { name: "a.md", order: 0, text: "{{tier}}", owner: "repo" },
            { name: "b.md", order: 1, text: "{{ x y }}", owner: "team" },
          ],
        }],
      }], { variables: { tier: undefined } })
    );
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.section, d.item, d.owner]),
      [
        ["missing-value", "memory", "a.md", "repo"],
        ["malformed-reference", "memory", "b.md", "team"],
      ],
    );
    assert.match(
      diagnostics[0]!.message,
      /^Cannot render item "a.md" of list "memory" > "project" of "repo"/,
    );
  });

  it("reports the problems of context entries with the entry, and counts their references", async () => {
    const prompt = checkable(() =>
      rawAssembly([], {
        contexts: [
          { name: "git", order: 0, text: "On {{branch}}.", owner: "git" },
          { name: "todo", order: 1, text: "{{todso}}", owner: "todo" },
        ],
        variables: { branch: "main", todos: "none" },
      }), {
      variables: [{ name: "branch", owner: "git" }, {
        name: "todos",
        owner: "todo",
      }],
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.context, d.owner, d.suggestion]),
      [
        ["unknown-variable", "todo", "todo", "todos"],
        ["unused-variable", undefined, "todo", undefined],
      ],
    );
  });

  it("reports parts a registry would never return as errors, and checks the rest", async () => {
    const broken: [unknown, string][] = [
      [null, "invalid-section"],
      [{ name: 42, order: 0, text: "x" }, "invalid-section"],
      [{ name: "t", order: 0, text: 42 }, "invalid-section"],
      [{ name: "t", order: 0, text: "x", trim: 0 }, "invalid-section"],
      [{ name: "t", order: 0, text: "x", separator: 5 }, "invalid-section"],
      [{ name: "t", order: 0, text: "x", list: 5 }, "invalid-section"],
      [
        { name: "t", order: 0, text: "x", list: {}, items: [null] },
        "invalid-item",
      ],
    ];
    for (const [part, code] of broken) {
      const prompt = checkable(() =>
        rawAssembly([part, { name: "s", order: 1, text: "{{nope}}" }])
      );
      const diagnostics = await checkPrompt(prompt);
      assert.deepEqual(
        diagnostics.map((d) => [d.severity, d.code]),
        [["error", code], ["error", "unknown-variable"]],
        JSON.stringify(part),
      );
    }
  });

  it("reports a value that is no assembly at all, without rejecting", async () => {
    for (const value of [null, 5, { sections: 5, tools: [], variables: {} }]) {
      const diagnostics = await checkPrompt(checkable(() => value as never));
      assert.ok(diagnostics.every((d) => d.severity === "error"));
      assert.ok(diagnostics.every((d) => d.code !== "check-failed"));
    }
  });

  it("checks tools without a description", async () => {
    const sentence = "Each call starts a fresh shell, so cd does not persist.";
    const prompt = checkable(() =>
      rawAssembly([{ name: "tool:bash", order: 105, text: sentence }], {
        tools: [
          { name: "bare", parameters: {} } as never,
          { name: "bash", description: sentence, parameters: {} },
        ],
      })
    );
    assert.deepEqual(
      (await checkPrompt(prompt)).map((d) => [d.code, d.tool]),
      [["duplicate-sentence", "bash"]],
    );
  });

  it("names the deepest part that changes every step", async () => {
    const prompt = checkable(() =>
      rawAssembly([{
        name: "memory",
        order: 0,
        text: "<memory>",
        list: {},
        items: [{
          name: "session",
          order: 0,
          text: "# Session",
          list: {},
          items: [{
            name: "now.md",
            order: 0,
            text: "N",
            owner: "clock",
            stability: "step",
          }],
        }],
      }])
    );
    const [found] = await checkPrompt(prompt);
    assert.deepEqual([found?.code, found?.section, found?.item, found?.owner], [
      "volatile-section",
      "memory",
      "now.md",
      "clock",
    ]);
    assert.match(
      found!.message,
      /item "now.md" of list "memory" > "session" of "clock" has stability "step"/,
    );
  });
});

describe("checkPrompt() and a rejected assembly", () => {
  it("reports an orphan-item rejection as orphan-item, with the error's fields", async () => {
    const prompt = checkable(() => {
      throw new PromptError("orphan-item", 'Cannot assemble item "x"', {
        item: "x",
        owner: "o",
        layer: "l",
        suggestion: "tools",
      });
    });
    assert.deepEqual(await checkPrompt(prompt), [{
      code: "orphan-item",
      severity: "error",
      message: 'Cannot assemble item "x"',
      item: "x",
      owner: "o",
      layer: "l",
      suggestion: "tools",
    }]);
  });

  it("reports any other rejection as assemble-failed with the error's code", async () => {
    const prompt = checkable(() => {
      throw new PromptError("provider-failed", "Cannot resolve", {
        variable: "v",
        handler: "h",
      });
    });
    assert.deepEqual(await checkPrompt(prompt), [{
      code: "assemble-failed",
      errorCode: "provider-failed",
      severity: "error",
      message: "Cannot resolve",
      variable: "v",
      handler: "h",
    }]);
  });
});

describe("checkPrompt() registry-wide findings", () => {
  it("warns about a toolOrder name no checked context's assembly lists", async () => {
    const tool = (name: string) => ({ name, description: "", parameters: {} });
    const prompt = checkable((context) =>
      rawAssembly([], {
        tools: context.plan === true ? [tool("plan")] : [tool("read")],
      }), { toolOrder: ["plan", "raed", "<unlisted-tools>"] });
    assert.deepEqual(
      (await checkPrompt(prompt)).map((d) => [d.tool, d.suggestion]),
      [["plan", undefined], ["raed", "read"]],
    );
    const both = await checkPrompt(prompt, {}, { contexts: [{ plan: true }] });
    assert.deepEqual(both.map((d) => [d.tool, d.message]), [[
      "raed",
      'No tool provider returns tool "raed", listed in toolOrder, in the checked contexts; did you mean "read"?',
    ]]);
  });

  it("names the nearest layer's variable as unused, and leaves other layers' out", async () => {
    const prompt = checkable(() => rawAssembly([]), {
      variables: [
        { name: "x", owner: "global" },
        { name: "x", owner: "preset", layer: "reviewer" },
        { name: "y", owner: "sub", layer: "sub" },
        { name: "z", owner: "other", layer: "other" },
      ],
      layers: [{ key: "reviewer" }, { key: "sub", parent: "reviewer" }, {
        key: "other",
      }],
    });
    const unused = async (layer?: string) =>
      (await checkPrompt(prompt, {}, layer === undefined ? {} : { layer }))
        .map((d) => [d.variable, d.owner, d.layer]);
    assert.deepEqual(await unused(), [["x", "global", undefined]]);
    assert.deepEqual(await unused("sub"), [["x", "preset", "reviewer"], [
      "y",
      "sub",
      "sub",
    ]]);
  });

  it("reports registry-wide findings only when some assembly succeeded", async () => {
    const prompt = checkable(() => {
      throw new Error("down");
    }, {
      variables: [{ name: "x" }],
      toolOrder: ["bash", "<unlisted-tools>"],
    });
    assert.deepEqual(await checkPrompt(prompt), [{
      code: "assemble-failed",
      severity: "error",
      message: "down",
    }]);
  });

  it("never rejects, even when the registry throws", async () => {
    const prompt = checkable(() => rawAssembly([]));
    prompt.registrations = () => {
      throw new Error("gone");
    };
    assert.deepEqual(await checkPrompt(prompt), [{
      code: "check-failed",
      severity: "error",
      message: "Cannot check the prompt: gone",
    }]);
  });

  it("awaits an asynchronous assembly and passes the layer and signal on, asking for the audit", async () => {
    const seen: unknown[] = [];
    const signal = new AbortController().signal;
    const prompt = checkable(() => rawAssembly([]));
    prompt.assemble = async (...args) => {
      seen.push(args);
      await Promise.resolve();
      return rawAssembly([{ name: "s", order: 0, text: "{{x}}" }]);
    };
    const diagnostics = await checkPrompt(prompt, { a: 1 }, {
      layer: "l",
      signal,
      contexts: [{ b: 2 }],
    });
    const how = { audit: true, layer: "l", signal };
    assert.deepEqual(seen, [[{ a: 1 }, how], [{ b: 2 }, how]]);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.contexts]), [[
      "unknown-variable",
      [0, 1],
    ]]);
  });
});
