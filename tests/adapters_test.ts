// @dsh/system-prompt/adapters: every adapter's system text is exactly
// renderPrompt(assembly); planCache() places breakpoints by each provider's
// minimum, budget and TTLs; contextMessage; cacheBlocks() beside the
// adapters; and src/adapters/ imports no SDK and no Deno or node API.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type AssembledSection,
  type PromptAssembly,
  PromptError,
  renderPrompt,
} from "@dsh/system-prompt";
import {
  ANTHROPIC,
  BEDROCK,
  type CachePlan,
  GEMINI,
  OPENAI,
  planCache,
  toAISDK,
  toAnthropic,
  toBedrock,
  toGemini,
  toOpenAIChat,
  toOpenAIResponses,
} from "@dsh/system-prompt/adapters";
import { cacheBlocks } from "@dsh/system-prompt/inspect";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { newlineHost } from "../examples/layout_newline_host.ts";
import { repoRoot } from "./support/repo_root.ts";
import { listsHost } from "../examples/layout_lists_host.ts";
import { templateHost } from "../examples/layout_template_host.ts";

const words = (n: number) => "Read before you edit. ".repeat(n); // 5 tokens each
const jsonSchema = (schema: object) => ({ schema });

function assembly(
  sections: AssembledSection[],
  toolWords = 0,
): PromptAssembly {
  return {
    sections,
    tools: toolWords === 0 ? [] : [
      {
        name: "bash",
        description: words(toolWords),
        parameters: { type: "object" },
      },
    ],
    variables: {},
  };
}

const chosen = (plan: CachePlan) =>
  plan.choices.filter((c) => c.chosen).map((c) => [c.after, c.reason]);

/** Every adapter's system text, joined. */
function systemTexts(a: PromptAssembly): string[] {
  return [
    toAnthropic(a).system.map((b) => b.text).join(""),
    toOpenAIResponses(a).instructions,
    toOpenAIChat(a).messages.map((m) => m.content).join(""),
    toBedrock(a).system.map((b) => ("text" in b ? b.text : "")).join(""),
    toGemini(a).systemInstruction.parts.map((p) => p.text).join(""),
    toAISDK(a, { jsonSchema }).system.map((m) => m.content).join(""),
  ];
}

describe("adapters: the joined system text", () => {
  it("equals renderPrompt(assembly) for every adapter on the layout example hosts", async () => {
    const newline = await newlineHost().assemble({
      model: "m-1",
      cwd: "/repo",
      platform: "linux",
      date: "2026-12-01",
      gitRepo: true,
      instructionFiles: [{
        path: "/repo/AGENTS.md",
        content: "  Use tabs.\n\n",
      }],
      skills: [{ name: "pdf", description: "Fill {{forms}}." }],
    });
    const lists = await listsHost().assemble({
      selectedTools: ["edit", "read"],
      date: "2026-12-01",
      cwd: "/repo",
    });
    const template = templateHost();
    template.load({ name: "git", instructions: "Commit often.\n" }, 1);
    const templated = await template.prompt.assemble({ date: "2026-12-01" });
    for (const a of [newline, lists, templated, assembly([])]) {
      for (const text of systemTexts(a)) assert.equal(text, renderPrompt(a));
    }
  });
});

