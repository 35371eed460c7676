// inspectorPage(step, { plan }): the page shows the breakpoints the
// adapter's plan placed (none when it placed none) and the tokens the plan
// counted, not a count of its own.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PromptError, SystemPrompt } from "@dsh/system-prompt";
import { toAnthropic } from "@dsh/system-prompt/adapters";
import { explainPrompt } from "@dsh/system-prompt/inspect";
import { inspectorPage } from "@dsh/system-prompt/page";

const long = (words: number) =>
  Array.from({ length: words }, (_, i) => `w${i}`).join(" ");

function registry(): SystemPrompt {
  const prompt = new SystemPrompt();
  prompt.scope("loop").section({ name: "persona", order: 0, text: long(30) });
  prompt.scope("loop").section({
    name: "workspace",
    order: 10,
    stability: "session",
    text: long(30),
  });
  prompt.scope("clock").section({
    name: "clock",
    order: 20,
    stability: "step",
    text: "It is 09:00.",
  });
  prompt.scope("bash").tools(() => [{
    name: "bash",
    description: long(40),
    parameters: { type: "object", properties: { command: { type: "string" } } },
  }]);
  return prompt;
}

/** The sidebar's breakpoint list items, as text. */
function breakpointList(html: string): string[] {
  const list = /<h2>Cache breakpoints<\/h2>(.*?)<\/section>/s.exec(html)![1]!;
  return [...list.matchAll(/<li[^>]*>(.*?)<\/li>/g)].map((m) => m[1]!);
}

describe("inspectorPage with the adapter's plan", () => {
  it("shows no breakpoint when the plan placed none (under the minimum), where cacheBlocks alone would draw some", async () => {
    const assembly = await registry().assemble();
    const { plan } = toAnthropic(assembly, { model: "claude-opus-4" });
    assert.equal(plan.choices.filter((choice) => choice.chosen).length, 0);
    const drawn = inspectorPage(assembly);
    assert.ok(breakpointList(drawn).length > 0, "cacheBlocks marks blocks");
    const html = inspectorPage(assembly, { plan });
    assert.deepEqual(breakpointList(html), []);
    assert.match(html, /No cache breakpoint\./);
    assert.doesNotMatch(html, /data-marker="breakpoint"/);
    assert.match(drawn, /data-marker="breakpoint"/);
  });

  it("draws the plan's breakpoints at the ends of its blocks, with its token counts, and the one after the tools", async () => {
    const assembly = await registry().assemble();
    const { plan } = toAnthropic(assembly, {
      model: "claude-sonnet-5",
      countTokens: (text) => text.length * 10, // far over the minimum
    });
    const chosen = plan.choices.filter((choice) => choice.chosen);
    assert.ok(chosen.length >= 2);
    const html = inspectorPage(assembly, { plan });
    const items = breakpointList(html);
    let end = 0;
    const ends = plan.blocks.map((block) => (end += block.text.length));
    const expected = chosen.map((choice) =>
      choice.after === "tools" || choice.after === "tools-static"
        ? `after the ${
          choice.after === "tools" ? "tools" : "static tools"
        }, ~${choice.tokens} tokens before it`
        : `at character ${
          ends[choice.after]
        }, ~${choice.tokens} tokens before it: ${choice.detail}`
    );
    // The tools come first in Anthropic's prefix.
    assert.deepEqual(
      items,
      expected.map((text) =>
        text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(
          ">",
          "&gt;",
        )
          .replaceAll('"', "&quot;").replaceAll("'", "&#39;")
      ),
    );
  });

  it("shows the tokens the plan counted for the prompt and each tool: one count for both views", async () => {
    const assembly = await registry().assemble();
    const { plan } = toAnthropic(assembly, { model: "claude-sonnet-5" });
    const html = inspectorPage(assembly, { plan });
    const prompt = plan.blocks.reduce((sum, block) => sum + block.tokens, 0);
    assert.match(html, new RegExp(`~${prompt} tokens in 3 sections`));
    assert.match(
      html,
      new RegExp(
        `1 tools, ~${
          plan.toolTokens[0]
        } tokens · tokens as the cache plan counted them`,
      ),
    );
    assert.match(
      html,
      new RegExp(`<td class="num">${plan.toolTokens[0]}</td>`),
    );
  });

  it("counts a tool as the plan does without a plan too: explainPrompt's tokens are the plan's toolTokens", async () => {
    const prompt = registry();
    // A host field is not sent, so it is not counted.
    prompt.scope("mcp").tools(() => [{
      name: "search",
      description: "Searches.",
      parameters: { type: "object" },
      mcp: { server: "docs", annotations: { readOnlyHint: true } },
    } as never]);
    const assembly = await prompt.assemble();
    const { plan } = toAnthropic(assembly);
    assert.deepEqual(
      explainPrompt(assembly).tools.map((tool) => tool.tokens),
      plan.toolTokens,
    );
  });

  it("refuses another step's plan with invalid-option", async () => {
    const prompt = registry();
    const before = await prompt.assemble();
    prompt.section({ name: "more", order: 30, text: "More." });
    const after = await prompt.assemble();
    const { plan } = toAnthropic(before);
    assert.throws(() => inspectorPage(after, { plan }), (error: unknown) => {
      assert.ok(error instanceof PromptError);
      assert.equal(error.code, "invalid-option");
      assert.equal(
        error.message,
        "Cannot build the inspector page: plan is another step's: its blocks do not join to this prompt",
      );
      return true;
    });
    assert.throws(
      () => inspectorPage(after, { plan: {} as never }),
      /^TypeError: Cannot build the inspector page: plan must be a cache plan, got /,
    );
  });
});
