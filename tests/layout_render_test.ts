// docs/layout.md as renderPrompt and renderContext see them: separators and
// trim ("Separators and whitespace"), literal text, flat lists ("Lists: one
// heading, items from many owners"), lists that open, close and nest, and
// item errors (docs/errors.md, "Layout bad input"). One test per rule, each
// on an assembly built by hand so that the renderer alone is under test.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PromptError } from "../src/core/errors.ts";
import type {
  AssembledItem,
  AssembledSection,
  PromptAssembly,
} from "../src/core/types.ts";
import { renderContext, renderPrompt } from "../src/render/render.ts";

function assembly(
  sections: Partial<AssembledSection>[],
  variables: Record<string, string | undefined> = {},
  separator?: string,
): PromptAssembly {
  const result: PromptAssembly = {
    sections: sections.map((s, i) => ({
      name: `s${i}`,
      order: i,
      text: "",
      ...s,
    })),
    tools: [],
    variables,
  };
  if (separator !== undefined) result.separator = separator;
  return result;
}

const item = (
  name: string,
  text: string,
  extra: Partial<AssembledItem> = {},
) => ({
  name,
  order: 0,
  text,
  ...extra,
});

const list = (
  items: AssembledItem[],
  extra: Partial<AssembledSection> = {},
): Partial<AssembledSection> => ({ text: "Head:", list: {}, items, ...extra });

describe("renderPrompt() separators", () => {
  it("joins with assembly.separator when it is set", () => {
    assert.equal(
      renderPrompt(assembly([{ text: "a" }, { text: "b" }], {}, "\n")),
      "a\nb",
    );
    assert.equal(
      renderPrompt(assembly([{ text: "a" }, { text: "b" }], {}, "")),
      "ab",
    );
  });

  it("joins with a blank line when assembly.separator is absent", () => {
    assert.equal(
      renderPrompt(assembly([{ text: "a" }, { text: "b" }])),
      "a\n\nb",
    );
  });

  it("puts a section's own separator before it, overriding the prompt's", () => {
    const text = renderPrompt(
      assembly(
        [{ text: "a" }, { text: "b", separator: "\n---\n" }, { text: "c" }],
        {},
        "\n",
      ),
    );
    assert.equal(text, "a\n---\nb\nc");
  });

  it("gives the first rendered section no separator, even its own", () => {
    const text = renderPrompt(
      assembly([{ text: " " }, { text: "b", separator: "\n\n\n" }, {
        text: "c",
        separator: "|",
      }]),
    );
    assert.equal(text, "b|c");
  });

  it("drops a dropped section's separator with it", () => {
    const text = renderPrompt(
      assembly(
        [{ text: "a" }, { text: "", separator: "XXX" }, { text: "c" }],
        {},
        "\n",
      ),
    );
    assert.equal(text, "a\nc");
  });

  it("keeps whitespace that ends the section before a dropped one (trim: false)", () => {
    const text = renderPrompt(
      assembly([
        { text: "a\n\n", trim: false },
        { text: "  ", separator: "\n" },
        { text: "c", separator: "" },
      ]),
    );
    assert.equal(text, "a\n\nc");
  });

  it("throws invalid-section for a non-string section separator, invalid-value for the prompt's", () => {
    assert.throws(
      () => renderPrompt(assembly([{ text: "a", separator: 1 as never }])),
      { name: "PromptError", code: "invalid-section", section: "s0" },
    );
    assert.throws(
      () => renderPrompt(assembly([{ text: "a" }], {}, null as never)),
      { name: "PromptError", code: "invalid-value" },
    );
  });
});

describe("renderPrompt() trim: false", () => {
  it("keeps the interpolated text as it is", () => {
    const text = renderPrompt(
      assembly([{ text: "  {{x}}\n", trim: false }], { x: " v " }),
    );
    assert.equal(text, "   v \n");
  });

  it("drops the section only when its text is exactly empty", () => {
    assert.equal(
      renderPrompt(assembly([{ text: "a" }, { text: " ", trim: false }])),
      "a\n\n ",
    );
    assert.equal(
      renderPrompt(
        assembly([{ text: "a" }, { text: "{{e}}", trim: false }], { e: "" }),
      ),
      "a",
    );
  });

  it("keeps a list heading's whitespace too", () => {
    const text = renderPrompt(
      assembly([list([item("i", "x")], { text: "Head:\n", trim: false })]),
    );
    assert.equal(text, "Head:\n\nx");
  });

  it("throws invalid-section for a trim flag that is not a boolean", () => {
    assert.throws(
      () => renderPrompt(assembly([{ text: "a", trim: 0 as never }])),
      {
        code: "invalid-section",
      },
    );
  });
});

