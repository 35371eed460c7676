// The host's last message marked in the slot the plan reserved.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { PromptAssembly } from "@dsh/system-prompt";
import {
  type AISDKMessage,
  BEDROCK,
  cacheAISDKMessages,
  cacheAnthropicMessages,
  cacheBedrockMessages,
  OPENAI,
  toAISDK,
  toAnthropic,
  toBedrock,
} from "@dsh/system-prompt/adapters";

const long: PromptAssembly = {
  sections: [{
    name: "persona",
    order: 0,
    text: "Read before you edit. ".repeat(400),
  }],
  tools: [],
  variables: {},
};
const jsonSchema = (schema: object) => schema;

describe("cacheAnthropicMessages()", () => {
  it("marks the last content block, turning a text into a block, and changes nothing of the caller's", () => {
    const request = toAnthropic(long, { model: "claude-sonnet-4-5" });
    const history = Object.freeze([
      Object.freeze({ role: "user" as const, content: "Hi." }),
      Object.freeze({
        role: "assistant" as const,
        content: Object.freeze([
          Object.freeze({ type: "text" as const, text: "Hello." }),
        ]),
      }),
    ]);
    const out = cacheAnthropicMessages(request, history);
    assert.notEqual(out, history);
    assert.equal(out[0], history[0]);
    assert.deepEqual(out[1], {
      role: "assistant",
      content: [{
        type: "text",
        text: "Hello.",
        cache_control: { type: "ephemeral" },
      }],
    });
    const text = cacheAnthropicMessages(request, [history[0]!]);
    assert.deepEqual(text[0]!.content, [
      { type: "text", text: "Hi.", cache_control: { type: "ephemeral" } },
    ]);
  });

  it("marks nothing with cache: false, reserve: 0, a slot already used, or no messages", () => {
    const history = [{ role: "user" as const, content: "Hi." }];
    for (
      const options of [{ cache: false as const }, { cache: { reserve: 0 } }]
    ) {
      const out = cacheAnthropicMessages(toAnthropic(long, options), history);
      assert.deepEqual(out, history);
      assert.notEqual(out, history);
    }
    const marked = [{
      role: "user" as const,
      content: [{
        type: "text" as const,
        text: "Hi.",
        cache_control: { type: "ephemeral" as const },
      }],
    }, {
      role: "user" as const,
      content: [{ type: "text" as const, text: "More." }],
    }];
    assert.deepEqual(cacheAnthropicMessages(toAnthropic(long), marked), marked);
    // Two reserved: the second slot is still free.
    const two = cacheAnthropicMessages(
      toAnthropic(long, { cache: { reserve: 2 } }),
      marked,
    );
    assert.deepEqual(two[1]!.content, [
      { type: "text", text: "More.", cache_control: { type: "ephemeral" } },
    ]);
    assert.deepEqual(cacheAnthropicMessages(toAnthropic(long), []), []);
  });

  it("puts the breakpoint before trailing thinking blocks, which cannot carry one", () => {
    const out = cacheAnthropicMessages(toAnthropic(long), [{
      role: "assistant",
      content: [
        { type: "text", text: "Plan." },
        { type: "thinking", thinking: "…", signature: "s" },
      ],
    }]);
    const content = out[0]!.content as { cache_control?: unknown }[];
    assert.deepEqual(content.map((b) => b.cache_control), [{
      type: "ephemeral",
    }, undefined]);
  });

  it("keeps the TTL order: never a longer TTL than the plan's breakpoints", () => {
    const history = [{ role: "user" as const, content: "Hi." }];
    const short = toAnthropic(long, { model: "claude-sonnet-4-5" });
    assert.ok(short.plan.choices.some((c) => c.chosen));
    assert.throws(() => cacheAnthropicMessages(short, history, { ttl: "1h" }), {
      code: "invalid-option",
      message: /longer than the plan's "5m"/,
    });
    const hour = toAnthropic(long, {
      model: "claude-sonnet-4-5",
      cache: { ttl: "1h" },
    });
    for (const ttl of ["5m", "1h"] as const) {
      const [message] = cacheAnthropicMessages(hour, history, { ttl });
      const [block] = message!.content as unknown as {
        cache_control?: unknown;
      }[];
      assert.deepEqual(
        block!.cache_control,
        ttl === "1h" ? { type: "ephemeral", ttl } : { type: "ephemeral" },
      );
    }
    assert.throws(
      () => cacheAnthropicMessages(short, history, { ttl: "2h" as "1h" }),
      { code: "invalid-option", message: /ttl must be "5m" or "1h", got "2h"/ },
    );
    assert.throws(
      () => cacheAnthropicMessages({ plan: {} } as never, history),
      { code: "invalid-option", message: /has no plan of this package/ },
    );
  });
});

describe("cacheBedrockMessages()", () => {
  it("appends a cachePoint to the last message's content, and counts the checkpoints already there", () => {
    const request = toBedrock(long);
    const history = [{ role: "user" as const, content: [{ text: "Hi." }] }];
    const out = cacheBedrockMessages(request, history);
    assert.deepEqual(out[0]!.content, [{ text: "Hi." }, {
      cachePoint: { type: "default" },
    }]);
    assert.deepEqual(history[0]!.content, [{ text: "Hi." }]);
    assert.deepEqual(cacheBedrockMessages(request, out), out);
    assert.deepEqual(
      cacheBedrockMessages(toBedrock(long, { cache: false }), history),
      history,
    );
    assert.deepEqual(
      cacheBedrockMessages(request, [{ role: "user", content: [] }]),
      [{ role: "user", content: [] }],
    );
  });
});

describe("cacheAISDKMessages()", () => {
  it("sets the provider's option on the last message, keeping its other options", () => {
    const anthropic = toAISDK(long, { jsonSchema });
    const history = [{
      role: "user" as const,
      content: "Hi.",
      providerOptions: { anthropic: { sendReasoning: true }, other: { x: 1 } },
    }];
    const [message] = cacheAISDKMessages(anthropic, history);
    assert.deepEqual(message!.providerOptions, {
      anthropic: { sendReasoning: true, cacheControl: { type: "ephemeral" } },
      other: { x: 1 },
    });
    assert.deepEqual(history[0]!.providerOptions.anthropic, {
      sendReasoning: true,
    });
    const bedrock = toAISDK(long, { jsonSchema, profile: BEDROCK });
    const plainMessage: AISDKMessage = { role: "user" };
    const [viaBedrock] = cacheAISDKMessages(bedrock, [plainMessage]);
    assert.deepEqual(viaBedrock!.providerOptions, {
      bedrock: { cachePoint: { type: "default" } },
    });
    const automatic = toAISDK(long, { jsonSchema, profile: OPENAI });
    const plain = [{ role: "user" as const, content: "Hi." }];
    assert.deepEqual(cacheAISDKMessages(automatic, plain), plain);
  });
});
