import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderPrompt, SystemPrompt } from "../mod.ts";
import { explainPrompt } from "../inspect.ts";
import { BoundedCache } from "../src/render/_bounded_cache.ts";
import { type Template, useTemplateCache } from "../src/render/_template.ts";

async function sample() {
  const prompt = new SystemPrompt<{ model?: string }>();
  const loop = prompt.scope("agent-loop");
  loop.section({
    name: "agent:persona",
    order: 0,
    text: "  I am {{model}}; {{model}} runs {{cwd}}.  ",
  });
  loop.variable("model", (context) => context.model);
  loop.variable("cwd", () => "/repo");
  prompt.section({ name: "empty", order: 50, text: " " });
  const bash = prompt.scope("bash");
  bash.section({
    name: "tool:bash",
    order: 105,
    text: "Check exit codes.",
    stability: "static",
  });
  bash.tools(
    () => [{
      name: "bash",
      description: "Runs a command.",
      parameters: { type: "object" },
    }],
  );
  prompt.tools(() => [{ name: "root-tool", description: "", parameters: {} }]);
  return await prompt.assemble({ model: "m-1" });
}

describe("explainPrompt()", () => {
  it("returns exactly the rendered prompt", async () => {
    const assembly = await sample();
    assert.equal(explainPrompt(assembly).text, renderPrompt(assembly));
  });

  it("gives each rendered section its owner, order, span, size, tokens and variables", async () => {
    const explained = explainPrompt(await sample());
    assert.deepEqual(explained.sections, [
      {
        name: "agent:persona",
        owner: "agent-loop",
        order: 0,
        stability: "static",
        separatorStart: 0,
        start: 0,
        end: 25,
        chars: 25,
        tokens: 13,
        variables: ["model", "cwd"],
      },
      {
        name: "tool:bash",
        owner: "bash",
        order: 105,
        stability: "static",
        separatorStart: 25,
        start: 27,
        end: 44,
        chars: 17,
        tokens: 4,
        variables: [],
      },
    ]);
    for (const section of explained.sections) {
      assert.equal(
        explained.text.slice(section.start, section.end).length,
        section.chars,
      );
    }
    assert.deepEqual(explained.dropped, ["empty"]);
  });

  it("gives each tool its owner and sizes, and totals", async () => {
    const explained = explainPrompt(await sample());
    assert.deepEqual(explained.tools, [
      {
        name: "bash",
        owner: "bash",
        descriptionChars: 15,
        parametersChars: 17,
        tokens: 9,
      },
      { name: "root-tool", descriptionChars: 0, parametersChars: 2, tokens: 3 },
    ]);
    assert.deepEqual(explained.totals, {
      chars: 44,
      tokens: 17,
      sections: 2,
      tools: 2,
      toolTokens: 12,
    });
  });

  it("parses each text once: a second explain reuses the cached parse", async () => {
    const assembly = await sample();
    const cache = new BoundedCache<Template>();
    const previous = useTemplateCache(cache);
    try {
      explainPrompt(assembly);
      const parsed = cache.size;
      explainPrompt(assembly);
      assert.equal(parsed, 1);
      assert.equal(cache.size, parsed);
    } finally {
      useTemplateCache(previous);
    }
  });

  it("throws what renderPrompt throws", () => {
    const assembly = {
      sections: [{ name: "s", order: 0, text: "{{x}}" }],
      tools: [],
      variables: {},
    };
    assert.throws(() => explainPrompt(assembly), {
      code: "unknown-variable",
      section: "s",
    });
  });
});
