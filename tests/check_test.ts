// checkPrompt(): the diagnostics it reports before the first step (unknown,
// valueless and malformed references, unused variables, repeated sentences,
// tool guidance, failing assemblies), with layouts, across contexts, layers,
// runtime context and toolOrder; it awaits async providers and never
// rejects.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SystemPrompt, TOOL_ORDER_REST } from "../mod.ts";
import { checkPrompt, type PromptDiagnostic } from "../inspect.ts";

const brief = (diagnostics: PromptDiagnostic[]) =>
  diagnostics.map((d) =>
    `${d.severity} ${d.code} ${d.owner ?? "-"} ${
      d.section ?? d.context ?? d.variable ?? d.tool ?? ""
    }`
  );

describe("checkPrompt()", () => {
  it("reports nothing for a clean prompt", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("agent-loop").variable("model", () => "m-1");
    prompt.scope("agent-loop").section({
      name: "agent:persona",
      order: 0,
      text: "I am {{model}}.",
    });
    prompt.scope("bash").section({
      name: "tool:bash",
      order: 105,
      text: "Check exit codes.",
    });
    assert.deepEqual(await checkPrompt(prompt), []);
  });

  it("reports every reference to an unregistered variable, with a suggestion", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("loop").variable("model", () => "m");
    prompt.scope("loop").section({
      name: "p",
      order: 0,
      text: "{{modle}} {{model}} {{nothing_close}}",
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(brief(diagnostics), [
      "error unknown-variable loop p",
      "error unknown-variable loop p",
    ]);
    assert.match(diagnostics[0]!.message, /did you mean "model"\?$/);
    assert.equal(diagnostics[0]!.suggestion, "model");
    assert.equal(diagnostics[1]!.variable, "nothing_close");
  });

  it("reports valueless references for the given context", async () => {
    const prompt = new SystemPrompt<{ cwd?: string }>();
    prompt.variable("cwd", (context) => context.cwd);
    prompt.section({ name: "where", order: 0, text: "In {{cwd}}." });
    assert.deepEqual(brief(await checkPrompt(prompt)), [
      "error missing-value - where",
    ]);
    assert.deepEqual(await checkPrompt(prompt, { cwd: "/" }), []);
  });

  it("reports malformed references", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("p").section({
      name: "s",
      order: 0,
      text: "Use {{ braces like this }}.",
    });
    assert.deepEqual(brief(await checkPrompt(prompt)), [
      "error malformed-reference p s",
    ]);
  });

  it("reports variables no part references", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("git").variable("git.branch", () => "main");
    prompt.variable("used", () => "u");
    prompt.section({ name: "s", order: 0, text: "{{used}}" });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(brief(diagnostics), [
      "warning unused-variable git git.branch",
    ]);
    assert.equal(
      diagnostics[0]!.message,
      'No section, context entry or item of the checked context references variable "git.branch" of "git"',
    );
  });

  it("does not report a variable as unused when the section that uses it has a malformed group", async () => {
    for (
      const text of [
        "I am {{model}}. Use {{ use braces }} here.",
        "{{ x y }} {{model}}",
      ]
    ) {
      const prompt = new SystemPrompt();
      prompt.variable("model", () => "m-1");
      prompt.section({ name: "persona", order: 0, text });
      const codes = (await checkPrompt(prompt)).map((d) => d.code);
      assert.deepEqual(codes, ["malformed-reference"]);
    }
  });

  it("does not report a variable as unused when its only section renders empty", async () => {
    const prompt = new SystemPrompt();
    prompt.variable("notes", () => "");
    prompt.section({ name: "notes", order: 0, text: "{{notes}}" });
    assert.deepEqual(await checkPrompt(prompt), []);
  });

  it("reports one sentence under two owners: two sections, or a section and a tool description", async () => {
    const prompt = new SystemPrompt();
    const bash = prompt.scope("bash");
    bash.tools(() => [{
      name: "bash",
      description:
        "Runs a command. Each call starts a fresh shell, so cd does not persist.",
      parameters: {},
    }]);
    bash.section({
      name: "tool:bash",
      order: 105,
      text:
        "Each call starts a fresh shell,   so cd does not persist. Check exit codes.",
    });
    prompt.scope("agent-loop").section({
      name: "agent:persona",
      order: 0,
      text:
        "You are careful. Each call starts a fresh shell, so CD does not persist.",
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(brief(diagnostics), [
      "warning duplicate-sentence bash tool:bash",
      "warning duplicate-sentence bash bash",
    ]);
    assert.equal(
      diagnostics[0]!.message,
      'The sentence "each call starts a fresh shell, so cd does not persist." appears in section "agent:persona" of "agent-loop" and in section "tool:bash" of "bash": one fact, two owners',
    );
    assert.match(
      diagnostics[1]!.message,
      /and in the description of tool "bash" of "bash": one fact, two owners$/,
    );
  });

  it("does not flag short sentences", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "a", order: 0, text: "Be brief." });
    prompt.section({ name: "b", order: 1, text: "Be brief." });
    assert.deepEqual(await checkPrompt(prompt), []);
  });

  it("reports tool guidance outside 100–199", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("bash").section({ name: "tool:bash", order: 5, text: "x" });
    const read = prompt.scope("read");
    read.tools(() => [{ name: "read", description: "", parameters: {} }]);
    read.section({ name: "reading", order: 300, text: "y" });
    read.section({ name: "reading-ok", order: 110, text: "z" });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(brief(diagnostics), [
      "warning tool-guidance-band bash tool:bash",
      "warning tool-guidance-band read reading",
    ]);
    assert.equal(
      diagnostics[0]!.message,
      'Tool guidance belongs at orders 100–199: section "tool:bash" of "bash" has order 5',
    );
  });

  it("reports a failing assembly as assemble-failed with its owner and the rejection's code", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("flaky").variable("x", () => {
      throw new Error("boom");
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(brief(diagnostics), ["error assemble-failed flaky x"]);
    assert.equal(diagnostics[0]!.errorCode, "provider-failed");
  });
});

