// Type tests: each adapter's result compiles into the official SDK's request
// type (strict, exactOptionalPropertyTypes), with the SDKs as dev
// dependencies. `deno task check` and the Node run (tsc) both compile this.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import type { ConverseCommandInput } from "@aws-sdk/client-bedrock-runtime";
import type { GenerateContentParameters } from "@google/genai";
import { type generateText, jsonSchema, type ModelMessage } from "ai";
import type { PromptAssembly } from "@dsh/system-prompt";
import {
  BEDROCK,
  cacheAISDKMessages,
  cacheAnthropicMessages,
  cacheBedrockMessages,
  toAISDK,
  toAnthropic,
  toBedrock,
  toGemini,
  toOpenAIChat,
  toOpenAIResponses,
} from "@dsh/system-prompt/adapters";

const conversation = [{ role: "user" as const, content: "List the files." }];

export function anthropicParams(
  assembly: PromptAssembly,
): Anthropic.MessageCreateParamsNonStreaming {
  const { system, tools, contextMessage } = toAnthropic(assembly);
  return {
    model: "claude-sonnet-5",
    max_tokens: 1024,
    system,
    tools,
    messages: contextMessage ? [...conversation, contextMessage] : conversation,
  };
}

export function openAIResponsesParams(
  assembly: PromptAssembly,
): OpenAI.Responses.ResponseCreateParamsNonStreaming {
  const { instructions, tools, contextMessage } = toOpenAIResponses(assembly);
  return {
    model: "gpt-5",
    instructions,
    tools,
    input: contextMessage ? [...conversation, contextMessage] : conversation,
  };
}

export function openAIChatParams(
  assembly: PromptAssembly,
): OpenAI.Chat.ChatCompletionCreateParamsNonStreaming {
  // `tools` is absent when there are none: spread the request.
  const request = toOpenAIChat(assembly);
  const { messages, contextMessage } = request;
  return {
    model: "gpt-5",
    ...request,
    messages: [
      ...messages,
      ...conversation,
      ...(contextMessage ? [contextMessage] : []),
    ],
  };
}

export function bedrockParams(assembly: PromptAssembly): ConverseCommandInput {
  const { system, toolConfig, contextMessage } = toBedrock(assembly);
  const input: ConverseCommandInput = {
    modelId: "anthropic.claude-sonnet-4-5-20250929-v1:0",
    system,
    messages: [{
      role: "user",
      content: [
        { text: "List the files." },
        ...(contextMessage?.content ?? []),
      ],
    }],
  };
  if (toolConfig) input.toolConfig = toolConfig;
  return input;
}

export function geminiParams(
  assembly: PromptAssembly,
): GenerateContentParameters {
  const { systemInstruction, tools, contextMessage } = toGemini(assembly);
  return {
    model: "gemini-2.5-flash",
    contents: [
      { role: "user", parts: [{ text: "List the files." }] },
      ...(contextMessage ? [contextMessage] : []),
    ],
    config: { systemInstruction, tools },
  };
}

// The checks bite: another provider's shapes do not fit.
export function mismatched(
  assembly: PromptAssembly,
): Anthropic.MessageCreateParamsNonStreaming {
  return {
    model: "claude-sonnet-5",
    max_tokens: 1024,
    // @ts-expect-error Bedrock's system blocks are not Anthropic's
    system: toBedrock(assembly).system,
    // @ts-expect-error Chat Completions tools are not Anthropic tools
    tools: toOpenAIChat(assembly).tools,
    messages: conversation,
  };
}

type GenerateTextParams = Parameters<typeof generateText>[0];

export function aiSDKParams(
  assembly: PromptAssembly,
): Pick<GenerateTextParams, "system" | "tools" | "messages"> {
  const { system, tools, contextMessage } = toAISDK(assembly, {
    jsonSchema,
    profile: BEDROCK,
  });
  const messages: ModelMessage[] = [
    ...conversation,
    ...(contextMessage ? [contextMessage] : []),
  ];
  return { system, tools, messages };
}

