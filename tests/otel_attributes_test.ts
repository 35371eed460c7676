// stepAttributes on a span of the real OpenTelemetry SDK (in-memory
// exporter): the attributes the span keeps are the GenAI conventions'
// system instructions (text parts that join to the prompt), tool
// definitions and cache usage, and the library's manifest of parts.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { renderPrompt, SystemPrompt } from "@dsh/system-prompt";
import {
  CacheLedger,
  stepAttributes,
  toAnthropic,
  toOpenAIResponses,
} from "@dsh/system-prompt/adapters";

async function hostileStep() {
  const prompt = new SystemPrompt<{ time: string }>();
  prompt.scope('agent-loop"</script><b>').section({
    name: "persona",
    order: 0,
    text: "You are a coding agent. ".repeat(300),
  });
  prompt.scope("clock").section({
    name: "clock",
    order: 900,
    stability: "step",
    text: (c) => `It is ${c.time}.`,
  });
  prompt.scope("mcp:docs\u0000\n").tools(() => [{
    name: "docs_search",
    description: "Searches the docs. ".repeat(80),
    parameters: { type: "object", properties: { q: { type: "string" } } },
  }]);
  return await prompt.assemble({ time: "09:00" });
}

function spanWith(attributes: Record<string, unknown>) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const span = provider.getTracer("test").startSpan("chat claude-sonnet-4-5");
  span.setAttributes(attributes as never);
  span.end();
  const [finished] = exporter.getFinishedSpans();
  return finished!.attributes;
}

describe("stepAttributes on a real OpenTelemetry span", () => {
  it("keeps the system instructions as text parts that join to the prompt, the tools, the cache usage and every part's owner", async () => {
    const assembly = await hostileStep();
    const request = toAnthropic(assembly, { model: "claude-sonnet-4-5" });
    const ledger = new CacheLedger();
    const report = ledger.record(assembly, {
      request,
      at: 0,
      model: "claude-sonnet-4-5",
      usage: {
        input_tokens: 30,
        cache_creation_input_tokens: 2000,
        cache_read_input_tokens: 0,
      },
    });
    const kept = spanWith(stepAttributes(assembly, { request, report }));

    const parts = JSON.parse(String(kept["gen_ai.system_instructions"]));
    assert.ok(parts.every((p: { type: string }) => p.type === "text"));
    assert.equal(
      parts.map((p: { content: string }) => p.content).join(""),
      renderPrompt(assembly),
    );
    const tools = JSON.parse(String(kept["gen_ai.tool.definitions"]));
    assert.deepEqual(
      tools.map((t: { type: string; name: string }) => [t.type, t.name]),
      [["function", "docs_search"]],
    );
    assert.equal(kept["gen_ai.provider.name"], "anthropic");
    assert.equal(kept["gen_ai.request.model"], "claude-sonnet-4-5");
    assert.equal(kept["gen_ai.usage.input_tokens"], 2030);
    assert.equal(kept["gen_ai.usage.cache_read.input_tokens"], 0);
    assert.equal(kept["gen_ai.usage.cache_creation.input_tokens"], 2000);
    assert.deepEqual(kept["dsh.system_prompt.part.name"], [
      "docs_search",
      "persona",
      "clock",
    ]);
    assert.deepEqual(kept["dsh.system_prompt.part.owner"], [
      "mcp:docs\u0000\n",
      'agent-loop"</script><b>',
      "clock",
    ]);
    assert.deepEqual(kept["dsh.system_prompt.part.stability"], [
      "static",
      "static",
      "step",
    ]);
    assert.equal((kept["dsh.system_prompt.part.hash"] as string[]).length, 3);
    assert.equal(kept["dsh.system_prompt.cache.cause"], "first-request");
  });

  it("takes a request of another provider, or none, and every value is one a span keeps", async () => {
    const assembly = await hostileStep();
    const request = toOpenAIResponses(assembly, { model: "gpt-5" });
    const attributes = stepAttributes(assembly, { request, model: "gpt-5" });
    assert.equal(attributes["gen_ai.provider.name"], "openai");
    assert.deepEqual(attributes["dsh.system_prompt.part.name"], [
      "persona",
      "clock",
      "docs_search",
    ]);
    const step = await (async () => {
      const prompt = new SystemPrompt();
      prompt.scope("agent-loop").section({
        name: "persona",
        order: 0,
        text: "Be brief.",
      });
      return await prompt.render();
    })();
    const rendered = stepAttributes(step);
    assert.deepEqual(
      JSON.parse(String(rendered["gen_ai.system_instructions"])),
      [{ type: "text", content: "Be brief." }],
    );
    assert.deepEqual(rendered["dsh.system_prompt.part.owner"], ["agent-loop"]);
    const bare = stepAttributes(assembly);
    assert.equal(bare["gen_ai.provider.name"], undefined);
    const kept = spanWith(bare);
    assert.deepEqual(Object.keys(kept).sort(), Object.keys(bare).sort());
  });
});
