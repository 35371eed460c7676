// explainPrompt on assemblies built by hand: who owns each part of the
// prompt and of the runtime context, where it sits, what it costs.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type {
  AssembledItem,
  AssembledSection,
  PromptAssembly,
  ToolSchema,
} from "../src/core/types.ts";
import { estimateTokens } from "../src/inspect/estimate_tokens.ts";
import { explainPrompt } from "../src/inspect/explain.ts";
import { owned } from "../src/core/_provenance.ts";
import { TEMPLATES } from "../src/render/_template.ts";
import { renderContext, renderPrompt } from "../src/render/render.ts";

function sample(): PromptAssembly {
  const bash = owned({
    name: "bash",
    description: "Runs a command.",
    parameters: { type: "object" },
  }, { owner: "bash", layer: undefined });
  return {
    sections: [
      {
        name: "agent:persona",
        order: 0,
        text: "  I am {{model}}; {{model}} runs {{cwd}}.  ",
        owner: "agent-loop",
      },
      { name: "empty", order: 50, text: " " },
      {
        name: "tool:bash",
        order: 105,
        text: "Check exit codes.",
        owner: "bash",
        stability: "static",
      },
    ],
    tools: [bash, { name: "root-tool", description: "", parameters: {} }],
    variables: Object.assign(Object.create(null), {
      model: "m-1",
      cwd: "/repo",
    }),
  };
}

const item = (
  name: string,
  text: string,
  extra: Partial<AssembledItem> = {},
): AssembledItem => ({ name, order: 0, text, ...extra });

function assembly(
  sections: (Partial<AssembledSection> & { name: string })[],
  separator?: string,
  variables: Record<string, string> = {},
): PromptAssembly {
  const result: PromptAssembly = {
    sections: sections.map((s, i) => ({ order: i, text: "", ...s })),
    tools: [],
    variables,
  };
  if (separator !== undefined) result.separator = separator;
  return result;
}

const tools = (names: string[], extra: Partial<AssembledSection> = {}) => ({
  name: "tools",
  text: "Tools:",
  owner: "loop",
  list: { empty: "Tools: (none)" },
  items: names.map((n) => item(n, `- ${n}`, { owner: n })),
  ...extra,
});

