// One test per row of docs/errors.md "Layout bad input", named by its row.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  escapeTemplate,
  type PromptAssembly,
  PromptError,
  renderPrompt,
  SystemPrompt,
} from "../mod.ts";
import { cacheBlocks, checkPrompt } from "../inspect.ts";

const LIST = { name: "tools", order: 0, text: "Tools:", list: {} };
const boom = new Error("boom");
const fail = () => {
  throw boom;
};

async function rejects(
  setup: (prompt: SystemPrompt) => void,
  expected: Record<string, unknown>,
) {
  const prompt = new SystemPrompt();
  prompt.section(LIST);
  setup(prompt);
  await assert.rejects(prompt.assemble(), (error) => {
    assert.ok(error instanceof PromptError);
    for (const [key, value] of Object.entries(expected)) {
      assert.equal(error[key as keyof PromptError], value, key);
    }
    return true;
  });
}

describe("bad-input catalogue: layout", () => {
  it("catalogue L1: a layout field of the wrong JS type throws TypeError at registration", () => {
    const prompt = new SystemPrompt();
    assert.throws(() => new SystemPrompt({ separator: 1 as never }), TypeError);
    assert.throws(
      () => prompt.section({ ...LIST, separator: false as never }),
      TypeError,
    );
    assert.throws(
      () => prompt.section({ ...LIST, list: { empty: 1 as never } }),
      TypeError,
    );
    assert.throws(
      () =>
        prompt.item("tools", {
          name: "a",
          order: 0,
          text: "",
          trim: "no" as never,
        }),
      TypeError,
    );
  });

  it("catalogue L2: an empty item name or list, a non-finite order or an unknown stability throws invalid-item", () => {
    const prompt = new SystemPrompt();
    for (
      const [list, item] of [
        ["tools", { name: "", order: 0, text: "" }],
        ["", { name: "a", order: 0, text: "" }],
        ["tools", { name: "a", order: Infinity, text: "" }],
        ["tools", { name: "a", order: 0, text: "", stability: "hourly" }],
      ] as const
    ) {
      assert.throws(() => prompt.item(list, item as never), {
        name: "PromptError",
        code: "invalid-item",
      });
    }
  });

  it("catalogue L3: an item name its list has throws duplicate-item, registered or provided", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("a").item("tools", { name: "x", order: 0, text: "" });
    assert.throws(
      () => prompt.scope("b").item("tools", { name: "x", order: 0, text: "" }),
      {
        code: "duplicate-item",
        item: "x",
        section: "tools",
        owner: "a", // the holder; the message names both
        message:
          'Cannot add item "x" of list "tools" of "b": "a" already added it',
      },
    );
    await rejects((p) => {
      p.item("tools", { name: "x", order: 0, text: "" });
      p.scope("b").items("tools", () => [{ name: "x", order: 0, text: "" }]);
    }, {
      code: "duplicate-item",
      item: "x",
      section: "tools",
      owner: undefined,
    });
  });

  it("catalogue L4: an item's throwing text or order function rejects with provider-failed", async () => {
    await rejects(
      (p) => p.scope("o").item("tools", { name: "x", order: 0, text: fail }),
      {
        code: "provider-failed",
        item: "x",
        section: "tools",
        owner: "o",
        cause: boom,
      },
    );
    await rejects(
      (p) => p.scope("o").item("tools", { name: "x", order: fail, text: "" }),
      {
        code: "provider-failed",
        item: "x",
        cause: boom,
      },
    );
  });

  it("catalogue L5: an item's text function returning a non-string, or order a non-finite number, rejects with invalid-value", async () => {
    await rejects(
      (p) => p.item("tools", { name: "x", order: 0, text: () => 1 as never }),
      {
        code: "invalid-value",
        item: "x",
      },
    );
    await rejects(
      (p) => p.item("tools", { name: "x", order: () => NaN, text: "" }),
      {
        code: "invalid-value",
        item: "x",
      },
    );
  });

  it("catalogue L6: an item provider that throws or returns a non-item rejects, naming the list and owner", async () => {
    await rejects((p) => p.scope("o").items("tools", fail), {
      code: "provider-failed",
      section: "tools",
      owner: "o",
      cause: boom,
    });
    await rejects((p) => p.scope("o").items("tools", () => ({}) as never), {
      code: "invalid-value",
      section: "tools",
      owner: "o",
    });
    await rejects(
      (p) => p.scope("o").items("tools", () => [{ name: "x" } as never]),
      {
        code: "invalid-value",
        section: "tools",
        owner: "o",
      },
    );
  });

  it("catalogue L7: a bad reference in an item's text names the item, its list, owner and line:column", () => {
    const assembly: PromptAssembly = {
      sections: [{
        ...LIST,
        items: [{ name: "x", order: 0, text: "a\n {{nope}}", owner: "o" }],
      }],
      tools: [],
      variables: {},
    };
    assert.throws(() => renderPrompt(assembly), {
      code: "unknown-variable",
      item: "x",
      section: "tools",
      owner: "o",
      line: 2,
      column: 2,
    });
  });

  it("catalogue L8: a layout field of the wrong type left by a handler throws at render", () => {
    const render = (patch: object) => () =>
      renderPrompt({
        sections: [{ name: "s", order: 0, text: "t", ...patch }],
        tools: [],
        variables: {},
        ...("prompt" in patch ? { separator: 1 as never } : {}),
      });
    assert.throws(render({ separator: 1 }), { code: "invalid-section" });
    assert.throws(render({ list: { separator: 1 } }), {
      code: "invalid-section",
    });
    assert.throws(render({ prompt: true }), { code: "invalid-value" });
    assert.throws(
      render({ list: {}, items: [{ name: "i", order: 0, text: 1 }] }),
      {
        code: "invalid-item",
      },
    );
  });

  it("catalogue L9: an item whose list is not live rejects with orphan-item (with a suggestion), and checkPrompt reports it", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "nowhere-else", order: 0, text: "", list: {} });
    prompt.scope("o").item("nowhere", { name: "x", order: 0, text: "lost" });
    await assert.rejects(prompt.assemble(), {
      code: "orphan-item",
      item: "x",
      section: "nowhere",
      owner: "o",
    });
    assert.deepEqual(
      (await checkPrompt(prompt)).map((
        d,
      ) => [d.severity, d.code, d.item, d.owner]),
      [["error", "orphan-item", "x", "o"]],
    );
  });

  it("catalogue L10: untrusted text in a literal section or through escapeTemplate renders byte for byte", () => {
    const file = "${{ secrets.T }} {{cwd}} \\{{x}} {{ a b }} }} {{";
    const render = (text: string, extra: object) =>
      renderPrompt({
        sections: [{ name: "s", order: 0, text, trim: false, ...extra }],
        tools: [],
        variables: { cwd: "/r" },
      });
    assert.equal(render(file, { literal: true }), file);
    assert.equal(render(escapeTemplate(file), {}), file);
  });

  it("catalogue L11: a maxBreakpoints that is not a non-negative integer throws invalid-option, a non-number TypeError", () => {
    const assembly = { sections: [], tools: [], variables: {} };
    assert.throws(() => cacheBlocks(assembly, { maxBreakpoints: 1.5 }), {
      code: "invalid-option",
    });
    assert.throws(
      () => cacheBlocks(assembly, { maxBreakpoints: "4" as never }),
      TypeError,
    );
  });
});
