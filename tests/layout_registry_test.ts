// docs/layout.md as the registry sees it: the prompt-wide separator and the
// section layout options ("Separators and whitespace", "Literal text"),
// item() and items() on the registry and every scope, and the items a
// handler sees ("Lists: one heading, items from many owners").
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type PromptChange,
  PromptError,
  renderPrompt,
  SystemPrompt,
} from "../mod.ts";

const TOOLS = { name: "tools", order: 100, text: "Tools:", list: {} };

describe("SystemPrompt separator option", () => {
  it("is carried by every assembly as separator", async () => {
    const prompt = new SystemPrompt({ separator: "\n" });
    prompt.section({ name: "a", order: 0, text: "a" });
    prompt.section({ name: "b", order: 1, text: "b" });
    const assembly = await prompt.assemble();
    assert.equal(assembly.separator, "\n");
    assert.equal(renderPrompt(assembly), "a\nb");
  });

  it("leaves separator absent when not given", async () => {
    const assembly = await new SystemPrompt().assemble();
    assert.equal("separator" in assembly, false);
  });

  it("may be changed by a handler", async () => {
    const prompt = new SystemPrompt({ separator: "\n" });
    prompt.section({ name: "a", order: 0, text: "a" });
    prompt.section({ name: "b", order: 1, text: "b" });
    prompt.on("system-prompt/assemble", (assembly) => {
      assembly.separator = " | ";
    });
    assert.equal(renderPrompt(await prompt.assemble()), "a | b");
  });

  it("throws TypeError for a separator that is not a string", () => {
    assert.throws(() => new SystemPrompt({ separator: 2 as never }), TypeError);
  });
});

describe("section layout options", () => {
  it("copies separator, trim and literal into the assembled section", async () => {
    const prompt = new SystemPrompt();
    prompt.section({
      name: "a",
      order: 0,
      text: "x",
      separator: "\n",
      trim: false,
      literal: true,
    });
    const [section] = (await prompt.assemble()).sections;
    assert.deepEqual(section, {
      name: "a",
      order: 0,
      text: "x",
      separator: "\n",
      trim: false,
      literal: true,
    });
  });

  it("adds no field for defaults (trim: true, literal: false)", async () => {
    const prompt = new SystemPrompt();
    prompt.section({
      name: "a",
      order: 0,
      text: "x",
      trim: true,
      literal: false,
    });
    assert.deepEqual((await prompt.assemble()).sections, [{
      name: "a",
      order: 0,
      text: "x",
    }]);
  });

  it("throws TypeError for layout fields of the wrong type", () => {
    const prompt = new SystemPrompt();
    for (
      const bad of [
        { separator: 1 },
        { trim: "no" },
        { literal: 1 },
        { list: "yes" },
        { list: [] },
        { list: { separator: 1 } },
        { list: { empty: false } },
        { list: { dedupe: "y" } },
      ]
    ) {
      assert.throws(
        () =>
          prompt.section({ name: "a", order: 0, text: "", ...bad } as never),
        TypeError,
      );
    }
  });

  it("gives each assembly its own copy of list", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ ...TOOLS, list: { empty: "none" } });
    const first = await prompt.assemble();
    first.sections[0]!.list!.empty = "changed";
    assert.equal((await prompt.assemble()).sections[0]!.list!.empty, "none");
  });
});

