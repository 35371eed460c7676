import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type PromptAssembly,
  PromptError,
  renderPrompt,
  SystemPrompt,
  TOOL_ORDER_REST,
} from "../mod.ts";

const tool = (name: string) => ({ name, description: name, parameters: {} });

describe("complete sections", () => {
  it("are the whole prompt after the waterfall, as resolved before the handlers; tools and variables stay", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: "Default persona." });
    prompt.scope("user").section({
      name: "system.md",
      order: 5,
      text: "My own prompt for {{model}}.",
      complete: true,
    });
    prompt.variable("model", () => "m-1");
    prompt.tools(() => [tool("bash")]);
    prompt.scope("h").on("system-prompt/assemble", (assembly) => {
      for (const section of assembly.sections) section.text = "edited";
      assembly.variables.model = "m-2";
    });
    const assembly = await prompt.assemble();
    assert.deepEqual(assembly.sections, [{
      name: "system.md",
      order: 5,
      text: "My own prompt for {{model}}.",
      owner: "user",
      complete: true,
    }]);
    assert.equal(renderPrompt(assembly), "My own prompt for m-2.");
    assert.deepEqual(assembly.tools.map((t) => t.name), ["bash"]);
    const step = await prompt.render();
    assert.equal(step.prompt, "My own prompt for m-2.");
  });

  it("without handlers, render() gives the complete section alone", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: "Default." });
    prompt.section({ name: "mine", order: 1, text: "Mine.", complete: true });
    assert.equal((await prompt.render()).prompt, "Mine.");
    assert.equal(renderPrompt(await prompt.assemble()), "Mine.");
  });

  it("two live complete sections reject with multiple-complete; a layer's shadows the global one", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "a", order: 0, text: "A", complete: true });
    prompt.scope("b").section({
      name: "b",
      order: 1,
      text: "B",
      complete: true,
    });
    await assert.rejects(prompt.assemble(), {
      code: "multiple-complete",
      section: "b",
      owner: "b",
    });
    const solo = new SystemPrompt();
    solo.section({
      name: "system.md",
      order: 0,
      text: "global",
      complete: true,
    });
    solo.layer("sub").section({
      name: "system.md",
      order: 0,
      text: "sub",
      complete: true,
    });
    assert.equal(
      renderPrompt(await solo.assemble({}, { layer: "sub" })),
      "sub",
    );
  });
});

