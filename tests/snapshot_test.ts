// Snapshot consistency: user code that runs during an assembly (registering,
// disposing) changes only later assemblies.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type Disposer, renderPrompt, SystemPrompt } from "../mod.ts";

const tool = (name: string) => ({ name, description: "", parameters: {} });

describe("assemble() snapshot", () => {
  it("keeps a variable that a section function disposes", async () => {
    const prompt = new SystemPrompt();
    const off = prompt.variable("model", () => "m-1");
    prompt.section({
      name: "a",
      order: 0,
      text: () => {
        off();
        return "You are {{model}}.";
      },
    });
    const first = await prompt.assemble();
    assert.equal(renderPrompt(first), "You are m-1.");
    assert.deepEqual(Object.keys((await prompt.assemble()).variables), []);
  });

  it("keeps another scope's variables and tools when a section function disposes it", async () => {
    const prompt = new SystemPrompt();
    const git = prompt.scope("git");
    git.section({ name: "git", order: 1, text: "On {{branch}}." });
    git.variable("branch", () => "main");
    git.tools(() => [tool("git")]);
    prompt.section({
      name: "a",
      order: 0,
      text: () => {
        git.dispose();
        return "A";
      },
    });
    const assembly = await prompt.assemble();
    assert.equal(renderPrompt(assembly), "A\n\nOn main.");
    assert.deepEqual(assembly.tools.map((t) => t.name), ["git"]);
    const later = await prompt.assemble();
    assert.deepEqual(later.sections.map((s) => s.name), ["a"]);
    assert.deepEqual(later.tools, []);
  });

  it("leaves out a variable and tool provider registered by a section function", async () => {
    const prompt = new SystemPrompt();
    let once = false;
    prompt.section({
      name: "a",
      order: 0,
      text: () => {
        if (!once) {
          once = true;
          prompt.variable("late", () => "x");
          prompt.tools(() => [tool("late")]);
          prompt.section({ name: "late", order: 1, text: "late" });
        }
        return "A";
      },
    });
    const first = await prompt.assemble();
    assert.deepEqual(Object.keys(first.variables), []);
    assert.deepEqual(first.tools, []);
    assert.deepEqual(first.sections.map((s) => s.name), ["a"]);
    const second = await prompt.assemble();
    assert.deepEqual(Object.keys(second.variables), ["late"]);
    assert.deepEqual(second.tools.map((t) => t.name), ["late"]);
  });

  it("keeps a tool provider a section function disposes, and a variable a tool provider disposes", async () => {
    const prompt = new SystemPrompt();
    const offTools = prompt.tools(() => [tool("t")]);
    const offVariable = prompt.variable("v", () => "1");
    prompt.tools(() => {
      offVariable();
      return [];
    });
    prompt.section({
      name: "a",
      order: 0,
      text: () => {
        offTools();
        return "{{v}}";
      },
    });
    const assembly = await prompt.assemble();
    assert.deepEqual(assembly.tools.map((t) => t.name), ["t"]);
    assert.equal(renderPrompt(assembly), "1");
  });

  it("runs the handlers that were live when assemble() started", async () => {
    const prompt = new SystemPrompt();
    const calls: string[] = [];
    const later: Disposer[] = [];
    prompt.on("system-prompt/assemble", () => {
      calls.push("first");
      for (const off of later) off();
      prompt.on("system-prompt/assemble", () => void calls.push("late"));
    });
    later.push(prompt.on(
      "system-prompt/assemble",
      () => void calls.push("second"),
    ));
    await prompt.assemble();
    assert.deepEqual(calls, ["first", "second"]);
  });

  it("keeps the snapshot when a change listener disposes during assembly", async () => {
    const prompt = new SystemPrompt();
    const offV = prompt.variable("v", () => "1");
    prompt.on("system-prompt/change", (change) => {
      if (change.name === "trigger") offV();
    });
    prompt.section({
      name: "a",
      order: 0,
      text: () => {
        prompt.section({ name: "trigger", order: 9, text: "" });
        return "{{v}}";
      },
    });
    assert.equal(renderPrompt(await prompt.assemble()), "1");
  });

  it("removes a registration whose scope a change listener disposed while it was being made", async () => {
    const prompt = new SystemPrompt();
    const plugin = prompt.scope("p");
    const off = prompt.on("system-prompt/change", (change) => {
      if (change.action === "register" && change.owner === "p") {
        plugin.dispose();
      }
    });
    plugin.section({ name: "s", order: 0, text: "S" });
    off();
    assert.equal(plugin.disposed, true);
    assert.deepEqual((await prompt.assemble()).sections, []);
  });
});