describe("item()", () => {
  it("adds items from any scope, each keeping its owner, sorted by order then name", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("loop").section(TOOLS);
    prompt.scope("read").item("tools", {
      name: "read",
      order: 2,
      text: "- read",
    });
    prompt.scope("bash").item("tools", {
      name: "bash",
      order: 2,
      text: "- bash",
    });
    prompt.item("tools", { name: "todo", order: 1, text: () => "- todo" });
    const [section] = (await prompt.assemble()).sections;
    assert.deepEqual(section!.items, [
      { name: "todo", order: 1, text: "- todo" },
      { name: "bash", order: 2, text: "- bash", owner: "bash" },
      { name: "read", order: 2, text: "- read", owner: "read" },
    ]);
  });

  it("resolves an order function at every assembly (the order the user picked)", async () => {
    const prompt = new SystemPrompt<{ picked: string[] }>();
    prompt.section(TOOLS);
    for (const name of ["a", "b", "c"]) {
      prompt.item("tools", {
        name,
        order: (c) => c.picked.indexOf(name),
        text: name,
      });
    }
    assert.equal(
      renderPrompt(await prompt.assemble({ picked: ["c", "a", "b"] })),
      "Tools:\nc\na\nb",
    );
    assert.equal(
      renderPrompt(await prompt.assemble({ picked: ["b", "c", "a"] })),
      "Tools:\nb\nc\na",
    );
  });

  it("accepts an item before its list exists (plugins load in any order)", async () => {
    const prompt = new SystemPrompt();
    prompt.item("tools", { name: "bash", order: 0, text: "- bash" });
    await assert.rejects(prompt.assemble(), { code: "orphan-item" });
    prompt.section(TOOLS);
    assert.equal(renderPrompt(await prompt.assemble()), "Tools:\n- bash");
  });

  it("rejects items whose section declares no list with orphan-item", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "tools", order: 0, text: "Tools:" });
    prompt.scope("bash").item("tools", {
      name: "bash",
      order: 0,
      text: "- bash",
    });
    await assert.rejects(prompt.assemble(), {
      code: "orphan-item",
      item: "bash",
      section: "tools",
      owner: "bash",
    });
  });

  it("throws duplicate-item for a name its list has, naming both owners", () => {
    const prompt = new SystemPrompt();
    prompt.scope("a").item("tools", { name: "bash", order: 0, text: "" });
    prompt.scope("b").item("other", { name: "bash", order: 0, text: "" });
    assert.throws(
      () =>
        prompt.scope("c").item("tools", { name: "bash", order: 1, text: "" }),
      (error) => {
        assert.ok(error instanceof PromptError);
        assert.deepEqual([error.code, error.item, error.section, error.owner], [
          "duplicate-item",
          "bash",
          "tools",
          "a",
        ]);
        assert.equal(
          error.message,
          'Cannot add item "bash" of list "tools" of "c": "a" already added it',
        );
        return true;
      },
    );
  });

  it("returns a disposer that frees the name, and a scope's disposal removes its items", async () => {
    const prompt = new SystemPrompt();
    prompt.section(TOOLS);
    const off = prompt.item("tools", {
      name: "bash",
      order: 0,
      text: "- bash",
    });
    off();
    off();
    prompt.item("tools", { name: "bash", order: 0, text: "- bash 2" });
    const read = prompt.scope("read");
    read.item("tools", { name: "read", order: 1, text: "- read" });
    read.items("tools", () => [{ name: "grep", order: 2, text: "- grep" }]);
    assert.equal(
      renderPrompt(await prompt.assemble()),
      "Tools:\n- bash 2\n- read\n- grep",
    );
    read.dispose();
    assert.equal(renderPrompt(await prompt.assemble()), "Tools:\n- bash 2");
    assert.throws(() => read.item("tools", { name: "x", order: 0, text: "" }), {
      code: "scope-disposed",
    });
  });

  it("emits change events with kind item and the list", () => {
    const prompt = new SystemPrompt();
    const seen: PromptChange[] = [];
    prompt.on("system-prompt/change", (change) => void seen.push(change));
    const off = prompt.scope("bash").item("tools", {
      name: "bash",
      order: 0,
      text: "",
    });
    off();
    const offItems = prompt.items("skills", () => []);
    offItems();
    assert.deepEqual(seen, [
      {
        kind: "item",
        action: "register",
        name: "bash",
        list: "tools",
        owner: "bash",
      },
      {
        kind: "item",
        action: "unregister",
        name: "bash",
        list: "tools",
        owner: "bash",
      },
      { kind: "items", action: "register", list: "skills" },
      { kind: "items", action: "unregister", list: "skills" },
    ]);
  });

  it("rejects bad items at registration: TypeError for wrong types, invalid-item for rule violations", () => {
    const prompt = new SystemPrompt();
    const bad = (list: unknown, item: unknown) => () =>
      prompt.item(list as never, item as never);
    assert.throws(bad(1, { name: "a", order: 0, text: "" }), TypeError);
    assert.throws(bad("l", null), TypeError);
    assert.throws(bad("l", { name: 1, order: 0, text: "" }), TypeError);
    assert.throws(bad("l", { name: "a", order: "1", text: "" }), TypeError);
    assert.throws(bad("l", { name: "a", order: 0, text: 1 }), TypeError);
    assert.throws(
      bad("l", { name: "a", order: 0, text: "", literal: "y" }),
      TypeError,
    );
    assert.throws(
      bad("l", { name: "a", order: 0, text: "", trim: 0 }),
      TypeError,
    );
    assert.throws(bad("l", { name: "", order: 0, text: "" }), {
      code: "invalid-item",
    });
    assert.throws(bad("", { name: "a", order: 0, text: "" }), {
      code: "invalid-item",
    });
    assert.throws(bad("l", { name: "a", order: NaN, text: "" }), {
      code: "invalid-item",
      item: "a",
      section: "l",
    });
    assert.throws(
      bad("l", { name: "a", order: 0, text: "", stability: "daily" }),
      { code: "invalid-item" },
    );
    assert.throws(() => prompt.items(2 as never, () => []), TypeError);
    assert.throws(() => prompt.items("l", "x" as never), TypeError);
    assert.throws(() => prompt.items("", () => []), { code: "invalid-item" });
  });

  it("rejects assemble() when an order function returns a non-finite number, naming the item", async () => {
    const prompt = new SystemPrompt();
    prompt.section(TOOLS);
    prompt.scope("p").item("tools", {
      name: "x",
      order: () => Infinity,
      text: "",
    });
    await assert.rejects(prompt.assemble(), (error) => {
      assert.ok(error instanceof PromptError);
      assert.deepEqual([error.code, error.item, error.section, error.owner], [
        "invalid-value",
        "x",
        "tools",
        "p",
      ]);
      assert.match(
        error.message,
        /order function returned Infinity, not a finite number/,
      );
      return true;
    });
  });

  it("rejects assemble() with provider-failed when an item's text or order function throws", async () => {
    const boom = new Error("boom");
    for (const field of ["text", "order"] as const) {
      const prompt = new SystemPrompt();
      prompt.section(TOOLS);
      const item = {
        name: "x",
        order: 0,
        text: "",
        [field]: () => {
          throw boom;
        },
      };
      prompt.scope("p").item("tools", item as never);
      await assert.rejects(prompt.assemble(), {
        code: "provider-failed",
        item: "x",
        section: "tools",
        owner: "p",
        cause: boom,
      });
    }
  });

  it("rejects assemble() with invalid-value when a text function returns a non-string", async () => {
    const prompt = new SystemPrompt();
    prompt.section(TOOLS);
    prompt.item("tools", { name: "x", order: 0, text: () => 1 as never });
    await assert.rejects(prompt.assemble(), {
      code: "invalid-value",
      item: "x",
    });
  });
});