describe("checkPrompt() with a layout", () => {
  it("finds no reference in literal text, and does not count it as use", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("loop").variable("cwd", () => "/r");
    prompt.scope("files").section({
      name: "agents-md",
      order: 1,
      text: "{{cwd}} {{ nope }} ${{ secrets.X }}",
      literal: true,
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(diagnostics.map((d) => d.code), ["unused-variable"]);
  });

  it("counts references made by items, and reports their problems with the item", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("loop").variable("model", () => "m-1");
    prompt.section({ name: "tools", order: 100, text: "Tools:", list: {} });
    prompt.scope("a").item("tools", {
      name: "a",
      order: 0,
      text: "- a on {{model}}",
    });
    prompt.scope("b").item("tools", {
      name: "b",
      order: 1,
      text: "- b {{modle}}",
    });
    prompt.scope("c").item("tools", {
      name: "c",
      order: 2,
      text: "- c {{ x y }}",
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.section, d.item, d.owner]),
      [
        ["unknown-variable", "tools", "b", "b"],
        ["malformed-reference", "tools", "c", "c"],
      ],
    );
    assert.match(
      diagnostics[0]!.message,
      /^Cannot render item "b" of list "tools" of "b": .*did you mean "model"\?$/,
    );
    assert.match(
      diagnostics[1]!.message,
      /^Cannot render item "c" of list "tools" of "c": /,
    );
  });

  it("counts references of nested items and of a list's footer", async () => {
    const prompt = new SystemPrompt();
    prompt.variable("tier", () => "project");
    prompt.variable("close", () => "</memory>");
    prompt.section({
      name: "memory",
      order: 0,
      text: "<memory>",
      list: { footer: "{{close}}" },
    });
    prompt.item("memory", { name: "project", order: 0, text: "# P", list: {} });
    prompt.scope("repo").item(["memory", "project"], {
      name: "a.md",
      order: 0,
      text: "From the {{tier}} tier.",
    });
    assert.deepEqual(await checkPrompt(prompt), []);
  });

  it("reports an orphan item as the error assemble() rejects with: owner, item and a suggestion", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "tools", order: 0, text: "Tools:", list: {} });
    prompt.scope("bash").item("tool", {
      name: "bash",
      order: 0,
      text: "- bash",
    });
    const rejection = await prompt.assemble().catch((error) => error);
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(
      diagnostics.map((
        d,
      ) => [d.code, d.severity, d.item, d.owner, d.suggestion]),
      [["orphan-item", "error", "bash", "bash", "tools"]],
    );
    assert.equal(diagnostics[0]!.message, rejection.message);
  });

  it("reports an item provider whose list is not live as orphan-item", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("skills").items("skills", () => []);
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.owner]),
      [["orphan-item", "skills"]],
    );
  });

  it("reports one sentence in two items of different owners, unless dedupe dropped one", async () => {
    for (const dedupe of [false, true]) {
      const prompt = new SystemPrompt();
      prompt.section({
        name: "rules",
        order: 0,
        text: "Rules:",
        list: { dedupe },
      });
      const rule = "- Read every file before you edit it.";
      prompt.scope("read").item("rules", {
        name: "read",
        order: 0,
        text: rule,
      });
      prompt.scope("edit").item("rules", {
        name: "edit",
        order: 1,
        text: rule,
      });
      const codes = (await checkPrompt(prompt)).map((
        d,
      ) => [d.code, d.item, d.owner]);
      assert.deepEqual(
        codes,
        dedupe ? [] : [["duplicate-sentence", "edit", "edit"]],
      );
    }
  });
});