describe("renderPrompt() literal", () => {
  it("renders {{, }} and \\{{ as ordinary characters and substitutes nothing", () => {
    const raw = "${{ secrets.TOKEN }} {{cwd}} \\{{x}} {{ use braces }} }} {{";
    assert.equal(
      renderPrompt(assembly([{ text: raw, literal: true }], { cwd: "/repo" })),
      raw.trim(),
    );
  });

  it("never throws for a literal text, even with no variables at all", () => {
    assert.equal(
      renderPrompt(assembly([{ text: "{{a b}}{{missing}}", literal: true }])),
      "{{a b}}{{missing}}",
    );
  });

  it("still trims a literal text unless trim: false", () => {
    assert.equal(
      renderPrompt(assembly([{ text: " {{x}} \n", literal: true }])),
      "{{x}}",
    );
    assert.equal(
      renderPrompt(
        assembly([{ text: " {{x}} \n", literal: true, trim: false }]),
      ),
      " {{x}} \n",
    );
  });

  it("applies to items too", () => {
    const text = renderPrompt(
      assembly([list([item("f", "Run {{cwd}}", { literal: true })])], {
        cwd: "/r",
      }),
    );
    assert.equal(text, "Head:\nRun {{cwd}}");
  });
});

describe("renderPrompt() lists", () => {
  it("renders the heading and the items joined with a newline by default", () => {
    const text = renderPrompt(
      assembly([list([item("a", "- a"), item("b", "- b")])]),
    );
    assert.equal(text, "Head:\n- a\n- b");
  });

  it("joins with list.separator, only between parts", () => {
    const text = renderPrompt(
      assembly([
        list([item("a", "a"), item("b", "b")], { list: { separator: ", " } }),
      ]),
    );
    assert.equal(text, "Head:, a, b");
  });

  it("renders items in the order the assembly lists them", () => {
    const text = renderPrompt(
      assembly([
        list([item("b", "B", { order: 9 }), item("a", "A", { order: 1 })]),
      ]),
    );
    assert.equal(text, "Head:\nB\nA");
  });

  it("interpolates and trims items", () => {
    const text = renderPrompt(
      assembly([list([item("a", "  - {{m}}  ")])], { m: "m-1" }),
    );
    assert.equal(text, "Head:\n- m-1");
  });

  it('keeps an item\'s whitespace with trim: false (a template loop with separator "")', () => {
    const items = [
      item("a", "## a\n", { trim: false }),
      item("b", "## b\n", { trim: false }),
    ];
    const text = renderPrompt(
      assembly([
        list(items, { text: "# Ext\n", trim: false, list: { separator: "" } }),
      ]),
    );
    assert.equal(text, "# Ext\n## a\n## b\n");
  });

  it("drops items that render empty", () => {
    const text = renderPrompt(
      assembly([list([item("a", " "), item("b", "{{e}}"), item("c", "c")])], {
        e: "",
      }),
    );
    assert.equal(text, "Head:\nc");
  });

  it("keeps the first of equal items with dedupe", () => {
    const items = [
      item("a", "- same", { owner: "p1" }),
      item("b", " - same ", { owner: "p2" }),
      item("c", "- other"),
    ];
    assert.equal(
      renderPrompt(assembly([list(items, { list: { dedupe: true } })])),
      "Head:\n- same\n- other",
    );
    assert.equal(
      renderPrompt(assembly([list(items)])),
      "Head:\n- same\n- same\n- other",
    );
  });

  it("leaves out an empty heading", () => {
    assert.equal(
      renderPrompt(
        assembly([list([item("a", "a"), item("b", "b")], { text: "  " })]),
      ),
      "a\nb",
    );
  });

  it("renders list.empty verbatim when no item remains, after the section's separator", () => {
    const text = renderPrompt(
      assembly([
        { text: "intro" },
        list([item("a", " ")], {
          separator: "\n",
          list: { empty: "  Tools: {{none}}  " },
        }),
      ]),
    );
    assert.equal(text, "intro\n  Tools: {{none}}  ");
  });

  it("drops the whole list, heading included, when no item remains and there is no empty text", () => {
    assert.equal(
      renderPrompt(assembly([{ text: "a" }, list([]), { text: "c" }])),
      "a\n\nc",
    );
    assert.equal(
      renderPrompt(assembly([{ text: "a" }, list([item("x", "")])])),
      "a",
    );
  });

  it("treats a list without items as having none", () => {
    assert.equal(
      renderPrompt(assembly([{ text: "Head:", list: { empty: "none" } }])),
      "none",
    );
  });

  it("renders the text of a section without list as it is, ignoring any items", () => {
    assert.equal(
      renderPrompt(assembly([{ text: "a", items: [item("x", "x")] }])),
      "a",
    );
  });
});