describe("items()", () => {
  it("evaluates the provider at every assembly; its items carry the provider's owner", async () => {
    const prompt = new SystemPrompt<{ files: string[] }>();
    prompt.section({ name: "files", order: 0, text: "Files:", list: {} });
    prompt.scope("context-files").items(
      "files",
      (c) =>
        c.files.map((name, order) => ({
          name,
          order,
          text: `- ${name}`,
          literal: true,
        })),
    );
    const first = await prompt.assemble({ files: ["AGENTS.md"] });
    assert.deepEqual(first.sections[0]!.items, [
      {
        name: "AGENTS.md",
        order: 0,
        text: "- AGENTS.md",
        owner: "context-files",
        literal: true,
      },
    ]);
    assert.equal(
      renderPrompt(await prompt.assemble({ files: ["a", "b"] })),
      "Files:\n- a\n- b",
    );
  });

  it("sorts provided items with registered ones", async () => {
    const prompt = new SystemPrompt();
    prompt.section(TOOLS);
    prompt.item("tools", { name: "m", order: 5, text: "m" });
    prompt.items(
      "tools",
      () => [{ name: "z", order: 1, text: "z" }, {
        name: "a",
        order: 9,
        text: "a",
      }],
    );
    assert.equal(renderPrompt(await prompt.assemble()), "Tools:\nz\nm\na");
  });

  it("rejects a provided name the list already has with duplicate-item", async () => {
    const prompt = new SystemPrompt();
    prompt.section(TOOLS);
    prompt.scope("a").item("tools", { name: "x", order: 0, text: "" });
    prompt.scope("b").items("tools", () => [{ name: "x", order: 1, text: "" }]);
    await assert.rejects(prompt.assemble(), (error) => {
      assert.ok(error instanceof PromptError);
      assert.deepEqual([error.code, error.item, error.section, error.owner], [
        "duplicate-item",
        "x",
        "tools",
        "a",
      ]);
      return true;
    });
  });

  it("rejects a throwing provider or a bad result, naming the list and the provider's owner", async () => {
    const boom = new Error("boom");
    const cases: [unknown, string][] = [
      [() => {
        throw boom;
      }, "provider-failed"],
      [() => "x", "invalid-value"],
      [() => [null], "invalid-value"],
      [() => [{ name: "", order: 0, text: "" }], "invalid-value"],
      [() => [{ name: "a", order: NaN, text: "" }], "invalid-value"],
      [() => [{ name: "a", order: 0, text: () => "" }], "invalid-value"],
      [() => [{ name: "a", order: 0, text: "", literal: 1 }], "invalid-value"],
      [
        () => [{ name: "a", order: 0, text: "", stability: "x" }],
        "invalid-value",
      ],
    ];
    for (const [provider, code] of cases) {
      const prompt = new SystemPrompt();
      prompt.section(TOOLS);
      prompt.scope("p").items("tools", provider as never);
      await assert.rejects(prompt.assemble(), {
        code,
        section: "tools",
        owner: "p",
      });
    }
  });

  it("is not evaluated for a list that is not a live list section: orphan-item", async () => {
    const prompt = new SystemPrompt();
    let calls = 0;
    prompt.scope("skills").items("nowhere", () => {
      calls++;
      return [];
    });
    await assert.rejects(prompt.assemble(), {
      code: "orphan-item",
      section: "nowhere",
      owner: "skills",
    });
    assert.equal(calls, 0);
  });
});

