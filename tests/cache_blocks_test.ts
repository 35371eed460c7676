// cacheBlocks(): consecutive parts grouped by stability, joined back to
// exactly the rendered prompt, breakpoints only before the first step block
// and within maxBreakpoints; a block is never more stable than its most
// volatile item.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type AssembledSection,
  type PromptAssembly,
  PromptError,
  renderPrompt,
  type Stability,
} from "../mod.ts";
import { cacheBlocks, explainPrompt } from "../inspect.ts";
import { assemblyWith, item } from "./support/assembly.ts";

function stabilities(list: (Stability | undefined)[]): PromptAssembly {
  return {
    sections: list.map((stability, i) => ({
      name: `s${i}`,
      order: i,
      text: `text ${i}`,
      ...(stability === undefined ? {} : { stability }),
    })),
    tools: [],
    variables: {},
  };
}

const assembly = (
  sections: (Partial<AssembledSection> & { name: string })[],
  separator?: string,
) => assemblyWith(sections, separator === undefined ? {} : { separator });

const shape = (a: PromptAssembly, maxBreakpoints?: number) =>
  cacheBlocks(a, maxBreakpoints === undefined ? {} : { maxBreakpoints }).map((
    b,
  ) => `${b.sections.join("+")}:${b.stability}:${b.cache ? "cache" : "-"}`);

describe("cacheBlocks()", () => {
  it("groups consecutive sections by stability, undeclared counting as static", () => {
    assert.deepEqual(
      shape(stabilities([undefined, "static", "session", "session", "step"])),
      [
        "s0+s1:static:cache",
        "s2+s3:session:cache",
        "s4:step:-",
      ],
    );
  });

  it("joins back to exactly the rendered prompt", () => {
    const a = stabilities(["static", "step", "static", "session"]);
    assert.equal(
      cacheBlocks(a).map((b) => b.text).join("\n\n"),
      renderPrompt(a),
    );
  });

  it("marks nothing after the first step block, even stable text", () => {
    assert.deepEqual(shape(stabilities(["static", "step", "static"])), [
      "s0:static:cache",
      "s1:step:-",
      "s2:static:-",
    ]);
  });

  it("marks at most maxBreakpoints, keeping the longest prefixes", () => {
    assert.deepEqual(
      shape(stabilities(["static", "session", "static", "session"]), 2),
      [
        "s0:static:-",
        "s1:session:-",
        "s2:static:cache",
        "s3:session:cache",
      ],
    );
  });

  it("marks 3 by default, leaving one of a 4-breakpoint budget for the tools", () => {
    assert.deepEqual(
      shape(stabilities(["static", "session", "static", "session", "static"])),
      [
        "s0:static:-",
        "s1:session:-",
        "s2:static:cache",
        "s3:session:cache",
        "s4:static:cache",
      ],
    );
  });

  it("returns no blocks for an empty prompt", () => {
    assert.deepEqual(cacheBlocks(stabilities([])), []);
  });
});

describe("cacheBlocks() with a layout", () => {
  it("joins back to exactly renderPrompt's output with custom separators", () => {
    const a = assembly([
      { name: "persona", text: "Hi." },
      { name: "env", text: "cwd", stability: "session", separator: "\n\n\n" },
      { name: "clock", text: "9:00", stability: "step" },
    ], "\n");
    const blocks = cacheBlocks(a);
    assert.deepEqual(blocks.map((b) => [b.separator, b.text]), [
      ["", "Hi."],
      ["\n\n\n", "cwd"],
      ["\n", "9:00"],
    ]);
    assert.equal(
      blocks.map((b) => b.separator + b.text).join(""),
      renderPrompt(a),
    );
  });

  it("makes a block no more stable than its most volatile item", () => {
    const a = assembly([
      { name: "persona", text: "Hi." },
      {
        name: "env",
        text: "<env>",
        list: {},
        items: [item("cwd", "/r"), item("date", "d1", { stability: "step" })],
      },
      { name: "rules", text: "Be brief." },
    ]);
    assert.deepEqual(
      cacheBlocks(a).map((b) => [b.sections, b.stability, b.cache]),
      [
        [["persona"], "static", true],
        [["env"], "step", false],
        [["rules"], "static", false],
      ],
    );
  });

  it("makes a block no more stable than an item of a nested list", () => {
    const a = assembly([
      { name: "persona", text: "Hi." },
      {
        name: "memory",
        text: "<memory>",
        list: { footer: "</memory>" },
        items: [
          item("project", "# Project", {
            list: {},
            items: [item("notes.md", "N", { stability: "session" })],
          }),
        ],
      },
    ]);
    const blocks = cacheBlocks(a);
    assert.deepEqual(blocks.map((b) => [b.sections, b.stability, b.cache]), [
      [["persona"], "static", true],
      [["memory"], "session", true],
    ]);
    assert.equal(
      blocks.map((b) => b.separator + b.text).join(""),
      explainPrompt(a).text,
    );
  });

  it("ignores the runtime context", () => {
    const a = assembly([{ name: "persona", text: "Hi." }]);
    const withContext: PromptAssembly = {
      ...a,
      contexts: [{ name: "clock", order: 0, text: "9:00", stability: "step" }],
    };
    assert.deepEqual(cacheBlocks(withContext), cacheBlocks(a));
  });

  it("throws a clear error for an option of the wrong type or range", () => {
    const a = assembly([{ name: "a", text: "A" }]);
    for (const bad of [1.5, -1, NaN, Infinity]) {
      assert.throws(() => cacheBlocks(a, { maxBreakpoints: bad }), (error) => {
        assert.ok(error instanceof PromptError);
        assert.equal(error.code, "invalid-option");
        assert.equal(
          error.message,
          `Cannot split cache blocks: maxBreakpoints must be a non-negative integer, got ${bad}`,
        );
        return true;
      });
    }
    assert.throws(() => cacheBlocks(a, { maxBreakpoints: "2" as never }), {
      name: "TypeError",
      message:
        "Cannot split cache blocks: maxBreakpoints must be a number, got a string",
    });
    assert.throws(() => cacheBlocks(a, null as never), TypeError);
    assert.equal(cacheBlocks(a, { maxBreakpoints: 0 })[0]!.cache, false);
    assert.equal(cacheBlocks(a, undefined)[0]!.cache, true);
  });
});