describe("explainPrompt()", () => {
  it("returns exactly the rendered prompt", () => {
    const a = sample();
    assert.equal(explainPrompt(a).text, renderPrompt(a));
  });

  it("gives each rendered section its owner, order, span, size, tokens and variables", () => {
    const explained = explainPrompt(sample());
    assert.deepEqual(explained.sections, [
      {
        name: "agent:persona",
        owner: "agent-loop",
        order: 0,
        stability: "static",
        separatorStart: 0,
        start: 0,
        end: 25,
        chars: 25,
        tokens: estimateTokens("I am m-1; m-1 runs /repo."),
        variables: ["model", "cwd"],
      },
      {
        name: "tool:bash",
        owner: "bash",
        order: 105,
        stability: "static",
        separatorStart: 25,
        start: 27,
        end: 44,
        chars: 17,
        tokens: estimateTokens("Check exit codes."),
        variables: [],
      },
    ]);
    assert.deepEqual(explained.dropped, ["empty"]);
  });

  it("gives each tool its owner and sizes, and totals", () => {
    const explained = explainPrompt(sample());
    assert.deepEqual(explained.tools, [
      {
        name: "bash",
        owner: "bash",
        descriptionChars: 15,
        parametersChars: 17,
        tokens: estimateTokens(
          '{"name":"bash","description":"Runs a command.","parameters":{"type":"object"}}',
        ),
      },
      {
        name: "root-tool",
        descriptionChars: 0,
        parametersChars: 2,
        tokens: estimateTokens(
          '{"name":"root-tool","description":"","parameters":{}}',
        ),
      },
    ]);
    assert.deepEqual(explained.totals, {
      chars: 44,
      tokens: estimateTokens(renderPrompt(sample())),
      sections: 2,
      tools: 2,
      toolTokens: explained.tools[0]!.tokens + explained.tools[1]!.tokens,
    });
  });

  it("names the layer of a part and of a tool, and what a part shadows", () => {
    const grep = owned(
      { name: "grep", description: "Search", parameters: {} },
      { owner: "search", layer: "sub" },
    );
    const explained = explainPrompt({
      sections: [{
        name: "persona",
        order: 0,
        text: "You review code.",
        owner: "reviewer",
        layer: "sub",
        shadows: { owner: "loop" },
      }],
      tools: [grep],
      variables: {},
    });
    const [persona] = explained.sections;
    assert.deepEqual(
      [persona!.owner, persona!.layer, persona!.shadows],
      ["reviewer", "sub", { owner: "loop" }],
    );
    assert.deepEqual(
      [explained.tools[0]!.owner, explained.tools[0]!.layer],
      ["search", "sub"],
    );
  });

  it("counts what it can of a tool without description or with parameters JSON cannot write", () => {
    const cycle: Record<string, unknown> = { type: "object" };
    cycle.self = cycle;
    const explained = explainPrompt({
      sections: [],
      tools: [
        { name: "mcp", parameters: {} } as unknown as ToolSchema,
        { name: "loop", description: "Loops.", parameters: cycle },
        {
          name: "big",
          description: "Big.",
          parameters: { max: 10n } as never,
        },
      ],
      variables: {},
    });
    assert.deepEqual(
      explained.tools.map((
        t,
      ) => [t.name, t.descriptionChars, t.parametersChars, t.tokens]),
      [
        [
          "mcp",
          0,
          2,
          estimateTokens('{"name":"mcp","description":"","parameters":{}}'),
        ],
        [
          "loop",
          6,
          0,
          estimateTokens('{"name":"loop","description":"Loops."}'),
        ],
        ["big", 4, 0, estimateTokens('{"name":"big","description":"Big."}')],
      ],
    );
  });

  it("parses each text once: a second explain parses nothing", () => {
    const a = assembly(
      [{ name: "s", text: `Parsed once ${Math.random()} {{x}}` }],
      undefined,
      {
        x: "1",
      },
    );
    explainPrompt(a);
    const parsed = TEMPLATES.size;
    explainPrompt(a);
    renderPrompt(a);
    assert.equal(TEMPLATES.size, parsed);
  });

  it("throws what renderPrompt throws", () => {
    const a = {
      sections: [{ name: "s", order: 0, text: "{{x}}" }],
      tools: [],
      variables: {},
    };
    assert.throws(() => explainPrompt(a), {
      code: "unknown-variable",
      section: "s",
    });
  });

  it("lists 20,000 distinct names once each, in first-use order (linear in the references)", () => {
    const count = 20_000;
    const variables: Record<string, string> = Object.create(null);
    const names: string[] = [];
    let text = "";
    for (let i = 0; i < count; i++) {
      const name = `v${(i * 7919) % count}`;
      names.push(name);
      variables[name] = "x";
      // Each name twice: the repeat must not be listed again.
      text += `{{${name}}} {{ ${name} }} `;
    }
    const [section] = explainPrompt({
      sections: [{ name: "s", order: 0, text }],
      tools: [],
      variables,
    }).sections;
    assert.deepEqual(section!.variables, names);
  });
});