describe("AssembledSection.items in handlers", () => {
  it("lets a handler filter and reorder items; the registry is unchanged", async () => {
    const prompt = new SystemPrompt<{ hide?: boolean }>();
    prompt.section(TOOLS);
    for (const [i, name] of ["a", "b", "c"].entries()) {
      prompt.item("tools", { name, order: i, text: name });
    }
    const off = prompt.on("system-prompt/assemble", (assembly) => {
      const tools = assembly.sections[0]!;
      tools.items = tools.items!.filter((i) => i.name !== "b").reverse();
    });
    assert.equal(renderPrompt(await prompt.assemble()), "Tools:\nc\na");
    off();
    assert.equal(renderPrompt(await prompt.assemble()), "Tools:\na\nb\nc");
  });

  it("lists items and item providers in registrations()", () => {
    const prompt = new SystemPrompt();
    prompt.scope("loop").section(TOOLS);
    prompt.scope("bash").item("tools", { name: "bash", order: 0, text: "" });
    prompt.items("skills", () => []);
    prompt.scope("m").item(["tools", "bash"], {
      name: "x",
      order: 0,
      text: "",
    });
    const { sections, items, itemProviders } = prompt.registrations();
    assert.deepEqual(sections, [{
      name: "tools",
      order: 100,
      list: true,
      owner: "loop",
    }]);
    assert.deepEqual(items, [
      { list: "tools", path: ["tools"], name: "bash", owner: "bash" },
      { list: "tools/bash", path: ["tools", "bash"], name: "x", owner: "m" },
    ]);
    assert.deepEqual(itemProviders, [{ list: "skills", path: ["skills"] }]);
  });
});
