/**
 * `readUsage`: what a provider's response says it read from cache, wrote to
 * it and did not cache, from the usage object exactly as its SDK returns it.
 *
 * @module
 */

import { PromptError } from "../../mod.ts";
import { describeValue } from "../core/_describe.ts";
import { failure } from "../core/_messages.ts";

/**
 * Anthropic Messages `usage` (`message.usage`). Cache fields are nullable
 * in the SDK; `null` and absent count as 0.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AnthropicUsage } from "@dsh/system-prompt/adapters";
 *
 * const usage: AnthropicUsage = { input_tokens: 12, cache_read_input_tokens: 2048 };
 * assert.equal(usage.input_tokens, 12);
 * ```
 */
export interface AnthropicUsage {
  /** Input tokens after the last cache breakpoint (not read, not written). */
  input_tokens: number;
  /** Tokens written to the cache. */
  cache_creation_input_tokens?: number | null;
  /** Tokens read from the cache. */
  cache_read_input_tokens?: number | null;
  /** The written tokens by TTL. */
  cache_creation?: {
    ephemeral_5m_input_tokens?: number;
    ephemeral_1h_input_tokens?: number;
  } | null;
}

/**
 * OpenAI Responses `usage` (`response.usage`): `input_tokens` includes the
 * cached ones.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { OpenAIResponsesUsage } from "@dsh/system-prompt/adapters";
 *
 * const usage: OpenAIResponsesUsage = { input_tokens: 2100, input_tokens_details: { cached_tokens: 2048 } };
 * assert.equal(usage.input_tokens_details.cached_tokens, 2048);
 * ```
 */
export interface OpenAIResponsesUsage {
  /** All input tokens, cached included. */
  input_tokens: number;
  /** The cached share, and the tokens written to the cache where reported. */
  input_tokens_details: { cached_tokens: number; cache_write_tokens?: number };
}

/**
 * OpenAI Chat Completions `usage` (`completion.usage`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { OpenAIChatUsage } from "@dsh/system-prompt/adapters";
 *
 * const usage: OpenAIChatUsage = { prompt_tokens: 2100, prompt_tokens_details: { cached_tokens: 1024 } };
 * assert.equal(usage.prompt_tokens, 2100);
 * ```
 */
export interface OpenAIChatUsage {
  /** All prompt tokens, cached included. */
  prompt_tokens: number;
  /** The cached share. */
  prompt_tokens_details?: {
    cached_tokens?: number;
    cache_write_tokens?: number;
  };
}

/**
 * Bedrock Converse `usage` (`TokenUsage`): `inputTokens` excludes the
 * tokens read from or written to the cache.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { BedrockUsage } from "@dsh/system-prompt/adapters";
 *
 * const usage: BedrockUsage = { inputTokens: 40, cacheReadInputTokens: 1500 };
 * assert.equal(usage.cacheReadInputTokens, 1500);
 * ```
 */
export interface BedrockUsage {
  /** Input tokens neither read from nor written to the cache. */
  inputTokens: number | undefined;
  /** Tokens read from the cache. */
  cacheReadInputTokens?: number | undefined;
  /** Tokens written to the cache. */
  cacheWriteInputTokens?: number | undefined;
  /** The written tokens by TTL. */
  cacheDetails?:
    | { ttl: string | undefined; inputTokens: number | undefined }[]
    | undefined;
}

/**
 * Gemini `usageMetadata`: `promptTokenCount` includes the cached tokens.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { GeminiUsage } from "@dsh/system-prompt/adapters";
 *
 * const usage: GeminiUsage = { promptTokenCount: 5000, cachedContentTokenCount: 4096 };
 * assert.equal(usage.cachedContentTokenCount, 4096);
 * ```
 */
export interface GeminiUsage {
  /** All prompt tokens, cached included. */
  promptTokenCount?: number;
  /** The cached share. */
  cachedContentTokenCount?: number;
}

/**
 * The AI SDK's `usage` (v6 `LanguageModelUsage`; v5's `cachedInputTokens`
 * too): `inputTokens` includes the cached ones.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AISDKUsage } from "@dsh/system-prompt/adapters";
 *
 * const usage: AISDKUsage = {
 *   inputTokens: 3000,
 *   inputTokenDetails: { noCacheTokens: 100, cacheReadTokens: 2900, cacheWriteTokens: 0 },
 * };
 * assert.equal(usage.inputTokenDetails?.cacheReadTokens, 2900);
 * ```
 */
export interface AISDKUsage {
  /** All input tokens, cached included. */
  inputTokens: number | undefined;
  /** v6: the split by cache. */
  inputTokenDetails?: {
    noCacheTokens?: number | undefined;
    cacheReadTokens?: number | undefined;
    cacheWriteTokens?: number | undefined;
  };
  /** v5 (deprecated in v6): tokens read from the cache. */
  cachedInputTokens?: number | undefined;
}

/**
 * Any usage object {@linkcode readUsage} reads.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ProviderUsage } from "@dsh/system-prompt/adapters";
 *
 * const usage: ProviderUsage = { promptTokenCount: 10 };
 * assert.ok("promptTokenCount" in usage);
 * ```
 */
