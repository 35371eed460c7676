import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type PromptAssembly, renderPrompt, type Stability } from "../mod.ts";
import { cacheBlocks } from "../inspect.ts";

function assembly(stabilities: (Stability | undefined)[]): PromptAssembly {
  return {
    sections: stabilities.map((stability, i) => ({
      name: `s${i}`,
      order: i,
      text: `text ${i}`,
      ...(stability === undefined ? {} : { stability }),
    })),
    tools: [],
    variables: {},
  };
}

const shape = (a: PromptAssembly, maxBreakpoints?: number) =>
  cacheBlocks(a, maxBreakpoints === undefined ? {} : { maxBreakpoints }).map((
    b,
  ) => `${b.sections.join("+")}:${b.stability}:${b.cache ? "cache" : "-"}`);

describe("cacheBlocks()", () => {
  it("groups consecutive sections by stability, undeclared counting as static", () => {
    assert.deepEqual(
      shape(assembly([undefined, "static", "session", "session", "step"])),
      [
        "s0+s1:static:cache",
        "s2+s3:session:cache",
        "s4:step:-",
      ],
    );
  });

  it("joins back to exactly the rendered prompt", () => {
    const a = assembly(["static", "step", "static", "session"]);
    assert.equal(
      cacheBlocks(a).map((b) => b.text).join("\n\n"),
      renderPrompt(a),
    );
  });

  it("marks nothing after the first step block, even stable text", () => {
    assert.deepEqual(shape(assembly(["static", "step", "static"])), [
      "s0:static:cache",
      "s1:step:-",
      "s2:static:-",
    ]);
  });

  it("marks at most maxBreakpoints, keeping the longest prefixes", () => {
    assert.deepEqual(
      shape(assembly(["static", "session", "static", "session"]), 2),
      [
        "s0:static:-",
        "s1:session:-",
        "s2:static:cache",
        "s3:session:cache",
      ],
    );
  });

  it("returns no blocks for an empty prompt", () => {
    assert.deepEqual(cacheBlocks(assembly([])), []);
  });
});
