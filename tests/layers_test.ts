// SystemPrompt.layer(): one registry, many agents. A layer shadows global
// parts for its own assemblies only (the nearer layer wins), adds its
// providers and handlers after the global ones, and is disposed with
// everything in it; an unknown key is unknown-layer with a suggestion.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type PromptChange,
  PromptError,
  renderContext,
  renderPrompt,
  SystemPrompt,
  type ToolSchema,
} from "../mod.ts";
import { toolLayer, toolOwner } from "../inspect.ts";

const tool = (name: string): ToolSchema => ({
  name,
  description: name,
  parameters: {},
});

describe("SystemPrompt.layer()", () => {
  it("shadows a global section, variable and context entry for its assemblies only", async () => {
    const prompt = new SystemPrompt();
    const host = prompt.scope("host");
    host.section({ name: "persona", order: 0, text: "Main {{role}}." });
    host.variable("role", () => "lead");
    host.context({ name: "date", order: 0, text: "Monday." });
    const reviewer = prompt.layer("reviewer").scope("preset");
    reviewer.section({ name: "persona", order: 0, text: "Reviewer {{role}}." });
    reviewer.variable("role", () => "critic");
    reviewer.context({ name: "date", order: 0, text: "Tuesday." });
    const main = await prompt.assemble();
    const review = await prompt.assemble({}, { layer: "reviewer" });
    assert.equal(renderPrompt(main), "Main lead.");
    assert.equal(renderContext(main), "Monday.");
    assert.equal(renderPrompt(review), "Reviewer critic.");
    assert.equal(renderContext(review), "Tuesday.");
    assert.deepEqual(review.sections[0], {
      name: "persona",
      order: 0,
      text: "Reviewer {{role}}.",
      owner: "preset",
      layer: "reviewer",
      shadows: { owner: "host" },
    });
    assert.equal(main.sections[0]!.layer, undefined);
  });

  it("resolves the chain farthest first: a nearer layer shadows its parent", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: "global" });
    prompt.section({ name: "rules", order: 1, text: "global rules" });
    prompt.layer("preset").section({
      name: "persona",
      order: 0,
      text: "preset",
    });
    prompt.layer("preset").section({
      name: "rules",
      order: 1,
      text: "preset rules",
    });
    const sub = prompt.layer("sub", { parent: "preset" });
    sub.section({ name: "persona", order: 0, text: "sub" });
    const assembly = await prompt.assemble({}, { layer: "sub" });
    assert.equal(renderPrompt(assembly), "sub\n\npreset rules");
    assert.deepEqual(assembly.sections[0]!.shadows, { layer: "preset" });
  });

  it("shadows an item of the same list and name", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "tools", order: 0, text: "Tools:", list: {} });
    prompt.scope("bash").item("tools", {
      name: "bash",
      order: 0,
      text: "- bash",
    });
    prompt.scope("read").item("tools", {
      name: "read",
      order: 1,
      text: "- read",
    });
    prompt.layer("sandbox").scope("jail").item("tools", {
      name: "bash",
      order: 0,
      text: "- bash (read-only)",
    });
    assert.equal(
      renderPrompt(await prompt.assemble({}, { layer: "sandbox" })),
      "Tools:\n- bash (read-only)\n- read",
    );
    assert.equal(
      renderPrompt(await prompt.assemble()),
      "Tools:\n- bash\n- read",
    );
  });

  it("adds its tool providers, item providers and handlers after the global ones, farthest layer first", async () => {
    const prompt = new SystemPrompt();
    const ran: string[] = [];
    prompt.section({ name: "skills", order: 0, text: "Skills:", list: {} });
    prompt.tools(() => [tool("read")]);
    prompt.on("system-prompt/assemble", () => void ran.push("global"));
    const preset = prompt.layer("preset");
    preset.scope("p").tools(() => [tool("grep")]);
    preset.items("skills", () => [{ name: "pdf", order: 0, text: "- pdf" }]);
    preset.on("system-prompt/assemble", () => void ran.push("preset"));
    const sub = prompt.layer("sub", { parent: "preset" });
    sub.on("system-prompt/assemble", () => void ran.push("sub"));
    const assembly = await prompt.assemble({}, { layer: "sub" });
    assert.deepEqual(ran, ["global", "preset", "sub"]);
    assert.deepEqual(assembly.tools.map((t) => t.name), ["grep", "read"]);
    assert.equal(toolOwner(assembly.tools[0]!), "p");
    assert.equal(toolLayer(assembly.tools[0]!), "preset");
    assert.equal(renderPrompt(assembly), "Skills:\n- pdf");
    ran.length = 0;
    const global = await prompt.assemble();
    assert.deepEqual(ran, ["global"]);
    assert.deepEqual(global.tools.map((t) => t.name), ["read"]);
  });

  it("keeps names unique within one layer, not across layers", () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: "a" });
    const layer = prompt.layer("x");
    layer.section({ name: "persona", order: 0, text: "b" });
    assert.throws(
      () =>
        layer.scope("late").section({ name: "persona", order: 0, text: "c" }),
      {
        code: "duplicate-section",
        layer: "x",
      },
    );
    layer.variable("v", () => "1");
    assert.throws(() => layer.variable("v", () => "2"), {
      code: "duplicate-variable",
    });
    prompt.variable("v", () => "global");
  });

  it("returns the live layer for a live key, and refuses another parent for it", () => {
    const prompt = new SystemPrompt();
    const first = prompt.layer("a");
    assert.equal(prompt.layer("a"), first);
    assert.throws(() => prompt.layer("a", { parent: "b" }), {
      code: "invalid-option",
    });
    assert.throws(() => prompt.layer("", {}), TypeError);
    assert.throws(() => prompt.layer("self", { parent: "self" }), {
      code: "invalid-option",
    });
  });

  it("rejects an unknown key or a missing parent with unknown-layer and a suggestion", async () => {
    const prompt = new SystemPrompt();
    prompt.layer("reviewer");
    await assert.rejects(
      prompt.assemble({}, { layer: "reveiwer" }),
      (error) => {
        assert.ok(error instanceof PromptError);
        assert.equal(error.code, "unknown-layer");
        assert.equal(error.layer, "reveiwer");
        assert.match(error.message, /did you mean "reviewer"\?$/);
        return true;
      },
    );
    prompt.layer("orphan", { parent: "gone" });
    await assert.rejects(prompt.assemble({}, { layer: "orphan" }), {
      code: "unknown-layer",
      message: /its parent "gone" is not a live layer/,
    });
    await assert.rejects(prompt.render({}, { layer: "nope" }), {
      code: "unknown-layer",
    });
  });

  it("dispose() removes the layer and everything in it; the key then makes a new, empty layer", async () => {
    const prompt = new SystemPrompt();
    const layer = prompt.layer("sub");
    layer.section({ name: "persona", order: 0, text: "sub" });
    const scope = layer.scope("plugin");
    scope.variable("x", () => "1");
    layer.dispose();
    assert.equal(layer.disposed, true);
    assert.equal(scope.disposed, true);
    await assert.rejects(prompt.assemble({}, { layer: "sub" }), {
      code: "unknown-layer",
    });
    assert.throws(() => layer.section({ name: "a", order: 0, text: "" }), {
      code: "scope-disposed",
    });
    const again = prompt.layer("sub");
    assert.notEqual(again, layer);
    assert.deepEqual(
      (await prompt.assemble({}, { layer: "sub" })).sections,
      [],
    );
    assert.deepEqual(prompt.registrations().layers, [{ key: "sub" }]);
  });

  it("carries the layer in change events and registrations", () => {
    const prompt = new SystemPrompt();
    const changes: PromptChange[] = [];
    prompt.on("system-prompt/change", (change) => void changes.push(change));
    const off = prompt.layer("sub").scope("grep").variable(
      "pattern",
      () => "x",
    );
    off();
    assert.deepEqual(changes, [
      {
        kind: "variable",
        action: "register",
        name: "pattern",
        owner: "grep",
        layer: "sub",
      },
      {
        kind: "variable",
        action: "unregister",
        name: "pattern",
        owner: "grep",
        layer: "sub",
      },
    ]);
  });

  it("a scope inside a layer carries both its owner and the layer", async () => {
    const prompt = new SystemPrompt();
    const scope = prompt.layer("sub").scope("mcp");
    assert.equal(scope.owner, "mcp");
    assert.equal(scope.layer, "sub");
    scope.section({ name: "s", order: 0, text: "x" });
    const [section] = (await prompt.assemble({}, { layer: "sub" })).sections;
    assert.deepEqual([section!.owner, section!.layer], ["mcp", "sub"]);
  });
});
