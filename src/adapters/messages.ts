/**
 * The host's own message breakpoint: the conversation's last message marked
 * for caching in the slot the plan reserved (`cache.reserve`), for the
 * providers whose breakpoints are explicit.
 *
 * @module
 */

import { failure } from "../core/_messages.ts";
import { reservedBy } from "./_plan.ts";
import type { CachePlan } from "./plan.ts";

/**
 * Options of the message helpers.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { CacheMessagesOptions } from "@dsh/system-prompt/adapters";
 *
 * const options: CacheMessagesOptions = { ttl: "5m" };
 * assert.equal(options.ttl, "5m");
 * ```
 */
export interface CacheMessagesOptions {
  /**
   * The message breakpoint's TTL: never longer than the plan's, since a
   * longer TTL must come before a shorter one.
   * @default {"5m"}
   */
  ttl?: "5m" | "1h";
}

/** A request as the helpers read it: its plan. */
type Planned = { readonly plan: CachePlan };

/** The TTL of the message breakpoint, or `undefined` when there is no slot. */
function slot(
  request: Planned,
  options: CacheMessagesOptions,
  used: number,
): { ttl?: "1h" } | undefined {
  const { ttl = "5m" } = options;
  if (ttl !== "5m" && ttl !== "1h") {
    throw failure({
      code: "invalid-option",
      action: "mark the last message for caching",
      problem: `ttl must be "5m" or "1h", got ${
        JSON.stringify(ttl) ?? typeof ttl
      }`,
    });
  }
  const plan = request?.plan;
  const reserved = typeof plan === "object" && plan !== null
    ? reservedBy(plan)
    : undefined;
  if (reserved === undefined) {
    throw failure({
      code: "invalid-option",
      action: "mark the last message for caching",
      problem:
        "the request has no plan of this package; pass an adapter's result",
    });
  }
  const planned = plan!.choices.some((choice) => choice.chosen);
  if (ttl === "1h" && reserved.ttl === "5m" && planned) {
    throw failure({
      code: "invalid-option",
      action: "mark the last message for caching",
      problem:
        'its ttl "1h" is longer than the plan\'s "5m", and a longer TTL must come first',
    });
  }
  if (used >= reserved.slots) return undefined;
  return ttl === "1h" ? { ttl } : {};
}

/**
 * An Anthropic Messages message, structurally (`MessageParam`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AnthropicMessage } from "@dsh/system-prompt/adapters";
 *
 * const message: AnthropicMessage = { role: "user", content: "List the files." };
 * assert.equal(message.role, "user");
 * ```
 */
export interface AnthropicMessage {
  /** `"user"` or `"assistant"`. */
  role: string;
  /** A text, or content blocks. */
  content: string | readonly { type: string; cache_control?: unknown }[];
}

/** Blocks that cannot carry a breakpoint themselves. */
/**
 * The conversation, copied, its last message replaced by `marked` of it
 * when the plan left a slot that `marks` (the marks each message holds
 * already) have not used up; the conversation as it was otherwise.
 */
function markLast<M>(
  request: Planned,
  messages: readonly M[],
  how: {
    options: CacheMessagesOptions;
    marks: (message: M) => number;
    marked: (last: M, mark: { ttl?: "1h" }) => M | undefined;
  },
): M[] {
  let used = 0;
  for (const message of messages) used += how.marks(message);
  const mark = slot(request, how.options, used);
  const out = messages.slice();
  const last = out.at(-1);
  if (mark === undefined || last === undefined) return out;
  const next = how.marked(last, mark);
  if (next !== undefined) out[out.length - 1] = next;
  return out;
}

const UNMARKABLE: ReadonlySet<string> = new Set([
  "thinking",
  "redacted_thinking",
]);

/**
 * The conversation with its last message marked for Anthropic's cache:
 * `cache_control` on its last content block (a text content becomes one
 * text block), in the slot the plan reserved, so every later step reads the
 * conversation so far from cache. Returns a new array and a new last
 * message; the caller's are never changed. Marks nothing when the plan
 * reserved no slot (`cache: false`, `reserve: 0`), when the messages
 * already hold as many breakpoints as it reserved, or when the last
 * message has no block that can carry one. Mark the conversation, then
 * append `contextMessage`: the context changes, the conversation does not.
 *
 * @typeParam M The SDK's message type.
 * @param request What {@linkcode toAnthropic} returned.
 * @param messages The conversation.
 * @param options The breakpoint's TTL.
 * @returns The messages, the last one marked.
 * @throws {PromptError} `invalid-option` for a TTL longer than the plan's,
 * or a request without a plan.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { cacheAnthropicMessages, toAnthropic } from "@dsh/system-prompt/adapters";
 *
 * const request = toAnthropic({ sections: [], tools: [], variables: {} });
 * const conversation = [{ role: "user" as const, content: "List the files." }];
 * const messages = cacheAnthropicMessages(request, conversation);
 * assert.deepEqual(messages, [{
 *   role: "user",
 *   content: [{ type: "text", text: "List the files.", cache_control: { type: "ephemeral" } }],
 * }]);
 * assert.equal(conversation[0]!.content, "List the files.");
 * ```
 */
