// SystemPrompt.scope(): an owner carried into every registration, and
// everything it registered (and nothing else) removed when it is disposed,
// newest first; a registration through a disposed scope is scope-disposed.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type PromptChange, SystemPrompt } from "../mod.ts";

describe("SystemPrompt.scope()", () => {
  it("carries its owner into every registration", async () => {
    const prompt = new SystemPrompt();
    const scope = prompt.scope("bash");
    assert.equal(scope.owner, "bash");
    scope.section({ name: "tool:bash", order: 105, text: "x" });
    assert.equal((await prompt.assemble()).sections[0]?.owner, "bash");
  });

  it("removes everything it registered when disposed, and nothing else", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "root", order: 0, text: "r" });
    const scope = prompt.scope("p");
    scope.section({ name: "s", order: 1, text: "s" });
    scope.variable("v", () => "v");
    scope.tools(() => [{ name: "t", description: "", parameters: {} }]);
    scope.on("system-prompt/assemble", (assembly) => {
      assembly.variables.extra = "e";
    });
    scope.dispose();
    assert.equal(scope.disposed, true);
    const assembly = await prompt.assemble();
    assert.deepEqual(assembly.sections.map((s) => s.name), ["root"]);
    assert.deepEqual(assembly.tools, []);
    assert.deepEqual(Object.keys(assembly.variables), []);
  });

  it("disposes newest first and is idempotent", () => {
    const prompt = new SystemPrompt();
    const changes: PromptChange[] = [];
    prompt.on("system-prompt/change", (change) => void changes.push(change));
    const scope = prompt.scope("p");
    scope.variable("a", () => "");
    scope.variable("b", () => "");
    changes.length = 0;
    scope.dispose();
    scope.dispose();
    scope[Symbol.dispose]();
    assert.deepEqual(changes.map((c) => c.name), ["b", "a"]);
  });

  it("is disposed, with what it registered, at the end of its using block", async () => {
    const prompt = new SystemPrompt();
    {
      using scope = prompt.scope("p");
      scope.variable("x", () => "1");
      assert.ok("x" in (await prompt.assemble()).variables);
    }
    assert.ok(!("x" in (await prompt.assemble()).variables));
  });

  it("lets one registration be disposed on its own before the scope", () => {
    const prompt = new SystemPrompt();
    const changes: PromptChange[] = [];
    prompt.on("system-prompt/change", (change) => void changes.push(change));
    const scope = prompt.scope("p");
    const off = scope.variable("a", () => "");
    scope.variable("b", () => "");
    off();
    scope.dispose();
    assert.deepEqual(
      changes.filter((c) => c.action === "unregister").map((c) => c.name),
      ["a", "b"],
    );
  });

  it("throws scope-disposed for a registration after dispose", () => {
    const scope = new SystemPrompt().scope("late");
    scope.dispose();
    assert.throws(() => scope.variable("x", () => ""), {
      name: "PromptError",
      code: "scope-disposed",
      owner: "late",
      message: 'Cannot add variable: scope "late" is disposed',
    });
  });

  it("throws TypeError for an owner that is not a non-empty string", () => {
    const prompt = new SystemPrompt();
    assert.throws(() => prompt.scope(""), TypeError);
    assert.throws(() => prompt.scope(3 as never), TypeError);
  });

  it("does not track a registration that failed", async () => {
    const prompt = new SystemPrompt();
    prompt.variable("x", () => "root");
    const scope = prompt.scope("p");
    assert.throws(() => scope.variable("x", () => "p"), {
      code: "duplicate-variable",
    });
    scope.dispose();
    assert.equal((await prompt.assemble()).variables.x, "root");
  });
});
