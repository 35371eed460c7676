import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { MockLanguageModelV3 } from "ai/test";
import { generateStep } from "../../examples/ai_sdk.ts";
import { parseConfig } from "../../examples/config.ts";
import { startAgent } from "../../examples/start_agent.ts";
import { persona } from "./io.ts";

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
    assert.deepEqual(call.prompt[0], {
      role: "system",
      content: expected.system,
    });
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
