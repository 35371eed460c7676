// Request tests through the real clients: the official Anthropic and OpenAI
// SDKs and the AI SDK's generateText with its Anthropic provider, each with
// a fetch that captures the HTTP body and answers with a canned response.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { generateText, jsonSchema, type ModelMessage } from "ai";
import {
  type PromptAssembly,
  renderPrompt,
  SystemPrompt,
  TOOL_ORDER_REST,
  type ToolSchema,
} from "@dsh/system-prompt";
import {
  cacheAISDKMessages,
  cacheAnthropicMessages,
  toAISDK,
  toAnthropic,
  toOpenAIChat,
  toOpenAIResponses,
} from "@dsh/system-prompt/adapters";
import { repoRoot } from "./support/repo_root.ts";

const TOOLS: ToolSchema[] = JSON.parse(
  readFileSync(join(repoRoot(), "tests/fixtures/coding_tools.json"), "utf8"),
);

async function assembly(): Promise<PromptAssembly> {
  const prompt = new SystemPrompt<{ cwd: string; time: string }>();
  prompt.scope("agent-loop").section({
    name: "persona",
    order: 0,
    text: "You are a coding agent in the user's terminal. " +
      "Read before you edit, verify each step, report what you saw. ".repeat(
        40,
      ),
  });
  prompt.scope("workspace").section({
    name: "workspace",
    order: 500,
    stability: "session",
    text: (c) => `The working directory is ${c.cwd}.`,
  });
  prompt.scope("clock").section({
    name: "clock",
    order: 900,
    stability: "step",
    text: (c) => `It is ${c.time}.`,
  });
  prompt.scope("tools").tools(() => TOOLS);
  return await prompt.assemble({ cwd: "/repo", time: "09:00" });
}

/** A fetch that records each request body and answers `body`. */
function capture(body: unknown) {
  const bodies: string[] = [];
  const fetch = (_url: string | URL | Request, init?: RequestInit) => {
    bodies.push(String(init?.body));
    return Promise.resolve(
      new Response(JSON.stringify(body), {
        status: 200,
        headers: { "content-type": "application/json", "request-id": "req_1" },
      }),
    );
  };
  return { bodies, fetch };
}

const ANTHROPIC_REPLY = {
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-5",
  content: [{ type: "text", text: "On it." }],
  stop_reason: "end_turn",
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
};

describe("toAnthropic() through @anthropic-ai/sdk", () => {
  it("sends the system blocks, cache_control where the plan put it, and the tools byte for byte", async () => {
    const a = await assembly();
    const request = toAnthropic(a, { model: "claude-sonnet-5" });
    const { bodies, fetch } = capture(ANTHROPIC_REPLY);
    const client = new Anthropic({ apiKey: "test", fetch, maxRetries: 0 });
    const reply = await client.messages.create({
      model: "claude-sonnet-5",
      max_tokens: 256,
      system: request.system,
      tools: request.tools,
      messages: [{ role: "user", content: "List the files." }],
    });
    assert.equal(reply.content[0]?.type, "text");

    const body = bodies[0]!;
    assert.ok(body.includes(`"system":${JSON.stringify(request.system)}`));
    assert.ok(body.includes(`"tools":${JSON.stringify(request.tools)}`));
    const sent = JSON.parse(body);
    assert.equal(
      sent.system.map((b: { text: string }) => b.text).join(""),
      renderPrompt(a),
    );
    // Three breakpoints (one left for the messages): after the tools, after
    // the static persona, after the session-stable workspace; none on the clock.
    assert.deepEqual(
      sent.system.map((b: { cache_control?: unknown }) => b.cache_control),
      [{ type: "ephemeral" }, { type: "ephemeral" }, undefined],
    );
    assert.deepEqual(sent.tools.at(-1).cache_control, { type: "ephemeral" });
    assert.ok(
      sent.tools.slice(0, -1).every((t: object) => !("cache_control" in t)),
    );
  });
});

