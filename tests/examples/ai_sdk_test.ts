// examples/ai_sdk.ts with the Vercel AI SDK's mock model: the model gets
// exactly renderPrompt(assembly) and the assembly's tools, and a tool call
// renders the next step again.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { MockLanguageModelV3 } from "ai/test";
import type { RenderedStep } from "@dsh/system-prompt";
import { generateStep, runAgentLoop } from "../../examples/ai_sdk.ts";
import { parseConfig } from "../../examples/config.ts";
import { startAgent } from "../../examples/start_agent.ts";
import { persona } from "./io.ts";

/** The model's system messages (one per cache block), joined. */
function systemText(prompt: readonly { role: string; content: unknown }[]) {
  return prompt.filter((m) => m.role === "system").map((m) => m.content)
    .join("");
}

describe("generateStep() with the Vercel AI SDK", () => {
  it("hands the model exactly renderPrompt(assembly) and the assembly's tools", async () => {
    const config = parseConfig(
      await readFile(persona("default.json"), "utf8"),
      "default.json",
    );
    const loop = startAgent(config).service("agent-loop")!;
    const model = new MockLanguageModelV3({
      doGenerate: {
        content: [{ type: "text", text: "On it." }],
        finishReason: { unified: "stop", raw: undefined },
        usage: {
          inputTokens: {
            total: 1,
            noCache: 1,
            cacheRead: undefined,
            cacheWrite: undefined,
          },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      },
    });
    const result = await generateStep(
      loop,
      config.agent,
      model,
      "List the files.",
    );
    const expected = await loop.step(config.agent);

    assert.equal(result.text, "On it.");
    const call = model.doGenerateCalls[0]!;
    assert.equal(systemText(call.prompt), expected.system);
    assert.deepEqual(
      call.tools?.map((tool) => tool.name),
      expected.tools.map((tool) => tool.name),
    );
    const bash = call.tools?.find((tool) => tool.name === "bash");
    assert.ok(bash?.type === "function");
    assert.equal(bash.description, expected.tools[0]!.description);
    assert.deepEqual(bash.inputSchema, expected.tools[0]!.parameters);
  });
});

describe("runAgentLoop() with the Vercel AI SDK", () => {
  it("runs a tool through the registry and renders the next step again; only the clock changed", async () => {
    const dated = parseConfig(
      await readFile(persona("dated.json"), "utf8"),
      "dated.json",
    );
    const config = { ...dated, plugins: [...dated.plugins, "tool-registry"] };
    const host = startAgent(config);
    const registry = host.service("tool-registry")!;
    const calls: unknown[] = [];
    registry.register({
      name: "add",
      description: "Adds two numbers.",
      parameters: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
      execute: (input) => {
        calls.push(input);
        const { a, b } = input as { a: number; b: number };
        return a + b;
      },
    });
    const usage = {
      inputTokens: {
        total: 1,
        noCache: 1,
        cacheRead: undefined,
        cacheWrite: undefined,
      },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    };
    const model = new MockLanguageModelV3({
      doGenerate: [
        {
          content: [{
            type: "tool-call",
            toolCallId: "call-1",
            toolName: "add",
            input: JSON.stringify({ a: 2, b: 3 }),
          }],
          finishReason: { unified: "tool-calls", raw: undefined },
          usage,
          warnings: [],
        },
        {
          content: [{ type: "text", text: "2 + 3 = 5." }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: [],
        },
      ],
    });
    const times = ["2026-11-30T09:00:00Z", "2026-11-30T09:05:00Z"];
    const { result, requests } = await runAgentLoop(
      host.service("agent-loop")!,
      config.agent,
      model,
      "What is 2 + 3?",
      { registry, now: () => times.shift()! },
    );

    assert.equal(result.text, "2 + 3 = 5.");
    assert.equal(result.steps.length, 2);
    assert.deepEqual(calls, [{ a: 2, b: 3 }]);
    assert.equal(requests.length, 2);
    const [first, second] = model.doGenerateCalls;
    assert.equal(systemText(first!.prompt), requests[0]!.prompt);
    assert.equal(systemText(second!.prompt), requests[1]!.prompt);
    assert.match(
      requests[0]!.prompt,
      /The current time is 2026-11-30 09:00 UTC/,
    );
    assert.match(
      requests[1]!.prompt,
      /The current time is 2026-11-30 09:05 UTC/,
    );
    // Each call's last conversation message carries the breakpoint the
    // plan reserved; the earlier ones carry none.
    for (const call of [first!, second!]) {
      const conversation = call.prompt.filter((m) => m.role !== "system");
      const marks = conversation.map((m) => m.providerOptions?.anthropic);
      assert.deepEqual(marks.at(-1), { cacheControl: { type: "ephemeral" } });
      assert.ok(marks.slice(0, -1).every((m) => m === undefined));
    }
    const toolResult = second!.prompt.find((m) => m.role === "tool");
    const part = toolResult?.content[0];
    assert.ok(part?.type === "tool-result");
    assert.equal(part.toolCallId, "call-1");
    assert.deepEqual(part.output, { type: "json", value: 5 });
    assert.ok(first!.tools?.some((t) => t.name === "add"));

    // Only the clock changed: equal tools, the persona's block alone new.
    const [a, b] = requests as [RenderedStep, RenderedStep];
    assert.deepEqual(b.tools, a.tools);
    assert.equal(
      a.prompt.replace("09:00 UTC", "09:05 UTC"),
      b.prompt,
    );
    assert.deepEqual(a.blocks[0]!.parts[0], "agent:persona");
    assert.notEqual(b.blocks[0], a.blocks[0]);
    assert.deepEqual(b.blocks.slice(1), a.blocks.slice(1));
  });
});