export type ProviderUsage =
  | AnthropicUsage
  | OpenAIResponsesUsage
  | OpenAIChatUsage
  | BedrockUsage
  | GeminiUsage
  | AISDKUsage;

/**
 * The usage shapes by the API that returns them.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { UsageShape } from "@dsh/system-prompt/adapters";
 *
 * const shape: UsageShape = "openai-chat";
 * assert.equal(shape, "openai-chat");
 * ```
 */
export type UsageShape =
  | "anthropic"
  | "openai-responses"
  | "openai-chat"
  | "bedrock"
  | "gemini"
  | "ai-sdk";

/**
 * A response's input tokens by what the cache did with them.
 * `input = read + written + uncached`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type CacheUsage, readUsage } from "@dsh/system-prompt/adapters";
 *
 * const usage: CacheUsage = readUsage({ input_tokens: 10, cache_read_input_tokens: 90 });
 * assert.deepEqual(usage, { shape: "anthropic", input: 100, read: 90, written: 0, uncached: 10, written1h: 0 });
 * ```
 */
export interface CacheUsage {
  /** The shape it was read as. */
  shape: UsageShape;
  /** All input tokens. */
  input: number;
  /** Read from the cache. */
  read: number;
  /** Written to the cache. */
  written: number;
  /** Neither. */
  uncached: number;
  /** Of `written`, those written with a 1-hour TTL. */
  written1h: number;
}

/**
 * The AI SDK's `providerMetadata`, read where its usage leaves the cache
 * counts out (`anthropic.cacheCreationInputTokens`, `bedrock.usage.…`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AISDKProviderMetadata } from "@dsh/system-prompt/adapters";
 *
 * const metadata: AISDKProviderMetadata = { anthropic: { cacheCreationInputTokens: 2048 } };
 * assert.ok(metadata.anthropic);
 * ```
 */
export type AISDKProviderMetadata = Record<string, Record<string, unknown>>;

const has = (usage: object, key: string) => key in usage;

/** The shape of a usage object by its fields, or undefined. */
function usageShape(usage: object): UsageShape | undefined {
  if (has(usage, "inputTokenDetails") || has(usage, "cachedInputTokens")) {
    return "ai-sdk";
  }
  if (has(usage, "input_tokens_details")) return "openai-responses";
  if (has(usage, "prompt_tokens")) return "openai-chat";
  if (has(usage, "input_tokens")) return "anthropic";
  if (has(usage, "promptTokenCount") || has(usage, "cachedContentTokenCount")) {
    return "gemini";
  }
  if (has(usage, "inputTokens")) return "bedrock";
  return undefined;
}

/**
 * Reads a provider's usage object (exactly as its SDK returns it) into
 * {@linkcode CacheUsage}: the shape is told by its fields, or given
 * (`"bedrock"` and the AI SDK share `inputTokens`). Cache counts that the
 * SDK types as optional or nullable and that are absent count as 0; a
 * count that is there must be a non-negative integer.
 *
 * @param usage The usage object.
 * @param shape The shape, when the caller knows it.
 * @param metadata The AI SDK's `providerMetadata`, for the AI SDK shape.
 * @returns The tokens by what the cache did.
 * @throws {PromptError} `invalid-value` for an object of no known shape, of
 * another shape than `shape`, or with a count that is missing (the total),
 * negative, fractional, `NaN` or not a number, or read plus written over
 * the total.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { readUsage } from "@dsh/system-prompt/adapters";
 *
 * const chat = readUsage({ prompt_tokens: 2000, prompt_tokens_details: { cached_tokens: 1920 } });
 * assert.deepEqual([chat.shape, chat.read, chat.uncached], ["openai-chat", 1920, 80]);
 * assert.throws(() => readUsage({ tokens: 3 } as never), { code: "invalid-value" });
 * ```
 */
export function readUsage(
  usage: ProviderUsage,
  shape?: UsageShape,
  metadata?: AISDKProviderMetadata,
): CacheUsage {
  try {
    return read(usage, shape, metadata);
  } catch (error) {
    if (error instanceof PromptError) throw error;
    // A throwing getter or Proxy trap: the usage cannot be read.
    throw failure({
      code: "invalid-value",
      action: "read the usage",
      problem: "reading a field threw",
      cause: error,
    });
  }
}