describe("planCache()", () => {
  it("places one breakpoint after the stable prefix and none at or after a step block", () => {
    const plan = planCache(
      assembly([
        { name: "persona", order: 0, text: words(300) },
        { name: "clock", order: 1, text: "It is 09:00.", stability: "step" },
        { name: "after", order: 2, text: words(300) },
      ]),
      ANTHROPIC,
      { model: "claude-sonnet-5" },
    );
    assert.deepEqual(chosen(plan), [[0, "stable-prefix"]]);
    assert.deepEqual(plan.choices.slice(1).map((c) => c.reason), [
      "after-step",
      "after-step",
    ]);
    assert.match(plan.choices[1]!.detail, /"clock", which changes every step/);
  });

  it("spends no breakpoint under the model's minimum, and says so", () => {
    const a = assembly([{ name: "a", order: 0, text: words(100) }]);
    const plan = planCache(a, ANTHROPIC, { model: "claude-haiku-4-5" });
    assert.equal(plan.minTokens, 4096);
    assert.deepEqual(chosen(plan), []);
    assert.equal(plan.choices[0]!.reason, "under-minimum");
    assert.match(
      plan.choices[0]!.detail,
      /a prefix of \d+ tokens, under the minimum of 4096/,
    );
    const { system } = toAnthropic(a, { model: "claude-haiku-4-5" });
    assert.equal(system[0]!.cache_control, undefined);
  });

  it("marks tools, static prefix and stable prefix within the budget, a reserve left for messages", () => {
    const a = assembly([
      { name: "persona", order: 0, text: words(300) },
      { name: "cwd", order: 1, text: words(300), stability: "session" },
      { name: "more", order: 2, text: words(300) },
    ], 300);
    const plan = planCache(a, ANTHROPIC, { model: "claude-sonnet-5" });
    assert.deepEqual(chosen(plan), [
      ["tools", "tools"],
      [0, "static-prefix"],
      [2, "stable-prefix"],
    ]);
    assert.deepEqual(plan.choices[2]!.reason, "over-budget");
    const all = planCache(a, ANTHROPIC, {
      model: "claude-sonnet-5",
      cache: { reserve: 0 },
    });
    assert.equal(all.choices.filter((c) => c.chosen).length, 4);
    const none = planCache(a, ANTHROPIC, {
      model: "claude-sonnet-5",
      cache: { reserve: 4 },
    });
    assert.deepEqual(chosen(none), []);
    assert.ok(none.choices.every((c) => c.reason === "over-budget"));
  });

  it("on Bedrock, covers the tools with the system checkpoint when the system increment alone is under the minimum", () => {
    const a = assembly([
      { name: "persona", order: 0, text: words(100) },
      { name: "clock", order: 1, text: "It is 09:00.", stability: "step" },
    ], 300);
    const bedrock = planCache(a, BEDROCK, {
      model: "anthropic.claude-sonnet-4-5-20250929-v1:0",
    });
    assert.deepEqual(chosen(bedrock), [[0, "stable-prefix"]]);
    assert.equal(bedrock.choices[0]!.reason, "under-minimum");
    assert.match(
      bedrock.choices[0]!.detail,
      /leave a chosen breakpoint under the minimum/,
    );
    const { system, toolConfig } = toBedrock(a, {
      model: "anthropic.claude-sonnet-4-5-20250929-v1:0",
    });
    assert.deepEqual(system.map((b) => Object.keys(b)[0]), [
      "text",
      "cachePoint",
      "text",
    ]);
    assert.ok(toolConfig?.tools.every((t) => "toolSpec" in t));
    // Anthropic counts the whole prefix: both places cache there.
    assert.deepEqual(
      chosen(planCache(a, ANTHROPIC, { model: "claude-sonnet-5" })),
      [
        ["tools", "tools"],
        [0, "stable-prefix"],
      ],
    );
  });

  it("falls back to the most conservative minimum for an unknown or absent model, and notes it", () => {
    const unknown = planCache(assembly([]), ANTHROPIC, {
      model: "claude-next",
    });
    assert.equal(unknown.minTokens, 4096);
    assert.match(unknown.notes[0]!, /Model "claude-next" is not in the table/);
    assert.match(
      planCache(assembly([]), GEMINI).notes[0]!,
      /No model given: .* 4096 tokens/,
    );
    assert.equal(
      planCache(assembly([]), BEDROCK, { model: "us.anthropic.claude-opus-5" })
        .minTokens,
      512,
    );
  });

  it("places none for a provider that caches by itself, and says whether the prefix is long enough", () => {
    const a = assembly([{ name: "a", order: 0, text: words(300) }], 10);
    const plan = planCache(a, OPENAI, { model: "gpt-5" });
    assert.deepEqual(chosen(plan), []);
    assert.ok(plan.choices.every((c) => c.reason === "automatic"));
    assert.match(
      plan.notes[0]!,
      /later steps can read it from cache \(minimum 1024\)/,
    );
    assert.match(
      planCache(a, GEMINI, { model: "gemini-3-pro" }).notes[0]!,
      /under the minimum of 4096/,
    );
    assert.deepEqual(toAISDK(a, { jsonSchema, profile: OPENAI }).system, [
      { role: "system", content: renderPrompt(a) },
    ]);
  });

  it("places none with cache: false", () => {
    const a = assembly([{ name: "a", order: 0, text: words(300) }], 300);
    const plan = planCache(a, ANTHROPIC, {
      model: "claude-sonnet-5",
      cache: false,
    });
    assert.ok(plan.choices.every((c) => !c.chosen && c.reason === "disabled"));
    const request = toAnthropic(a, { model: "claude-sonnet-5", cache: false });
    assert.ok(
      [...request.system, ...request.tools].every((b) =>
        !("cache_control" in b)
      ),
    );
  });

  it("gives every breakpoint the TTL asked for, and rejects one the provider lacks", () => {
    const a = assembly([{ name: "a", order: 0, text: words(300) }], 300);
    const request = toAnthropic(a, {
      model: "claude-sonnet-5",
      cache: { ttl: "1h" },
    });
    assert.deepEqual(request.system[0]!.cache_control, {
      type: "ephemeral",
      ttl: "1h",
    });
    assert.deepEqual(request.tools[0]!.cache_control, {
      type: "ephemeral",
      ttl: "1h",
    });
    assert.deepEqual(
      toBedrock(a, { cache: { ttl: "1h" }, model: "claude-opus-5" }).system[1],
      {
        cachePoint: { type: "default", ttl: "1h" },
      },
    );
    assert.deepEqual(
      toAISDK(a, { jsonSchema, model: "claude-sonnet-5", cache: { ttl: "1h" } })
        .tools.bash!.providerOptions,
      { anthropic: { cacheControl: { type: "ephemeral", ttl: "1h" } } },
    );
    assert.throws(
      () =>
        planCache(a, { ...ANTHROPIC, ttls: ["5m"] }, { cache: { ttl: "1h" } }),
      (error: unknown) =>
        error instanceof PromptError && error.code === "invalid-option" &&
        error.message ===
          'Cannot plan cache breakpoints: anthropic offers no TTL "1h"',
    );
    assert.throws(
      () => planCache(a, ANTHROPIC, { cache: { reserve: -1 } }),
      (error: unknown) =>
        error instanceof PromptError && error.code === "invalid-option",
    );
  });

  it("cuts a list where its items' stability changes, so the breakpoint can sit before a step item", async () => {
    const a = await newlineHost().assemble({
      model: "m-1",
      cwd: "/repo",
      platform: "linux",
      date: "2026-12-01",
      gitRepo: true,
      instructionFiles: [{ path: "/repo/AGENTS.md", content: words(300) }],
      skills: [],
    });
    const plan = planCache(a, ANTHROPIC, { model: "claude-sonnet-5" });
    assert.deepEqual(plan.blocks.map((b) => b.stability), [
      "static",
      "session",
      "static",
      "step",
      "static",
    ]);
    assert.ok(plan.blocks[3]!.text.endsWith("Date: 2026-12-01"));
    assert.equal(plan.blocks.map((b) => b.text).join(""), renderPrompt(a));
  });

  it("uses the host's token counter", () => {
    const a = assembly([{ name: "a", order: 0, text: "Hi." }]);
    const plan = planCache(a, ANTHROPIC, {
      model: "claude-opus-5",
      countTokens: () => 600,
    });
    assert.deepEqual(chosen(plan), [[0, "stable-prefix"]]);
  });
});