describe("renderPrompt() item errors", () => {
  it("names the item, its list and owner, and line:column in the item's text", () => {
    assert.throws(
      () =>
        renderPrompt(
          assembly([
            list([item("bash", "- bash\n  see {{modle}}", { owner: "bash" })], {
              owner: "loop",
            }),
          ], { model: "m" }),
        ),
      (error) => {
        assert.ok(error instanceof PromptError);
        assert.equal(error.code, "unknown-variable");
        assert.deepEqual(
          [
            error.item,
            error.section,
            error.owner,
            error.line,
            error.column,
            error.offset,
            error.suggestion,
          ],
          ["bash", "s0", "bash", 2, 7, 13, "model"],
        );
        assert.equal(
          error.message,
          'Cannot render item "bash" of list "s0" of "bash": {{modle}} at 2:7 names variable "modle", which is not registered; did you mean "model"?',
        );
        return true;
      },
    );
  });

  it("reports a malformed group in an item as the item's", () => {
    assert.throws(
      () =>
        renderPrompt(
          assembly([list([item("x", "ok\n{{ a b }}", { owner: "p" })])]),
        ),
      (error) => {
        assert.ok(error instanceof PromptError);
        assert.deepEqual(
          [
            error.code,
            error.item,
            error.section,
            error.owner,
            error.line,
            error.column,
          ],
          ["malformed-reference", "x", "s0", "p", 2, 1],
        );
        assert.match(
          error.message,
          /^Cannot render item "x" of list "s0" of "p": "\{\{ a b \}\}" at 2:1 is not/,
        );
        return true;
      },
    );
  });

  it("reports the first problem in an item's text: a bad reference before a malformed group", () => {
    const bad = (text: string) => () =>
      renderPrompt(assembly([list([item("x", text, { owner: "p" })])]));
    assert.throws(bad("{{nope}} {{ a b }}"), {
      code: "unknown-variable",
      item: "x",
      offset: 0,
    });
    assert.throws(bad("{{ a b }} {{nope}}"), {
      code: "malformed-reference",
      item: "x",
      offset: 0,
    });
  });

  it("names the section, not an item, for an error in the heading", () => {
    assert.throws(
      () =>
        renderPrompt(
          assembly([list([item("x", "x")], { text: "{{h}}" })], {
            h: undefined,
          }),
        ),
      (error) =>
        error instanceof PromptError && error.code === "missing-value" &&
        error.item === undefined && error.section === "s0",
    );
  });

  it("throws invalid-item for an item whose text a handler made a non-string", () => {
    assert.throws(
      () =>
        renderPrompt(assembly([list([item("x", 3 as never, { owner: "p" })])])),
      {
        name: "PromptError",
        code: "invalid-item",
        item: "x",
        section: "s0",
        owner: "p",
      },
    );
  });

  it("throws invalid-section for a list, items or list field of the wrong type", () => {
    for (
      const bad of [
        { list: "yes" as never },
        { list: {}, items: {} as never },
        { list: { separator: 1 as never } },
        { list: { empty: null as never } },
        { list: { dedupe: "y" as never } },
      ]
    ) {
      assert.throws(() => renderPrompt(assembly([{ text: "h", ...bad }])), {
        name: "PromptError",
        code: "invalid-section",
      });
    }
    // An entry of items that is no object is an item at fault (the field table's code).
    assert.throws(
      () =>
        renderPrompt(
          assembly([{ text: "h", list: {}, items: [null as never] }]),
        ),
      { name: "PromptError", code: "invalid-item", section: "s0", item: "#0" },
    );
  });
  it("throws invalid-item naming the item for an item flag of the wrong type", () => {
    const bad = item("x", "x", { literal: 1 as never, owner: "p" });
    assert.throws(
      () => renderPrompt(assembly([{ text: "h", list: {}, items: [bad] }])),
      {
        name: "PromptError",
        code: "invalid-item",
        item: "x",
        section: "s0",
        owner: "p",
        message:
          'Cannot render item "x" of list "s0" of "p": its literal is 1, not a boolean',
      },
    );
  });
});