// The message helpers take and give the SDKs' own message types.
export function anthropicCachedParams(
  assembly: PromptAssembly,
  history: Anthropic.MessageParam[],
): Anthropic.MessageCreateParamsNonStreaming {
  const request = toAnthropic(assembly);
  const messages: Anthropic.MessageParam[] = cacheAnthropicMessages(
    request,
    history,
  );
  return { model: "claude-sonnet-5", max_tokens: 1024, ...request, messages };
}

export function bedrockCachedParams(
  assembly: PromptAssembly,
  history: NonNullable<ConverseCommandInput["messages"]>,
): ConverseCommandInput {
  const request = toBedrock(assembly);
  const messages = cacheBedrockMessages(request, history);
  return { modelId: "anthropic.claude-sonnet-4-5", ...request, messages };
}

export function aiSDKCachedParams(
  assembly: PromptAssembly,
  history: ModelMessage[],
): Pick<GenerateTextParams, "system" | "tools" | "messages"> {
  const request = toAISDK(assembly, { jsonSchema });
  const messages: ModelMessage[] = cacheAISDKMessages(request, history);
  return { ...request, messages };
}

describe("adapter results and the SDKs' request types", () => {
  it("compile into each SDK's parameters (checked by the type checker)", () => {
    const assembly: PromptAssembly = {
      sections: [{
        name: "persona",
        order: 0,
        text: "You are a coding agent.",
      }],
      tools: [{
        name: "bash",
        description: "Runs.",
        parameters: { type: "object" },
      }],
      variables: {},
    };
    assert.equal(anthropicParams(assembly).tools?.length, 1);
    assert.equal(openAIResponsesParams(assembly).tools?.length, 1);
    assert.equal(openAIChatParams(assembly).messages.length, 2);
    assert.equal(bedrockParams(assembly).toolConfig?.tools?.length, 1);
    assert.equal(geminiParams(assembly).config?.tools?.length, 1);
    assert.ok(aiSDKParams(assembly).tools?.bash);
    const history = [{ role: "user" as const, content: "List the files." }];
    assert.equal(anthropicCachedParams(assembly, history).messages.length, 1);
    assert.equal(
      bedrockCachedParams(assembly, [{
        role: "user",
        content: [{ text: "Hi" }],
      }])
        .messages?.[0]?.content?.length,
      2,
    );
    assert.ok(
      aiSDKCachedParams(assembly, history).messages?.[0]?.providerOptions,
    );
  });
});

describe("deferred tools and the SDKs' request types", () => {
  it("a deferred tool's defer_loading (Anthropic, Responses) and providerOptions.anthropic.deferLoading (AI SDK) fit the SDKs' own fields", () => {
    const assembly: PromptAssembly = {
      sections: [{ name: "persona", order: 0, text: "You are an agent." }],
      tools: [{
        name: "archive",
        description: "Reads the archive.",
        parameters: { type: "object" },
        deferLoading: true,
      }],
      variables: {},
    };
    const anthropic: Anthropic.Tool | undefined = toAnthropic(assembly)
      .tools[0];
    assert.equal(anthropic?.defer_loading, true);
    const responses: OpenAI.Responses.FunctionTool | undefined =
      toOpenAIResponses(assembly).tools[0];
    assert.equal(responses?.defer_loading, true);
    const { tools } = toAISDK(assembly, { jsonSchema });
    const sdk: Pick<GenerateTextParams, "tools"> = { tools };
    assert.deepEqual(sdk.tools?.archive?.providerOptions, {
      anthropic: { deferLoading: true },
    });
    assert.equal(anthropicParams(assembly).tools?.length, 1);
    assert.equal(bedrockParams(assembly).toolConfig?.tools?.length, 1);
    assert.equal(geminiParams(assembly).config?.tools?.length, 1);
  });
});
