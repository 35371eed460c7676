import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type PromptAssembly, SystemPrompt } from "../mod.ts";
import { comparePrompts } from "../inspect.ts";

interface Step {
  date: string;
  tools?: string[];
}

function registry(dateOrder: number) {
  const prompt = new SystemPrompt<Step>();
  prompt.scope("clock").variable("date", (context) => context.date);
  prompt.scope("agent-loop").section({
    name: "persona",
    order: 0,
    text: "You are an agent.",
  });
  prompt.scope("clock").section({
    name: "clock",
    order: dateOrder,
    text: "Today is {{date}}.",
  });
  prompt.scope("bash").section({
    name: "tool:bash",
    order: 105,
    text: "Check exit codes.",
  });
  prompt.tools((context) =>
    (context.tools ?? ["bash", "read"]).map((name) => ({
      name,
      description: "",
      parameters: {},
    }))
  );
  return prompt;
}

describe("comparePrompts()", () => {
  it("reports identical assemblies", async () => {
    const prompt = registry(1);
    const comparison = comparePrompts(
      await prompt.assemble({ date: "d1" }),
      await prompt.assemble({ date: "d1" }),
    );
    assert.deepEqual(comparison, {
      identical: true,
      sameText: true,
      changedVariables: [],
      tools: {
        changed: false,
        previous: ["bash", "read"],
        next: ["bash", "read"],
      },
    });
  });

  it("finds the first differing section, the offset and the changed variables", async () => {
    const prompt = registry(1);
    const comparison = comparePrompts(
      await prompt.assemble({ date: "d1" }),
      await prompt.assemble({ date: "d2" }),
    );
    assert.equal(comparison.identical, false);
    assert.equal(comparison.offset, "You are an agent.\n\nToday is d".length);
    assert.deepEqual(comparison.firstChangedSection, {
      name: "clock",
      owner: "clock",
      index: 1,
      change: "changed",
    });
    assert.deepEqual(comparison.changedVariables, ["date"]);
  });

  it("flags a changed section followed only by unchanged ones as a prefix break", async () => {
    const prompt = registry(1);
    const { prefixBreak } = comparePrompts(
      await prompt.assemble({ date: "d1" }),
      await prompt.assemble({ date: "d2" }),
    );
    assert.deepEqual(prefixBreak, {
      section: "clock",
      owner: "clock",
      unchangedAfter: 1,
      charsAfter: "\n\nCheck exit codes.".length,
      message:
        'Section "clock" of "clock" changed while the 1 section after it did not: the change ' +
        "invalidates the provider's prefix cache for 19 characters that did not change; give it a " +
        "higher order so that it renders after them",
    });
  });

  it("does not flag a change in the last section", async () => {
    const prompt = registry(900);
    const comparison = comparePrompts(
      await prompt.assemble({ date: "d1" }),
      await prompt.assemble({ date: "d2" }),
    );
    assert.equal(comparison.prefixBreak, undefined);
    assert.equal(comparison.firstChangedSection?.name, "clock");
  });

  it("does not flag a change followed by other changes", () => {
    const assembly = (a: string, b: string): PromptAssembly => ({
      sections: [{ name: "a", order: 0, text: a }, {
        name: "b",
        order: 1,
        text: b,
      }, {
        name: "c",
        order: 2,
        text: "same",
      }],
      tools: [],
      variables: {},
    });
    const comparison = comparePrompts(assembly("1", "1"), assembly("2", "2"));
    assert.equal(comparison.firstChangedSection?.name, "a");
    assert.equal(comparison.prefixBreak, undefined);
  });

  it("reports added and removed sections and variables", () => {
    const before: PromptAssembly = {
      sections: [{ name: "a", order: 0, text: "A" }, {
        name: "b",
        order: 1,
        text: "B",
      }],
      tools: [],
      variables: { x: "1", y: "2" },
    };
    const after: PromptAssembly = {
      sections: [{ name: "a", order: 0, text: "A" }],
      tools: [],
      variables: { x: "1", z: undefined },
    };
    const comparison = comparePrompts(before, after);
    assert.equal(comparison.offset, 1);
    assert.deepEqual(comparison.firstChangedSection, {
      name: "b",
      index: 1,
      change: "removed",
    });
    assert.deepEqual(comparison.changedVariables, ["y", "z"]);
  });

  it("reports a change in tool names or order even when the text is the same", async () => {
    const prompt = registry(1);
    const comparison = comparePrompts(
      await prompt.assemble({ date: "d1" }),
      await prompt.assemble({ date: "d1", tools: ["read", "bash"] }),
    );
    assert.equal(comparison.sameText, true);
    assert.equal(comparison.identical, false);
    assert.deepEqual(comparison.tools, {
      changed: true,
      previous: ["bash", "read"],
      next: ["read", "bash"],
    });
  });
});