describe("the waterfall's result is checked", () => {
  const broken: [string, (a: PromptAssembly) => void, string][] = [
    [
      "an empty section name",
      (a) => void (a.sections[0]!.name = ""),
      "invalid-section",
    ],
    [
      "a duplicate section name",
      (a) => void a.sections.push({ ...a.sections[0]! }),
      "duplicate-section",
    ],
    [
      "a non-finite order",
      (a) => void (a.sections[0]!.order = NaN),
      "invalid-section",
    ],
    [
      "a non-string text",
      (a) => void (a.sections[0]!.text = 1 as never),
      "invalid-section",
    ],
    [
      "a null section",
      (a) => void a.sections.push(null as never),
      "invalid-section",
    ],
    [
      "a list separator of the wrong type",
      (a) => void (a.sections[0]!.list = { separator: 1 as never }),
      "invalid-section",
    ],
    ["an item without a name", (a) => {
      a.sections[0]!.list = {};
      a.sections[0]!.items = [{ name: "", order: 0, text: "" }];
    }, "invalid-item"],
    ["a duplicate item name", (a) => {
      a.sections[0]!.list = {};
      a.sections[0]!.items = [{ name: "x", order: 0, text: "" }, {
        name: "x",
        order: 1,
        text: "",
      }];
    }, "duplicate-item"],
    [
      "a context entry without text",
      (a) => void (a.contexts = [{ name: "c", order: 0 } as never]),
      "invalid-context",
    ],
    [
      "a tool without a name",
      (a) => void a.tools.push({ description: "", parameters: {} } as never),
      "invalid-value",
    ],
    [
      "a tool without a description",
      (a) => void a.tools.push({ name: "x", parameters: {} } as never),
      "invalid-value",
    ],
    [
      "a tool named after the rest entry",
      (a) => void a.tools.push(tool(TOOL_ORDER_REST)),
      "invalid-value",
    ],
    [
      "two tools with one name",
      (a) => void a.tools.push(tool("bash")),
      "duplicate-tool",
    ],
    [
      "a number as a variable value",
      (a) => void (a.variables.n = 1 as never),
      "invalid-value",
    ],
    [
      "a prompt separator of the wrong type",
      (a) => void (a.separator = 2 as never),
      "invalid-value",
    ],
  ];
  for (const [label, breakIt, code] of broken) {
    it(`rejects ${label} with ${code}, naming the handler and its owner`, async () => {
      const prompt = new SystemPrompt();
      prompt.section({ name: "s", order: 0, text: "x" });
      prompt.tools(() => [tool("bash")]);
      prompt.on("system-prompt/assemble", function fine() {});
      prompt.scope("plugin").on(
        "system-prompt/assemble",
        function breaker(assembly) {
          breakIt(assembly);
        },
      );
      await assert.rejects(prompt.assemble(), (error) => {
        assert.ok(error instanceof PromptError);
        assert.equal(error.code, code);
        assert.equal(error.handler, "breaker");
        assert.match(error.message, /handler "breaker" of "plugin"/);
        return true;
      });
      await assert.rejects(prompt.render(), { code });
    });
  }

  it("accepts what the handlers left when it is valid", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "s", order: 0, text: "x" });
    prompt.on("system-prompt/assemble", (assembly) => {
      assembly.sections.push({
        name: "t",
        order: 1,
        text: "y",
        list: {},
        items: [{ name: "i", order: 0, text: "z" }],
      });
      assembly.contexts = [{ name: "c", order: 0, text: "now" }];
      assembly.tools.push(tool("extra"));
    });
    const assembly = await prompt.assemble();
    assert.equal(renderPrompt(assembly), "x\n\ny\nz");
  });
});

describe("toolOrder", () => {
  it("places listed tools at their position and the rest, by name, at the rest entry", async () => {
    const prompt = new SystemPrompt({
      toolOrder: ["todo", TOOL_ORDER_REST, "bash"],
    });
    prompt.tools(() => [tool("bash"), tool("web"), tool("read")]);
    prompt.tools(() => [tool("todo"), tool("edit")]);
    assert.deepEqual((await prompt.assemble()).tools.map((t) => t.name), [
      "todo",
      "edit",
      "read",
      "web",
      "bash",
    ]);
  });

  it("sorts by name by default, in code-point order", async () => {
    const prompt = new SystemPrompt();
    prompt.tools(
      () => [tool("\uE000"), tool("\uD83D\uDE00"), tool("B"), tool("a")],
    );
    assert.deepEqual((await prompt.assemble()).tools.map((t) => t.name), [
      "B",
      "a",
      "\uE000",
      "\uD83D\uDE00",
    ]);
  });

  it("throws invalid-option for a list without exactly one rest entry, or with a duplicate", () => {
    for (
      const toolOrder of [[], ["bash"], [TOOL_ORDER_REST, TOOL_ORDER_REST], [
        "a",
        TOOL_ORDER_REST,
        "a",
      ]]
    ) {
      assert.throws(() => new SystemPrompt({ toolOrder }), {
        code: "invalid-option",
      });
    }
    assert.throws(
      () => new SystemPrompt({ toolOrder: "bash" as never }),
      TypeError,
    );
    assert.throws(
      () => new SystemPrompt({ toolOrder: [1 as never, TOOL_ORDER_REST] }),
      TypeError,
    );
  });

  it("is not an error for a listed tool absent from an assembly; a provided tool named after the rest entry is invalid-value", async () => {
    const prompt = new SystemPrompt({ toolOrder: ["gone", TOOL_ORDER_REST] });
    prompt.tools(() => [tool("bash")]);
    assert.deepEqual((await prompt.assemble()).tools.map((t) => t.name), [
      "bash",
    ]);
    prompt.scope("odd").tools(() => [tool(TOOL_ORDER_REST)]);
    await assert.rejects(prompt.assemble(), {
      code: "invalid-value",
      owner: "odd",
    });
  });
});
