// deno-lint-ignore-file require-await -- async handlers that never await are the cases under test
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SystemPrompt } from "../mod.ts";

function registry() {
  const prompt = new SystemPrompt();
  prompt.section({ name: "a", order: 0, text: "A" });
  prompt.section({ name: "b", order: 1, text: "B" });
  prompt.variable("x", () => "1");
  prompt.tools(() => [
    { name: "read", description: "Reads.", parameters: {} },
    { name: "bash", description: "Runs.", parameters: {} },
  ]);
  return prompt;
}

describe("assemble({ audit: true })", () => {
  it("records what each handler added, removed or changed, by owner", async () => {
    const prompt = registry();
    prompt.scope("sandbox").on(
      "system-prompt/assemble",
      function readOnly(assembly) {
        assembly.tools = assembly.tools.filter((t) => t.name !== "bash");
      },
    );
    prompt.scope("dates").on(
      "system-prompt/assemble",
      async function addDate(assembly) {
        return {
          ...assembly,
          variables: { ...assembly.variables, date: "d", x: "2" },
          sections: [...assembly.sections.filter((s) => s.name !== "b"), {
            name: "c",
            order: 2,
            text: "C",
          }],
        };
      },
    );
    prompt.on("system-prompt/assemble", (assembly) => {
      assembly.sections[0]!.text = "A!";
      assembly.tools[0]!.description = "Reads files.";
    });
    const { audit } = await prompt.assemble({}, { audit: true });
    assert.deepEqual(audit, [
      {
        handler: "readOnly",
        owner: "sandbox",
        kind: "tool",
        name: "bash",
        change: "removed",
      },
      {
        handler: "addDate",
        owner: "dates",
        kind: "section",
        name: "c",
        change: "added",
      },
      {
        handler: "addDate",
        owner: "dates",
        kind: "section",
        name: "b",
        change: "removed",
      },
      {
        handler: "addDate",
        owner: "dates",
        kind: "variable",
        name: "x",
        change: "changed",
      },
      {
        handler: "addDate",
        owner: "dates",
        kind: "variable",
        name: "date",
        change: "added",
      },
      { handler: "#2", kind: "section", name: "a", change: "changed" },
      { handler: "#2", kind: "tool", name: "read", change: "changed" },
    ]);
  });

  it("is off by default", async () => {
    const prompt = registry();
    prompt.on("system-prompt/assemble", () => {});
    assert.equal((await prompt.assemble()).audit, undefined);
  });

  it("gives an empty audit when no handler changed anything", async () => {
    const prompt = registry();
    prompt.on("system-prompt/assemble", () => undefined);
    assert.deepEqual((await prompt.assemble({}, { audit: true })).audit, []);
  });

  it("keeps the handlers' errors as they are", async () => {
    const prompt = registry();
    prompt.scope("p").on("system-prompt/assemble", () => 42 as never);
    await assert.rejects(prompt.assemble({}, { audit: true }), {
      code: "invalid-value",
      owner: "p",
    });
    const failing = registry();
    failing.scope("p").on("system-prompt/assemble", async () => {
      throw new Error("boom");
    });
    await assert.rejects(failing.assemble({}, { audit: true }), {
      code: "handler-failed",
      owner: "p",
    });
  });
});
