// SPEC §7.1–7.3 as renderPrompt sees them: one test per rule, each on an
// assembly built by hand so that the renderer alone is under test.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type AssembledItem,
  type AssembledSection,
  type PromptAssembly,
  PromptError,
  renderPrompt,
} from "../mod.ts";

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

describe("renderPrompt() separators (§7.1)", () => {
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

describe("renderPrompt() trim: false (§7.1)", () => {
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

describe("renderPrompt() literal (§7.2)", () => {
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

describe("renderPrompt() lists (§7.3)", () => {
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

describe("renderPrompt() item errors (§7.4)", () => {
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
          'Cannot render item "bash" of list "s0": {{modle}} at 2:7 names variable "modle", which is not registered; did you mean "model"?',
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
          /^Cannot render item "x" of list "s0": "\{\{ a b \}\}" at 2:1 is not/,
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
        { list: {}, items: [null as never] },
      ]
    ) {
      assert.throws(() => renderPrompt(assembly([{ text: "h", ...bad }])), {
        name: "PromptError",
        code: "invalid-section",
      });
    }
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
          'Cannot render item "x" of list "s0": its literal is a number, not a boolean',
      },
    );
  });
});
