// What the waterfall leaves: complete sections as the whole prompt, each
// handler's result checked (the rejection naming the handler and its
// owner), names taken from another part refused, tool parameters that are
// not JSON data or not a schema refused, and toolOrder kept.
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
const shown = (value: unknown) =>
  value instanceof Map ? "a Map" : JSON.stringify(value) ?? typeof value;

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
    ...([{}, new Map(), { length: 0 }, "", 0, null] as never[]).map((
      tools,
    ): [string, (a: PromptAssembly) => void, string] => [
      `tools that are not an array (${shown(tools)})`,
      (a) => void (a.tools = tools),
      "invalid-value",
    ]),
    ...([42, "abc", true, null, () => ({})] as never[]).map((
      variables,
    ): [string, (a: PromptAssembly) => void, string] => [
      `variables that are not an object (${shown(variables)})`,
      (a) => void (a.variables = variables),
      "invalid-value",
    ]),
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

describe("the check of the handlers' result, after edits that keep the shape", () => {
  const registry = () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "a", order: 0, text: "A" });
    prompt.section({ name: "b", order: 1, text: "B" });
    prompt.context({ name: "now", order: 0, text: "N" });
    prompt.context({ name: "then", order: 1, text: "T" });
    prompt.tools(() => [tool("bash"), tool("read")]);
    return prompt;
  };
  const rejects = async (
    edit: (assembly: PromptAssembly) => void,
    expected: Record<string, unknown>,
  ) => {
    const prompt = registry();
    prompt.scope("p").on("system-prompt/assemble", function edits(assembly) {
      edit(assembly);
    });
    await assert.rejects(prompt.assemble(), {
      handler: "edits",
      owner: "p",
      ...expected,
    });
  };

  it("rejects a name taken from another part, section, context entry or tool", async () => {
    await rejects((a) => void (a.sections[1]!.name = "a"), {
      code: "duplicate-section",
      section: "a",
    });
    await rejects((a) => void (a.contexts![0]!.name = "then"), {
      code: "duplicate-context",
      context: "then",
    });
    await rejects((a) => void (a.tools[0]!.name = "read"), {
      code: "duplicate-tool",
      tool: "read",
      message:
        'Cannot accept what "system-prompt/assemble" handler "edits" of "p" left in tool "read": its name appears twice',
    });
  });

  it("rejects tool parameters that are not JSON data, naming the tool", async () => {
    await rejects(
      (a) => void (a.tools[1]!.parameters = { at: new Date(0) } as never),
      { code: "invalid-value", tool: "read" },
    );
  });

  it("rejects a tool a handler adds to a step that had none, when its parameters are not a schema", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "a", order: 0, text: "A" });
    prompt.scope("p").on("system-prompt/assemble", function adds(assembly) {
      assembly.tools.push({ ...tool("x"), parameters: undefined as never });
    });
    await assert.rejects(prompt.assemble(), {
      code: "invalid-value",
      handler: "adds",
      owner: "p",
      tool: "x",
    });
  });

  it("accepts parts and tools reordered, renamed to free names, or given another tool's schema", async () => {
    const prompt = registry();
    prompt.on("system-prompt/assemble", (assembly) => {
      assembly.sections.reverse();
      assembly.contexts!.reverse();
      assembly.tools.reverse();
      assembly.sections[0]!.name = "z";
      const [first, second] = assembly.tools;
      [first!.parameters, second!.parameters] = [
        second!.parameters,
        first!.parameters,
      ];
    });
    const assembly = await prompt.assemble();
    assert.deepEqual(assembly.sections.map((s) => s.name), ["z", "a"]);
    assert.deepEqual(assembly.contexts!.map((c) => c.name), ["then", "now"]);
    assert.deepEqual(assembly.tools.map((t) => t.name), ["read", "bash"]);
  });

  it("names the handler that last changed the assembly's shape, not a later one that kept it", async () => {
    const prompt = registry();
    prompt.scope("adder").on("system-prompt/assemble", function adds(a) {
      a.tools.push(tool("bash"));
    });
    prompt.scope("reader").on("system-prompt/assemble", function reads(a) {
      void a.tools.length;
    });
    await assert.rejects(prompt.assemble(), {
      code: "duplicate-tool",
      handler: "adds",
      owner: "adder",
    });
  });

  it("names the last handler when the break changed no shape", async () => {
    const prompt = registry();
    prompt.scope("renamer").on("system-prompt/assemble", function renames(a) {
      a.tools[0]!.name = "read";
    });
    prompt.scope("reader").on("system-prompt/assemble", function reads(a) {
      void a.tools.length;
    });
    await assert.rejects(prompt.assemble(), {
      code: "duplicate-tool",
      handler: "reads",
      owner: "reader",
    });
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