describe("renderPrompt() headingSeparator, item separator, footer", () => {
  const tiers = (extra: Partial<AssembledSection> = {}) =>
    list([item("global", "G"), item("p1", "P1"), item("p2", "P2")], {
      text: "<INSTRUCTIONS>",
      ...extra,
    });

  it("puts list.headingSeparator between the heading and the first item", () => {
    const text = renderPrompt(
      assembly([
        tiers({ list: { headingSeparator: "\n", separator: "\n\n" } }),
      ]),
    );
    assert.equal(text, "<INSTRUCTIONS>\nG\n\nP1\n\nP2");
  });

  it("defaults headingSeparator and footerSeparator to the list's separator", () => {
    const text = renderPrompt(
      assembly([
        tiers({ list: { separator: " | ", footer: "</INSTRUCTIONS>" } }),
      ]),
    );
    assert.equal(text, "<INSTRUCTIONS> | G | P1 | P2 | </INSTRUCTIONS>");
  });

  it("puts an item's own separator before it when an earlier item rendered", () => {
    const items = [
      item("global", "G"),
      item("p1", "P1", { separator: "\n--- project-doc ---\n" }),
      item("p2", "P2"),
    ];
    const layout = { headingSeparator: "\n", separator: "\n\n" };
    const text = renderPrompt(
      assembly([list(items, { text: "<I>", list: layout })]),
    );
    assert.equal(text, "<I>\nG\n--- project-doc ---\nP1\n\nP2");
  });

  it("gives the first rendered item no separator of its own: the heading is not an earlier item", () => {
    const items = [
      item("global", " "),
      item("p1", "P1", { separator: "\n--- project-doc ---\n" }),
    ];
    const layout = { headingSeparator: "\n", separator: "\n\n" };
    assert.equal(
      renderPrompt(assembly([list(items, { text: "<I>", list: layout })])),
      "<I>\nP1",
    );
    assert.equal(
      renderPrompt(assembly([list(items, { text: "", list: layout })])),
      "P1",
    );
  });

  it("renders the footer after the last item, interpolated and trimmed like the heading", () => {
    const text = renderPrompt(
      assembly([
        list([item("pdf", "- pdf")], {
          text: "<skills>",
          list: { footer: "  </skills of {{who}}>  " },
        }),
      ], { who: "me" }),
    );
    assert.equal(text, "<skills>\n- pdf\n</skills of me>");
    const kept = renderPrompt(
      assembly([
        list([item("pdf", "- pdf")], {
          text: "<skills>",
          trim: false,
          list: { footer: "\n</skills>", footerSeparator: "" },
        }),
      ]),
    );
    assert.equal(kept, "<skills>\n- pdf\n</skills>");
    const literal = renderPrompt(
      assembly([
        list([item("pdf", "- pdf")], {
          text: "{{",
          literal: true,
          list: { footer: "}} {{x}}" },
        }),
      ]),
    );
    assert.equal(literal, "{{\n- pdf\n}} {{x}}");
  });

  it("leaves out a footer that renders empty, with its separator", () => {
    const text = renderPrompt(
      assembly([list([item("a", "A")], { list: { footer: "{{e}}" } })], {
        e: " ",
      }),
    );
    assert.equal(text, "Head:\nA");
  });

  it("replaces heading, items and footer together with empty when no item remains", () => {
    const text = renderPrompt(
      assembly([
        { text: "intro" },
        list([item("a", "")], {
          text: "<skills>",
          list: { footer: "</skills>", empty: "(no skills)" },
        }),
      ]),
    );
    assert.equal(text, "intro\n\n(no skills)");
    assert.equal(
      renderPrompt(
        assembly([list([], { list: { footer: "</skills>" } }), { text: "c" }]),
      ),
      "c",
    );
  });

  it("still reports an error in the footer of a list with no item left", () => {
    assert.throws(
      () =>
        renderPrompt(
          assembly([
            list([], { owner: "skills", list: { footer: "{{nope}}" } }),
          ]),
        ),
      (error) => {
        assert.ok(error instanceof PromptError);
        assert.deepEqual(
          [error.code, error.section, error.item, error.owner, error.column],
          ["unknown-variable", "s0", undefined, "skills", 1],
        );
        assert.match(
          error.message,
          /at 1:1 of its footer names variable "nope"/,
        );
        return true;
      },
    );
  });

  it("throws invalid-section for a nested-list field (headingSeparator, footer, …) of the wrong kind", () => {
    for (
      const bad of [
        { headingSeparator: 1 },
        { footer: null },
        { footer: () => "x" },
        { footerSeparator: false },
        { empty: () => "x" },
      ]
    ) {
      assert.throws(
        () =>
          renderPrompt(
            assembly([list([item("a", "a")], { list: bad as never })]),
          ),
        { name: "PromptError", code: "invalid-section", section: "s0" },
        JSON.stringify(bad),
      );
    }
    assert.throws(
      () =>
        renderPrompt(
          assembly([
            list([item("a", "a", { separator: 2 as never, owner: "p" })]),
          ]),
        ),
      {
        code: "invalid-item",
        item: "a",
        owner: "p",
        message:
          'Cannot render item "a" of list "s0" of "p": its separator is 2, not a string',
      },
    );
  });
});