export function cacheAnthropicMessages<M extends AnthropicMessage>(
  request: { readonly plan: CachePlan },
  messages: readonly M[],
  options: CacheMessagesOptions = {},
): M[] {
  const marks = (message: M) =>
    typeof message.content === "string"
      ? 0
      : message.content.filter((block) => block?.cache_control != null).length;
  const marked = (last: M, mark: { ttl?: "1h" }): M | undefined => {
    const cache_control = { type: "ephemeral", ...mark };
    const content = typeof last.content === "string"
      ? [{ type: "text", text: last.content }]
      : last.content.slice();
    let at = content.length - 1;
    while (at >= 0 && UNMARKABLE.has(content[at]!.type)) at--;
    if (at < 0) return undefined;
    content[at] = { ...content[at]!, cache_control };
    return { ...last, content };
  };
  return markLast(request, messages, { options, marks, marked });
}

/**
 * A Bedrock Converse message, structurally (`Message`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { BedrockMessage } from "@dsh/system-prompt/adapters";
 *
 * const message: BedrockMessage = { role: "user", content: [{ text: "List the files." }] };
 * assert.equal(message.content?.length, 1);
 * ```
 */
export interface BedrockMessage {
  /** `"user"` or `"assistant"`. */
  role?: string | undefined;
  /** Content blocks. */
  content?: readonly object[] | undefined;
}

/**
 * The conversation with a `cachePoint` block appended to its last message,
 * in the slot the plan of {@linkcode toBedrock} reserved. Returns a new
 * array and a new last message. Marks nothing when the plan reserved no
 * slot, when the messages already hold as many checkpoints as it reserved,
 * or when the last message has no content. Converse wants turns to
 * alternate: add `contextMessage.content` to the last user message after
 * the checkpoint.
 *
 * @typeParam M The SDK's message type.
 * @param request What {@linkcode toBedrock} returned.
 * @param messages The conversation.
 * @param options The checkpoint's TTL.
 * @returns The messages, the last one with a checkpoint.
 * @throws {PromptError} `invalid-option` for a TTL longer than the plan's,
 * or a request without a plan.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { cacheBedrockMessages, toBedrock } from "@dsh/system-prompt/adapters";
 *
 * const request = toBedrock({ sections: [], tools: [], variables: {} });
 * const messages = cacheBedrockMessages(request, [
 *   { role: "user", content: [{ text: "List the files." }] },
 * ]);
 * assert.deepEqual(messages[0]!.content, [
 *   { text: "List the files." },
 *   { cachePoint: { type: "default" } },
 * ]);
 * ```
 */
export function cacheBedrockMessages<M extends BedrockMessage>(
  request: { readonly plan: CachePlan },
  messages: readonly M[],
  options: CacheMessagesOptions = {},
): M[] {
  const marks = (message: M) =>
    (message.content ?? []).filter((block) =>
      block !== null && "cachePoint" in block
    ).length;
  const marked = (last: M, mark: { ttl?: "1h" }): M | undefined => {
    if (!last.content?.length) return undefined;
    const cachePoint = { type: "default", ...mark };
    return { ...last, content: [...last.content, { cachePoint }] };
  };
  return markLast(request, messages, { options, marks, marked });
}

/**
 * An AI SDK message, structurally (`ModelMessage`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AISDKMessage } from "@dsh/system-prompt/adapters";
 *
 * const message: AISDKMessage = { role: "user" };
 * assert.equal(message.role, "user");
 * ```
 */
export interface AISDKMessage {
  /** The message's role. */
  role: string;
  /** Options per provider. */
  providerOptions?: Record<string, Record<string, unknown> | undefined>;
}

/**
 * The conversation with its last message marked for caching in the slot
 * the plan of {@linkcode toAISDK} reserved: `providerOptions.anthropic.
 * cacheControl` with the Anthropic profile, `providerOptions.bedrock.
 * cachePoint` with the Bedrock one, nothing for a provider that caches by
 * itself. Returns a new array and a new last message, the message's other
 * provider options kept.
 *
 * @typeParam M The SDK's message type.
 * @param request What {@linkcode toAISDK} returned.
 * @param messages The conversation.
 * @param options The breakpoint's TTL.
 * @returns The messages, the last one marked.
 * @throws {PromptError} `invalid-option` for a TTL longer than the plan's,
 * or a request without a plan.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonSchema, type ModelMessage } from "ai";
 * import { cacheAISDKMessages, toAISDK } from "@dsh/system-prompt/adapters";
 *
 * const request = toAISDK({ sections: [], tools: [], variables: {} }, { jsonSchema });
 * const conversation: ModelMessage[] = [{ role: "user", content: "List the files." }];
 * const [message] = cacheAISDKMessages(request, conversation);
 * assert.deepEqual(message!.providerOptions, { anthropic: { cacheControl: { type: "ephemeral" } } });
 * ```
 */
export function cacheAISDKMessages<M extends AISDKMessage>(
  request: { readonly plan: CachePlan },
  messages: readonly M[],
  options: CacheMessagesOptions = {},
): M[] {
  const provider = request?.plan?.provider;
  const [key, field, type] = provider === "bedrock"
    ? ["bedrock", "cachePoint", "default"]
    : ["anthropic", "cacheControl", "ephemeral"];
  const marks = (message: M) =>
    message.providerOptions?.[key]?.[field] != null ? 1 : 0;
  // A provider that caches by itself takes no mark.
  const explicit = provider === "anthropic" || provider === "bedrock";
  const marked = (last: M, mark: { ttl?: "1h" }): M | undefined => {
    if (!explicit) return undefined;
    const own = last.providerOptions ?? {};
    const providerOptions = {
      ...own,
      [key]: { ...own[key], [field]: { type, ...mark } },
    };
    return { ...last, providerOptions };
  };
  return markLast(request, messages, { options, marks, marked });
}