describe("checkPrompt() with an assembly a handler broke", () => {
  // The waterfall's result is checked before assemble() returns, so each of
  // these is the rejection, naming the part and the handler, not a throw.
  const broken: [
    string,
    (a: { sections: unknown[]; variables: object }) => void,
    string,
    string | null,
  ][] = [
    [
      "a null section",
      (a) => void a.sections.push(null),
      "invalid-section",
      null,
    ],
    [
      "a section named 42",
      (a) => void ((a.sections[1] as { name: unknown }).name = 42),
      "invalid-section",
      null,
    ],
    [
      "a null list item",
      (a) => void (a.sections[0] as { items: unknown[] }).items.push(null),
      "invalid-item",
      "l",
    ],
    [
      "a section literal flag that is a string",
      (a) => void ((a.sections[1] as { literal: unknown }).literal = "yes"),
      "invalid-section",
      "s",
    ],
    [
      "a section separator that is a number",
      (a) => void ((a.sections[1] as { separator: unknown }).separator = 5),
      "invalid-section",
      "s",
    ],
    [
      "a non-string section text",
      (a) => void ((a.sections[1] as { text: unknown }).text = 42),
      "invalid-section",
      "s",
    ],
    [
      "a non-string variable value",
      (a) => void ((a.variables as Record<string, unknown>).n = 42),
      "invalid-value",
      null,
    ],
  ];
  for (const [label, breakage, code, section] of broken) {
    it(`reports ${label} as assemble-failed (${code}), without rejecting`, async () => {
      const prompt = new SystemPrompt();
      prompt.scope("loop").section({
        name: "l",
        order: 0,
        text: "H",
        list: {},
      });
      prompt.scope("loop").item("l", { name: "a", order: 0, text: "A" });
      prompt.scope("docs").section({ name: "s", order: 1, text: "S {{n}}" });
      prompt.variable("n", () => "1");
      prompt.scope("fixer").on(
        "system-prompt/assemble",
        function fix(assembly) {
          breakage(assembly as never);
        },
      );
      const diagnostics = await checkPrompt(prompt);
      assert.equal(diagnostics.length, 1);
      const [found] = diagnostics;
      assert.equal(found!.code, "assemble-failed");
      assert.equal(found!.errorCode, code);
      if (section !== null) assert.equal(found!.section, section);
      assert.equal(found!.handler, "fix");
    });
  }
});

