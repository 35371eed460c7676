// Type tests: every provider's usage type, as its SDK declares it, is
// accepted by CacheLedger.record()'s `usage` (and the AI SDK's provider
// metadata by `providerMetadata`); values of those types read as the SDKs
// describe them. `deno task check` and the Node run (tsc) compile this.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import type { TokenUsage } from "@aws-sdk/client-bedrock-runtime";
import type { GenerateContentResponseUsageMetadata } from "@google/genai";
import type { LanguageModelUsage, ProviderMetadata } from "ai";
import { readUsage, type RecordOptions } from "@dsh/system-prompt/adapters";

type Usage = RecordOptions["usage"];
export function anthropicUsage(u: Anthropic.Usage): Usage {
  return u;
}
export function openAIResponsesUsage(u: OpenAI.Responses.ResponseUsage): Usage {
  return u;
}
export function openAIChatUsage(u: OpenAI.CompletionUsage): Usage {
  return u;
}
export function bedrockUsage(u: TokenUsage): Usage {
  return u;
}
export function geminiUsage(u: GenerateContentResponseUsageMetadata): Usage {
  return u;
}
export function aiSDKUsage(u: LanguageModelUsage): Usage {
  return u;
}
export function aiSDKMetadata(
  m: ProviderMetadata,
): NonNullable<RecordOptions["providerMetadata"]> {
  return m;
}

describe("usage values typed by each SDK", () => {
  it("are read by readUsage as the SDK's docs describe them", () => {
    const anthropic: Anthropic.Usage = {
      cache_creation: {
        ephemeral_1h_input_tokens: 0,
        ephemeral_5m_input_tokens: 1500,
      },
      cache_creation_input_tokens: 1500,
      cache_read_input_tokens: null,
      inference_geo: null,
      input_tokens: 20,
      output_tokens: 5,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: "standard",
      speed: null,
    };
    assert.deepEqual(readUsage(anthropicUsage(anthropic)).written, 1500);
    const responses: OpenAI.Responses.ResponseUsage = {
      input_tokens: 2100,
      input_tokens_details: { cached_tokens: 2048, cache_write_tokens: 0 },
      output_tokens: 3,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 2103,
    };
    assert.equal(readUsage(openAIResponsesUsage(responses)).uncached, 52);
    const bedrock: TokenUsage = {
      inputTokens: 12,
      outputTokens: 3,
      totalTokens: 1515,
      cacheReadInputTokens: 1500,
    };
    assert.equal(readUsage(bedrockUsage(bedrock)).read, 1500);
    const usage: LanguageModelUsage = {
      inputTokens: 1600,
      inputTokenDetails: {
        noCacheTokens: 100,
        cacheReadTokens: 1500,
        cacheWriteTokens: undefined,
      },
      outputTokens: 3,
      outputTokenDetails: { textTokens: 3, reasoningTokens: undefined },
      totalTokens: 1603,
    };
    assert.equal(readUsage(aiSDKUsage(usage), "ai-sdk").read, 1500);
  });
});
