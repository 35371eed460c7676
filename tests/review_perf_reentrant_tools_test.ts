// A tool provider that resolves the same snapshot again (re-entrantly, as a
// provider calling `assemble()` on its own registry does) must not let the
// nested resolution's record vouch for the interrupted one's tools.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { ToolSchema } from "../mod.ts";
import type { ToolEntry } from "../src/core/_entries.ts";
import { resolveTools } from "../src/core/_resolve_tools.ts";
import { PromptError } from "../src/core/errors.ts";

const tool = (name: string): ToolSchema => ({
  name,
  description: name,
  parameters: {},
});

describe("resolveTools() re-entered from a provider", () => {
  it("still finds a duplicate name", () => {
    const a = tool("a");
    const b = tool("b");
    const a2 = tool("a");
    let first: ToolSchema[] = [a];
    let second: ToolSchema[] = [b];
    let nested = false;
    const entries: ToolEntry<undefined>[] = [
      { owner: "one", provider: () => first },
      {
        owner: "two",
        provider: () => {
          if (nested) {
            nested = false;
            // The nested resolution is valid on its own: ["b", "a"].
            first = [b];
            second = [a2];
            assert.deepEqual(
              resolveTools(entries, undefined).map((t) => t.name),
              ["b", "a"],
            );
            first = [a];
          }
          return second;
        },
      },
    ];
    assert.deepEqual(resolveTools(entries, undefined).map((t) => t.name), [
      "a",
      "b",
    ]);
    nested = true;
    // The outer one holds "a" twice: provider one's first, then two's.
    assert.throws(
      () => resolveTools(entries, undefined),
      (error) =>
        error instanceof PromptError && error.code === "duplicate-tool" &&
        error.tool === "a" && error.owner === "two",
    );
  });
});