describe("renderPrompt() nested lists", () => {
  // Memory files in tiers, each under its own heading, inside one element.
  const memory = (tiers: AssembledItem[]): PromptAssembly =>
    assembly([
      { text: "Be brief." },
      {
        name: "memory",
        text: "<memory>",
        owner: "memory",
        list: {
          footer: "</memory>",
          separator: "\n\n",
          headingSeparator: "\n",
        },
        items: tiers,
      },
    ]);
  const tier = (name: string, files: AssembledItem[]): AssembledItem => ({
    name,
    order: 0,
    text: `## ${name}`,
    owner: "memory",
    list: {},
    items: files,
  });

  it("renders an item with list as its own list inside its parent", () => {
    const text = renderPrompt(memory([
      tier("global", [item("~/AGENTS.md", "Use tabs.", { owner: "home" })]),
      tier("project", [
        item("AGENTS.md", "Run tests.", { owner: "repo" }),
        item("src/AGENTS.md", "No classes.", { owner: "repo" }),
      ]),
    ]));
    assert.equal(
      text,
      "Be brief.\n\n<memory>\n## global\nUse tabs.\n\n## project\nRun tests.\nNo classes.\n\n</memory>",
    );
  });

  it("drops an empty nested list, and its parent when nothing is left", () => {
    const one = memory([
      tier("global", []),
      tier("project", [item("AGENTS.md", "Run tests.")]),
    ]);
    assert.equal(
      renderPrompt(one),
      "Be brief.\n\n<memory>\n## project\nRun tests.\n\n</memory>",
    );
    const none = memory([
      tier("global", []),
      tier("project", [item("x", " ")]),
    ]);
    assert.equal(renderPrompt(none), "Be brief.");
    const withEmpty = memory([
      { ...tier("global", []), list: { empty: "(no global memory)" } },
    ]);
    assert.equal(
      renderPrompt(withEmpty),
      "Be brief.\n\n<memory>\n(no global memory)\n\n</memory>",
    );
  });

  it("dedupes nested lists by their whole rendered text", () => {
    const a = memory([
      tier("a", [item("f", "F")]),
      { ...tier("b", [item("f", "F")]), text: "## a" },
    ]);
    a.sections[1]!.list!.dedupe = true;
    assert.equal(
      renderPrompt(a),
      "Be brief.\n\n<memory>\n## a\nF\n\n</memory>",
    );
  });

  it("names a nested item, its owner and its lists' path in errors", () => {
    const a = memory([
      tier("project", [item("AGENTS.md", "Run {{tool}}.", { owner: "repo" })]),
    ]);
    assert.throws(() => renderPrompt(a), (error) => {
      assert.ok(error instanceof PromptError);
      assert.deepEqual(
        [error.code, error.section, error.item, error.owner],
        ["unknown-variable", "memory", "AGENTS.md", "repo"],
      );
      assert.equal(
        error.message,
        'Cannot render item "AGENTS.md" of list "memory" > "project" of "repo": {{tool}} at 1:5 names variable "tool", which is not registered',
      );
      return true;
    });
    const heading = memory([{ ...tier("project", []), text: "## {{nope}}" }]);
    assert.throws(() => renderPrompt(heading), {
      code: "unknown-variable",
      section: "memory",
      item: "project",
      owner: "memory",
    });
    const bad = memory([tier("project", [null as never])]);
    assert.throws(() => renderPrompt(bad), {
      code: "invalid-item",
      section: "memory",
      item: "#0",
      message:
        'Cannot render item "#0" of list "memory" > "project": its entry is null, not an object',
    });
  });
});