describe("explainPrompt() with a layout", () => {
  it("gives each item of a list its owner and span, inside its section's span", () => {
    const explained = explainPrompt(
      assembly(
        [{ name: "persona", text: "Hi." }, tools(["bash", "read"])],
        "\n",
      ),
    );
    assert.equal(explained.text, "Hi.\nTools:\n- bash\n- read");
    const list = explained.sections[1]!;
    assert.deepEqual(
      [list.separatorStart, list.start, list.end],
      [3, 4, explained.text.length],
    );
    assert.deepEqual(
      list.items!.map((
        i,
      ) => [i.name, i.owner, i.separatorStart, i.start, i.end]),
      [["bash", "bash", 10, 11, 17], ["read", "read", 17, 18, 24]],
    );
    assert.equal(explained.text.slice(11, 17), "- bash");
  });

  it("reports an empty list's items as [] and its span as the empty text", () => {
    const explained = explainPrompt(assembly([tools([])]));
    assert.equal(explained.text, "Tools: (none)");
    assert.deepEqual(explained.sections[0]!.items, []);
  });

  it("gives no items field to a section that is not a list", () => {
    const explained = explainPrompt(assembly([{ name: "a", text: "A" }]));
    assert.equal("items" in explained.sections[0]!, false);
  });

  it("makes a list as volatile as its most volatile rendered item, nested ones included", () => {
    const clock = item("date", "date", { stability: "step" });
    const explained = explainPrompt(
      assembly([{ ...tools(["bash"]), items: [item("a", "a"), clock] }]),
    );
    assert.equal(explained.sections[0]!.stability, "step");
    assert.deepEqual(explained.sections[0]!.items!.map((i) => i.stability), [
      "static",
      "step",
    ]);
    const nested = explainPrompt(assembly([{
      ...tools([]),
      stability: "session",
      items: [{
        ...item("tier", "## tier"),
        list: {},
        items: [item("f", "F", { stability: "step" })],
      }],
    }]));
    assert.deepEqual(
      [nested.sections[0]!.stability, nested.sections[0]!.items![0]!.stability],
      ["step", "step"],
    );
  });

  it("reports the variables of each item, a list's heading and footer, and none for a literal one", () => {
    const explained = explainPrompt(assembly(
      [{
        ...tools([]),
        text: "{{h}}",
        list: { footer: "{{f}} {{h}}" },
        items: [
          item("a", "{{x}}"),
          item("b", "{{y}}", { literal: true }),
        ],
      }],
      undefined,
      { x: "1", h: "H", f: "F" },
    ));
    assert.deepEqual(explained.sections[0]!.variables, ["h", "f"]);
    assert.deepEqual(explained.sections[0]!.items!.map((i) => i.variables), [
      ["x"],
      [],
    ]);
  });

  it("spans nested lists, headings, item separators and footers so that they tile the prompt", () => {
    const tier = (name: string, files: AssembledItem[]): AssembledItem => ({
      name,
      order: 0,
      text: `## ${name}`,
      owner: "memory",
      list: {},
      items: files,
    });
    const a = assembly([
      { name: "rules", text: "Be brief." },
      {
        name: "memory",
        text: "<memory>",
        owner: "memory",
        list: {
          footer: "</memory>",
          separator: "\n\n",
          headingSeparator: "\n",
        },
        items: [
          tier("global", [item("~/AGENTS.md", "Use tabs.", { owner: "home" })]),
          {
            ...tier("project", [
              item("AGENTS.md", "Run tests.", { owner: "repo" }),
              item("src/AGENTS.md", "No classes.", { owner: "repo" }),
            ]),
            separator: "\n--- project-doc ---\n",
          },
        ],
      },
    ]);
    const { text, sections } = explainPrompt(a);
    assert.equal(text, renderPrompt(a));
    const slice = (
      e: { separatorStart: number; start: number; end: number },
    ) => [
      text.slice(e.separatorStart, e.start),
      text.slice(e.start, e.end),
    ];
    const memory = sections[1]!;
    assert.deepEqual(slice(memory)[0], "\n\n");
    const [global, project] = memory.items!;
    assert.deepEqual(slice(global!), ["\n", "## global\nUse tabs."]);
    assert.deepEqual(slice(project!), [
      "\n--- project-doc ---\n",
      "## project\nRun tests.\nNo classes.",
    ]);
    assert.deepEqual(project!.items!.map(slice), [
      ["\n", "Run tests."],
      ["\n", "No classes."],
    ]);
    assert.deepEqual(
      project!.items!.map((i) => [i.name, i.owner]),
      [["AGENTS.md", "repo"], ["src/AGENTS.md", "repo"]],
    );
    assert.equal(text.slice(memory.start, global!.separatorStart), "<memory>");
    assert.equal(text.slice(project!.end, memory.end), "\n\n</memory>");
  });
});

describe("explainPrompt() context", () => {
  it("explains assembly.contexts against renderContext's text, apart from the prompt", () => {
    const a: PromptAssembly = {
      sections: [{ name: "persona", order: 0, text: "Be brief." }],
      contexts: [
        {
          name: "date",
          order: 0,
          text: "Today is {{date}}.",
          owner: "clock",
          stability: "step",
        },
        { name: "gone", order: 1, text: "" },
        { name: "todo", order: 2, text: "Todo: none", separator: "\n" },
      ],
      tools: [],
      variables: { date: "2026-12-01" },
    };
    const explained = explainPrompt(a);
    assert.equal(explained.text, "Be brief.");
    assert.equal(explained.context.text, renderContext(a));
    assert.deepEqual(explained.context.dropped, ["gone"]);
    assert.deepEqual(
      explained.context.sections.map((
        s,
      ) => [
        s.name,
        s.owner,
        s.stability,
        s.separatorStart,
        s.start,
        s.end,
        s.variables,
      ]),
      [
        ["date", "clock", "step", 0, 0, 20, ["date"]],
        ["todo", undefined, "static", 20, 21, 31, []],
      ],
    );
    assert.equal(explained.totals.chars, "Be brief.".length);
  });

  it("has an empty context for an assembly without contexts", () => {
    assert.deepEqual(explainPrompt(assembly([])).context, {
      text: "",
      sections: [],
      dropped: [],
    });
  });
});