describe("checkPrompt() across contexts", () => {
  const registry = () => {
    const prompt = new SystemPrompt<{ plan?: boolean; cwd?: string }>();
    prompt.scope("plan").variable("plan.file", () => "PLAN.md");
    prompt.variable("cwd", (context) => context.cwd);
    prompt.section({
      name: "mode",
      order: 0,
      text: (context) =>
        context.plan ? "Write the plan to {{plan.file}}." : "Act.",
    });
    prompt.section({ name: "where", order: 1, text: "In {{cwd}}." });
    return prompt;
  };

  it("reports a variable unused only when no checked context's parts use it", async () => {
    const prompt = registry();
    assert.deepEqual(brief(await checkPrompt(prompt, { cwd: "/" })), [
      "warning unused-variable plan plan.file",
    ]);
    assert.deepEqual(
      await checkPrompt(prompt, { cwd: "/" }, {
        contexts: [{ plan: true, cwd: "/" }],
      }),
      [],
    );
  });

  it("checks only options.contexts when the context is left out, and says which ones a finding holds for", async () => {
    const prompt = registry();
    const diagnostics = await checkPrompt(prompt, undefined, {
      contexts: [{ cwd: "/" }, { plan: true }],
    });
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.section, d.contexts]),
      [["missing-value", "where", [1]]],
    );
  });

  it("merges a finding that holds for several contexts", async () => {
    const prompt = registry();
    const diagnostics = await checkPrompt(prompt, {}, {
      contexts: [{ plan: true }],
    });
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.contexts]),
      [["missing-value", [0, 1]]],
    );
  });
});

describe("checkPrompt() with layers", () => {
  const registry = () => {
    const prompt = new SystemPrompt();
    prompt.scope("host").section({
      name: "persona",
      order: 0,
      text: "Main agent.",
    });
    const reviewer = prompt.layer("reviewer");
    reviewer.scope("preset").section({
      name: "persona",
      order: 0,
      text: "Review {{diff}}.",
    });
    reviewer.scope("git").variable("diff", () => "HEAD~1");
    reviewer.scope("git").variable("branch", () => "main");
    return prompt;
  };

  it("checks the global registrations without a layer, ignoring the layers' ones", async () => {
    assert.deepEqual(await checkPrompt(registry()), []);
  });

  it("checks one layer's assembly and names the layer of what it finds", async () => {
    const diagnostics = await checkPrompt(registry(), {}, {
      layer: "reviewer",
    });
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.variable, d.owner, d.layer]),
      [["unused-variable", "branch", "git", "reviewer"]],
    );
    assert.match(
      diagnostics[0]!.message,
      /variable "branch" of "git" in layer "reviewer"$/,
    );
  });

  it("reports an unknown layer as assemble-failed", async () => {
    const [found] = await checkPrompt(registry(), {}, { layer: "reveiwer" });
    assert.equal(found?.errorCode, "unknown-layer");
  });

  it("reports an item orphaned in one layer only for that layer", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "tools", order: 0, text: "Tools:", list: {} });
    prompt.item("tools", { name: "bash", order: 0, text: "- bash" });
    // The layer's plain section shadows the list.
    prompt.layer("bare").section({
      name: "tools",
      order: 0,
      text: "No tools.",
    });
    assert.deepEqual(await checkPrompt(prompt), []);
    const diagnostics = await checkPrompt(prompt, {}, { layer: "bare" });
    assert.deepEqual(diagnostics.map((d) => [d.code, d.item]), [[
      "orphan-item",
      "bash",
    ]]);
  });
});