function read(
  usage: ProviderUsage,
  shape: UsageShape | undefined,
  metadata: AISDKProviderMetadata | undefined,
): CacheUsage {
  if (typeof usage !== "object" || usage === null) {
    throw fail(
      `usage must be an object, got ${describeValue(usage)}`,
    );
  }
  const found = usageShape(usage);
  const own = found === "bedrock" && shape === "ai-sdk" ? shape : found;
  if (own === undefined) {
    throw fail(
      "usage has no field of a known provider's usage (input_tokens, " +
        "prompt_tokens, inputTokens, promptTokenCount)",
    );
  }
  if (shape !== undefined && own !== shape) {
    throw fail(`usage is ${own}'s shape, but the request is for ${shape}`);
  }
  const u = usage as Record<string, unknown>;
  const sub = (key: string) => {
    const value = u[key];
    if (value === undefined || value === null) return {};
    if (typeof value !== "object") throw fail(`usage.${key} must be an object`);
    return value as Record<string, unknown>;
  };
  switch (own) {
    case "anthropic": {
      const creation = sub("cache_creation");
      return split(own, {
        uncached: count(u, "input_tokens", true),
        read: count(u, "cache_read_input_tokens"),
        written: count(u, "cache_creation_input_tokens"),
        written1h: count(
          creation,
          "ephemeral_1h_input_tokens",
          false,
          "usage.cache_creation",
        ),
      });
    }
    case "bedrock": {
      const details = Array.isArray(u.cacheDetails) ? u.cacheDetails : [];
      const hour = details
        .filter((d) => (d as { ttl?: unknown } | null)?.ttl === "1h")
        .reduce(
          (sum: number, d, i) =>
            sum + count(d, "inputTokens", false, `usage.cacheDetails[${i}]`),
          0,
        );
      return split(own, {
        uncached: count(u, "inputTokens", true),
        read: count(u, "cacheReadInputTokens"),
        written: count(u, "cacheWriteInputTokens"),
        written1h: hour,
      });
    }
    case "openai-responses": {
      const details = sub("input_tokens_details");
      const at = "usage.input_tokens_details";
      return total(own, count(u, "input_tokens", true), {
        read: count(details, "cached_tokens", true, at),
        written: count(details, "cache_write_tokens", false, at),
      });
    }
    case "openai-chat": {
      const details = sub("prompt_tokens_details");
      const at = "usage.prompt_tokens_details";
      return total(own, count(u, "prompt_tokens", true), {
        read: count(details, "cached_tokens", false, at),
        written: count(details, "cache_write_tokens", false, at),
      });
    }
    case "gemini":
      return total(own, count(u, "promptTokenCount", true), {
        read: count(u, "cachedContentTokenCount"),
        written: 0,
      });
    case "ai-sdk": {
      const details = sub("inputTokenDetails");
      const at = "usage.inputTokenDetails";
      const meta = aiSDKMetadata(metadata);
      const read = first(
        [details, "cacheReadTokens", at],
        [u, "cachedInputTokens", "usage"],
        [meta.anthropic, "cacheReadInputTokens", "providerMetadata.anthropic"],
        [
          meta.bedrock,
          "cacheReadInputTokens",
          "providerMetadata.bedrock.usage",
        ],
      );
      const written = first(
        [details, "cacheWriteTokens", at],
        [
          meta.anthropic,
          "cacheCreationInputTokens",
          "providerMetadata.anthropic",
        ],
        [
          meta.bedrock,
          "cacheWriteInputTokens",
          "providerMetadata.bedrock.usage",
        ],
      );
      return total(own, count(u, "inputTokens", true), { read, written });
    }
  }
}

function aiSDKMetadata(
  metadata: AISDKProviderMetadata | undefined,
): { anthropic: object; bedrock: object } {
  if (metadata === undefined) return { anthropic: {}, bedrock: {} };
  if (typeof metadata !== "object" || metadata === null) {
    throw fail("providerMetadata must be an object");
  }
  const anthropic = metadata.anthropic ?? {};
  const bedrock = (metadata.bedrock as { usage?: object } | undefined)?.usage ??
    {};
  return { anthropic, bedrock };
}

/** The first of several places that holds a count. */
function first(...places: [object, string, string][]): number {
  for (const [object, key, at] of places) {
    const value = (object as Record<string, unknown>)[key];
    if (value !== undefined && value !== null) {
      return count(object, key, true, at);
    }
  }
  return 0;
}

function count(
  object: unknown,
  key: string,
  required = false,
  at = "usage",
): number {
  const value = (object as Record<string, unknown> | null)?.[key];
  if ((value === undefined || value === null) && !required) return 0;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    const got = typeof value === "number"
      ? String(value)
      : value === undefined
      ? "nothing"
      : typeof value;
    throw fail(`${at}.${key} must be a non-negative integer, got ${got}`);
  }
  return value;
}

/** A usage whose total excludes the cache counts (Anthropic, Bedrock). */
function split(
  shape: UsageShape,
  { uncached, read, written, written1h }: Omit<CacheUsage, "shape" | "input">,
): CacheUsage {
  if (written1h > written) {
    throw fail(
      `the 1-hour writes (${written1h}) exceed all writes (${written})`,
    );
  }
  return {
    shape,
    input: uncached + read + written,
    read,
    written,
    uncached,
    written1h,
  };
}

/** A usage whose total includes the cache counts (OpenAI, Gemini, AI SDK). */
function total(
  shape: UsageShape,
  input: number,
  { read, written }: { read: number; written: number },
): CacheUsage {
  if (read + written > input) {
    throw fail(
      `the cached (${read}) and written (${written}) tokens exceed the input (${input})`,
    );
  }
  return {
    shape,
    input,
    read,
    written,
    uncached: input - read - written,
    written1h: 0,
  };
}

const fail = (state: string) =>
  failure({ code: "invalid-value", action: "read the usage", problem: state });