describe("toOpenAIResponses() and toOpenAIChat() through openai", () => {
  it("sends instructions and function tools byte for byte", async () => {
    const a = await assembly();
    const request = toOpenAIResponses(a, { model: "gpt-5" });
    const { bodies, fetch } = capture({
      id: "resp_1",
      object: "response",
      created_at: 0,
      status: "completed",
      model: "gpt-5",
      output: [{
        type: "message",
        id: "msg_1",
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: "On it.", annotations: [] }],
      }],
    });
    const client = new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
    const reply = await client.responses.create({
      model: "gpt-5",
      instructions: request.instructions,
      tools: request.tools,
      input: "List the files.",
    });
    assert.equal(reply.output_text, "On it.");
    const body = bodies[0]!;
    assert.ok(
      body.includes(`"instructions":${JSON.stringify(renderPrompt(a))}`),
    );
    assert.ok(body.includes(`"tools":${JSON.stringify(request.tools)}`));
  });

  it("sends the system message first and the tools byte for byte", async () => {
    const a = await assembly();
    const request = toOpenAIChat(a, { model: "gpt-5" });
    const { bodies, fetch } = capture({
      id: "chatcmpl_1",
      object: "chat.completion",
      created: 0,
      model: "gpt-5",
      choices: [{
        index: 0,
        message: { role: "assistant", content: "On it.", refusal: null },
        finish_reason: "stop",
        logprobs: null,
      }],
    });
    const client = new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
    await client.chat.completions.create({
      model: "gpt-5",
      ...request,
      messages: [...request.messages, {
        role: "user",
        content: "List the files.",
      }],
    });
    const sent = JSON.parse(bodies[0]!);
    assert.deepEqual(sent.messages[0], {
      role: "system",
      content: renderPrompt(a),
    });
    assert.ok(bodies[0]!.includes(`"tools":${JSON.stringify(request.tools)}`));
  });
});

describe("toAISDK() through generateText() and @ai-sdk/anthropic", () => {
  it("reaches the wire as toAnthropic() would send it, with no breakpoint dropped", async () => {
    const a = await assembly();
    const request = toAISDK(a, { jsonSchema, model: "claude-sonnet-5" });
    const { bodies, fetch } = capture(ANTHROPIC_REPLY);
    const anthropic = createAnthropic({ apiKey: "test", fetch });
    const result = await generateText({
      model: anthropic("claude-sonnet-5"),
      system: request.system,
      tools: request.tools,
      prompt: "List the files.",
      maxRetries: 0,
    });
    assert.equal(result.text, "On it.");
    assert.deepEqual(result.warnings, []);

    const direct = toAnthropic(a, { model: "claude-sonnet-5" });
    const body = bodies[0]!;
    assert.ok(body.includes(`"system":${JSON.stringify(direct.system)}`));
    assert.ok(body.includes(`"tools":${JSON.stringify(direct.tools)}`));
  });
});

describe("a spread result and the marked last message through the real clients", () => {
  it("Anthropic: sends only request fields, and the last message's breakpoint in the reserved slot", async () => {
    const a = await assembly();
    const request = toAnthropic(a, { model: "claude-sonnet-5" });
    const conversation: Anthropic.MessageParam[] = [
      { role: "user", content: "List the files." },
      { role: "assistant", content: [{ type: "text", text: "Listing." }] },
      { role: "user", content: "And the tests." },
    ];
    const { bodies, fetch } = capture(ANTHROPIC_REPLY);
    const client = new Anthropic({ apiKey: "test", fetch, maxRetries: 0 });
    await client.messages.create({
      model: "claude-sonnet-5",
      max_tokens: 256,
      ...request,
      messages: cacheAnthropicMessages(request, conversation),
    });
    const sent = JSON.parse(bodies[0]!);
    assert.deepEqual(Object.keys(sent).sort(), [
      "max_tokens",
      "messages",
      "model",
      "system",
      "tools",
    ]);
    assert.deepEqual(sent.messages.at(-1), {
      role: "user",
      content: [{
        type: "text",
        text: "And the tests.",
        cache_control: { type: "ephemeral" },
      }],
    });
    assert.deepEqual(sent.messages.slice(0, 2), conversation.slice(0, 2));
    // Four breakpoints in all: the plan's three and the message's.
    assert.equal(bodies[0]!.match(/"cache_control"/g)!.length, 4);
    assert.equal(conversation[2]!.content, "And the tests.");
  });

  it("AI SDK: the last message's cacheControl reaches the wire, no warning", async () => {
    const a = await assembly();
    const request = toAISDK(a, { jsonSchema, model: "claude-sonnet-5" });
    const conversation: ModelMessage[] = [
      { role: "user", content: "List the files." },
    ];
    const { bodies, fetch } = capture(ANTHROPIC_REPLY);
    const anthropic = createAnthropic({ apiKey: "test", fetch });
    const result = await generateText({
      model: anthropic("claude-sonnet-5"),
      ...request,
      messages: cacheAISDKMessages(request, conversation),
      maxRetries: 0,
    });
    assert.deepEqual(result.warnings, []);
    const sent = JSON.parse(bodies[0]!);
    assert.deepEqual(sent.messages.at(-1).content.at(-1).cache_control, {
      type: "ephemeral",
    });
    assert.equal(bodies[0]!.match(/"cache_control"/g)!.length, 4);
  });
});