describe("checkPrompt() with runtime context", () => {
  it("counts references made by context entries, and reports their problems with the entry", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("clock").variable("time", () => "9:00");
    prompt.scope("clock").context({
      name: "clock",
      order: 0,
      text: "It is {{time}}.",
    });
    prompt.scope("git").context({
      name: "git",
      order: 1,
      text: "On {{brnach}}.",
    });
    assert.deepEqual(brief(await checkPrompt(prompt)), [
      "error unknown-variable git git",
    ]);
  });

  it("suggests a context entry for a section or item that changes every step", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("clock").section({
      name: "clock",
      order: 900,
      text: "It is 9:00.",
      stability: "step",
    });
    prompt.section({ name: "env", order: 500, text: "<env>", list: {} });
    prompt.scope("git").item("env", {
      name: "status",
      order: 0,
      text: "clean",
      stability: "step",
    });
    prompt.scope("todo").context({
      name: "todos",
      order: 0,
      text: "None.",
      stability: "step",
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.section, d.item, d.owner]),
      [
        ["volatile-section", "env", "status", "git"],
        ["volatile-section", "clock", undefined, "clock"],
      ],
    );
    assert.match(
      diagnostics[1]!.message,
      /section "clock" of "clock" has stability "step"; register it with context\(\) instead/,
    );
  });
});

describe("checkPrompt() and toolOrder", () => {
  it("warns about a listed name no provider returns, with a suggestion", async () => {
    const prompt = new SystemPrompt({
      toolOrder: ["bash", "raed", TOOL_ORDER_REST],
    });
    prompt.scope("fs").tools(() => [
      { name: "read", description: "Reads.", parameters: {} },
      { name: "bash", description: "Runs.", parameters: {} },
    ]);
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(diagnostics, [{
      code: "unknown-tool-order",
      severity: "warning",
      message:
        'No tool provider returns tool "raed", listed in toolOrder, in the checked context; did you mean "read"?',
      tool: "raed",
      suggestion: "read",
    }]);
  });
});

describe("checkPrompt() and toolOrder, with handlers", () => {
  it("checks toolOrder against what the providers returned, before a handler filtered it, with a suggestion", async () => {
    const prompt = new SystemPrompt({
      toolOrder: ["bash", "basj", "extra", TOOL_ORDER_REST],
    });
    prompt.scope("shell").tools(() => [
      { name: "bash", description: "Runs.", parameters: {} },
      { name: "read", description: "Reads.", parameters: {} },
    ]);
    // A sandbox restricts bash; another handler adds a tool of its own.
    prompt.scope("sandbox").on("system-prompt/assemble", (assembly) => {
      assembly.tools = assembly.tools.filter((tool) => tool.name !== "bash");
    });
    prompt.scope("extras").on("system-prompt/assemble", (assembly) => {
      assembly.tools.push({ name: "extra", description: "", parameters: {} });
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.tool, d.suggestion]),
      [
        ["unknown-tool-order", "basj", "bash"],
        ["unknown-tool-order", "extra", undefined],
      ],
    );
    assert.match(
      diagnostics[0]!.message,
      /No tool provider returns tool "basj", listed in toolOrder, in the checked context; did you mean "bash"\?/,
    );
  });
});

describe("checkPrompt() awaits async providers and never rejects", () => {
  it("checks what async providers return", async () => {
    const prompt = new SystemPrompt();
    prompt.variable("model", async () => await Promise.resolve("m-1"));
    prompt.section({
      name: "persona",
      order: 0,
      text: async () => await Promise.resolve("I am {{modle}}."),
    });
    assert.deepEqual(
      (await checkPrompt(prompt)).map((d) => [d.code, d.variable]),
      [["unknown-variable", "modle"], ["unused-variable", "model"]],
    );
  });

  it("resolves for tools without a description or with a cyclic or BigInt schema", async () => {
    const cyclic: Record<string, unknown> = { type: "object", big: 1n };
    cyclic.self = cyclic;
    const prompt = new SystemPrompt();
    prompt.scope("mcp").tools(() => [
      { name: "bare", parameters: {} } as never,
      { name: "loop", description: "Loops.", parameters: cyclic },
    ]);
    prompt.section({ name: "tool:x", order: 100, text: "Use them well." });
    const diagnostics = await checkPrompt(prompt);
    assert.ok(Array.isArray(diagnostics));
    for (const d of diagnostics) assert.equal(d.code, "assemble-failed");
  });
});