describe("contextMessage", () => {
  it("is absent without runtime context and carries renderPrompt's text of the contexts otherwise, with no breakpoint", () => {
    const base = assembly([{ name: "a", order: 0, text: words(300) }], 300);
    assert.equal(toAnthropic(base).contextMessage, undefined);
    assert.equal(toGemini(base).contextMessage, undefined);
    const contexts: AssembledSection[] = [
      { name: "time", order: 0, text: "It is {{time}}." },
      { name: "git", order: 1, text: "M src/a.ts" },
    ];
    const a = {
      ...base,
      contexts,
      variables: { time: "09:00" },
    } as PromptAssembly;
    const text = "It is 09:00.\n\nM src/a.ts";
    assert.deepEqual(toAnthropic(a).contextMessage, {
      role: "user",
      content: text,
    });
    assert.deepEqual(toOpenAIResponses(a).contextMessage, {
      role: "user",
      content: text,
    });
    assert.deepEqual(toOpenAIChat(a).contextMessage, {
      role: "user",
      content: text,
    });
    assert.deepEqual(toBedrock(a).contextMessage, {
      role: "user",
      content: [{ text }],
    });
    assert.deepEqual(toGemini(a).contextMessage, {
      role: "user",
      parts: [{ text }],
    });
    assert.deepEqual(toAISDK(a, { jsonSchema }).contextMessage, {
      role: "user",
      content: text,
    });
    assert.equal(renderPrompt(a), renderPrompt(base));
    const empty = {
      ...base,
      contexts: [{ name: "x", order: 0, text: "  " }],
    } as PromptAssembly;
    assert.equal(toAnthropic(empty).contextMessage, undefined);
  });
});

describe("cacheBlocks() beside the adapters", () => {
  it("marks at most 3 blocks by default, so a tools breakpoint keeps the request within 4", () => {
    const sections: AssembledSection[] = [
      "static",
      "session",
      "static",
      "session",
      "static",
    ]
      .map((stability, i) => ({
        name: `s${i}`,
        order: i,
        text: `Part ${i}.`,
        stability: stability as "static" | "session",
      }));
    const blocks = cacheBlocks(assembly(sections));
    assert.equal(blocks.length, 5);
    assert.equal(blocks.filter((b) => b.cache).length, 3);
  });
});

describe("src/adapters/", () => {
  it("imports only the package's own files: no SDK, no Deno or node API", () => {
    const dir = join(repoRoot(), "src", "adapters");
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      // The code without its comments (JSDoc examples import node:assert).
      const text = readFileSync(join(dir, file), "utf8")
        .replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
      for (const [, from] of text.matchAll(/from "([^"]+)"/g)) {
        assert.ok(
          /^\.\/[a-z_]+\.ts$/.test(from!) || from === "../../mod.ts" ||
            from === "../../inspect.ts" ||
            /^\.\.\/(core|render|inspect)\/[a-z_]+\.ts$/.test(from!),
          `${file} imports ${from}`,
        );
      }
      assert.doesNotMatch(
        text,
        /\bDeno\.|node:/,
        file,
      );
    }
  });
});