describe("the tool block through the real clients: the static run's breakpoint and deferred tools", () => {
  /** The coding tools (static, first) and an MCP server's (session), one deferred. */
  async function epochStep() {
    // The built-in tools first, in their order; the rest by name after them.
    const prompt = new SystemPrompt({
      toolOrder: [...TOOLS.map((tool) => tool.name), TOOL_ORDER_REST],
    });
    prompt.section({
      name: "persona",
      order: 0,
      text: "Read before you edit, verify each step. ".repeat(60),
    });
    prompt.scope("tools").tools(() => TOOLS);
    prompt.scope("mcp:docs").tools(() => [
      {
        name: "docs_search",
        description: "Searches the docs. ".repeat(20),
        parameters: { type: "object", properties: { q: { type: "string" } } },
      },
      {
        name: "docs_archive",
        description: "Reads the archive.",
        parameters: { type: "object", properties: { id: { type: "string" } } },
        deferLoading: true,
      },
    ], { stability: "session" });
    return await prompt.render();
  }

  it("Anthropic: defer_loading on the deferred tool, cache_control on the last static tool and on the last tool in the prompt", async () => {
    const step = await epochStep();
    const request = toAnthropic(step, { model: "claude-sonnet-5" });
    const { bodies, fetch } = capture(ANTHROPIC_REPLY);
    const client = new Anthropic({ apiKey: "test", fetch, maxRetries: 0 });
    await client.messages.create({
      model: "claude-sonnet-5",
      max_tokens: 256,
      ...request,
      messages: [{ role: "user", content: "Search the docs." }],
    });
    const body = bodies[0]!;
    assert.ok(body.includes(`"tools":${JSON.stringify(request.tools)}`));
    const sent = JSON.parse(body);
    const marked = sent.tools.flatMap((t: { name: string }, i: number) =>
      "cache_control" in t ? [[i, t.name]] : []
    );
    const last = TOOLS.length - 1;
    assert.deepEqual(marked, [[last, TOOLS[last]!.name], [
      TOOLS.length + 1,
      "docs_search",
    ]]);
    assert.deepEqual(
      sent.tools.filter((t: object) => "defer_loading" in t),
      [{
        name: "docs_archive",
        description: "Reads the archive.",
        input_schema: {
          type: "object",
          properties: { id: { type: "string" } },
        },
        defer_loading: true,
      }],
    );
  });

  it("OpenAI Responses: defer_loading on the function tool; Chat Completions: the tool in full", async () => {
    const step = await epochStep();
    const responses = toOpenAIResponses(step, { model: "gpt-5" });
    const { bodies, fetch } = capture({
      id: "resp_1",
      object: "response",
      created_at: 0,
      status: "completed",
      model: "gpt-5",
      output: [],
    });
    const client = new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
    await client.responses.create({
      model: "gpt-5",
      ...responses,
      input: "Search the docs.",
    });
    const sent = JSON.parse(bodies[0]!);
    assert.deepEqual(
      sent.tools.filter((t: object) => "defer_loading" in t).map((
        t: { name: string; defer_loading: boolean },
      ) => [t.name, t.defer_loading]),
      [["docs_archive", true]],
    );
    const chat = toOpenAIChat(step, { model: "gpt-5" });
    assert.ok(!JSON.stringify(chat).includes("defer"));
    assert.equal(chat.tools?.at(-2)?.function.name, "docs_archive");
  });

  it("AI SDK: deferLoading and cacheControl in providerOptions reach the wire as toAnthropic() sends them, no warning", async () => {
    const step = await epochStep();
    const request = toAISDK(step, { jsonSchema, model: "claude-sonnet-5" });
    const { bodies, fetch } = capture(ANTHROPIC_REPLY);
    const anthropic = createAnthropic({ apiKey: "test", fetch });
    const result = await generateText({
      model: anthropic("claude-sonnet-5"),
      ...request,
      prompt: "Search the docs.",
      maxRetries: 0,
    });
    assert.deepEqual(result.warnings, []);
    const direct = toAnthropic(step, { model: "claude-sonnet-5" });
    assert.ok(bodies[0]!.includes(`"tools":${JSON.stringify(direct.tools)}`));
  });
});