describe("renderContext()", () => {
  const withContexts = (
    contexts: Partial<AssembledSection>[] | undefined,
    extra: Partial<PromptAssembly> = {},
  ): PromptAssembly => {
    const a = assembly([{ text: "System." }], { time: "9:00" });
    if (contexts !== undefined) {
      a.contexts = contexts.map((c, i) => ({
        name: `c${i}`,
        order: i,
        text: "",
        ...c,
      }));
    }
    return { ...a, ...extra };
  };

  it("renders the context entries, never the sections, and renderPrompt never the contexts", () => {
    const a = withContexts([{ text: "It is {{time}}." }, {
      text: "Todo: none",
    }]);
    assert.equal(renderContext(a), "It is 9:00.\n\nTodo: none");
    assert.equal(renderPrompt(a), "System.");
  });

  it('returns "" for no contexts, an empty list of them, or none that renders', () => {
    assert.equal(renderContext(withContexts(undefined)), "");
    assert.equal(renderContext(withContexts([])), "");
    assert.equal(renderContext(withContexts([{ text: " " }])), "");
  });

  it("joins entries with a blank line or an entry's own separator, never the prompt's separator", () => {
    const a = withContexts(
      [{ text: "a" }, { text: "b" }, { text: "c", separator: "\n" }],
      { separator: " | " },
    );
    assert.equal(renderContext(a), "a\n\nb\nc");
  });

  it("renders lists, literal text and trim: false as sections do", () => {
    const a = withContexts([
      {
        text: "<env>",
        list: { footer: "</env>" },
        items: [
          item("cwd", "cwd: /r"),
          item("raw", "{{x}}", { literal: true }),
        ],
      },
      { text: " kept ", trim: false },
    ]);
    assert.equal(renderContext(a), "<env>\ncwd: /r\n{{x}}\n</env>\n\n kept ");
  });

  it("names the context entry where a section's error names the section", () => {
    const a = withContexts([{ text: "{{clock}}", owner: "clock" }]);
    assert.throws(() => renderContext(a), (error) => {
      assert.ok(error instanceof PromptError);
      assert.deepEqual(
        [error.code, error.context, error.section, error.owner],
        ["unknown-variable", "c0", undefined, "clock"],
      );
      assert.match(
        error.message,
        /^Cannot render context entry "c0" of "clock": /,
      );
      return true;
    });
    const item = withContexts([{
      text: "h",
      list: {},
      items: [{ name: "i", order: 0, text: 1 as never }],
    }]);
    assert.throws(() => renderContext(item), {
      code: "invalid-item",
      context: "c0",
      item: "i",
    });
    assert.throws(() => renderContext(withContexts([{ text: 2 as never }])), {
      code: "invalid-context",
      context: "c0",
    });
    assert.throws(
      () => renderContext({ ...withContexts([]), contexts: {} as never }),
      {
        code: "invalid-value",
        message:
          "Cannot render the context: its contexts is an object, not an array",
      },
    );
  });
});
