/**
 * Provider profiles: each provider's documented prompt-cache rules, as data.
 * Each row of a table is one line, so that a provider's change is a
 * one-line update; each profile names the page it was read from and when.
 *
 * @module
 */

/** A part of a provider request, in the order the provider caches it. */
export type RequestPart = "tools" | "system" | "messages";

/** The minimum cacheable length of the models whose id contains `model`. */
export interface ModelMinimum {
  /** A substring of the model id; the longest that matches wins. */
  model: string;
  /** Tokens below which nothing is cached. */
  minTokens: number;
}

/**
 * A provider's prompt-cache rules. Pass your own (`{ ...ANTHROPIC, … }`)
 * when the provider's page changed before this package did.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { ANTHROPIC, type ProviderProfile } from "@dsh/system-prompt/adapters";
 *
 * const mine: ProviderProfile = {
 *   ...ANTHROPIC,
 *   models: [{ model: "claude-next", minTokens: 256 }, ...ANTHROPIC.models],
 * };
 * assert.equal(mine.breakpoints, 4);
 * ```
 */
export interface ProviderProfile {
  /** `"anthropic"`, `"bedrock"`, `"openai"`, `"gemini"`. */
  provider: string;
  /** The page the rules were read from. */
  source: string;
  /** When they were read, `YYYY-MM-DD`. */
  checked: string;
  /**
   * Explicit breakpoints allowed per request, shared by tools, system and
   * messages; `0` for a provider that caches by itself.
   */
  breakpoints: number;
  /**
   * `"prefix"`: a breakpoint caches when the whole prefix up to it reaches
   * the minimum. `"increment"`: when the tokens since the previous
   * breakpoint do (Bedrock's per-checkpoint wording).
   */
  minimum: "prefix" | "increment";
  /** Minimum cacheable tokens per model family. */
  models: readonly ModelMinimum[];
  /** How many blocks before a breakpoint the provider checks for a hit. */
  lookback: number;
  /** TTLs a breakpoint may ask for, longest first: longer must come first. */
  ttls: readonly ("1h" | "5m")[];
  /** Cache hits come in multiples of this many tokens (`1` when exact). */
  granularity: number;
  /** The order in which the request's parts form the cached prefix. */
  order: readonly RequestPart[];
  /**
   * Whether the provider's API takes deferred tools (`defer_loading`: out
   * of the prompt until the model's tool search loads them); where it does
   * not, a tool with `deferLoading` is sent in full. OpenAI's Responses API
   * takes them, its Chat Completions API does not. `planCache` reads it;
   * each adapter follows its own API's rule instead.
   * @default {false}
   */
  deferLoading?: boolean;
}

/** Anthropic Messages API. */
export const ANTHROPIC: ProviderProfile = {
  provider: "anthropic",
  source:
    "https://platform.claude.com/docs/en/build-with-claude/prompt-caching",
  checked: "2026-12-01",
  breakpoints: 4,
  minimum: "prefix",
  models: [
    { model: "claude-opus-5", minTokens: 512 },
    { model: "claude-fable-5", minTokens: 512 },
    { model: "claude-mythos-5", minTokens: 512 },
    { model: "claude-mythos-preview", minTokens: 2048 },
    { model: "claude-opus-4-8", minTokens: 1024 },
    { model: "claude-opus-4-7", minTokens: 2048 },
    { model: "claude-opus-4-6", minTokens: 4096 },
    { model: "claude-opus-4-5", minTokens: 4096 },
    { model: "claude-opus-4-1", minTokens: 1024 },
    { model: "claude-opus-4", minTokens: 1024 },
    { model: "claude-sonnet-5", minTokens: 1024 },
    { model: "claude-sonnet-4-6", minTokens: 1024 },
    { model: "claude-sonnet-4-5", minTokens: 1024 },
    { model: "claude-sonnet-4", minTokens: 1024 },
    { model: "claude-haiku-4-5", minTokens: 4096 },
    { model: "claude-3-5-haiku", minTokens: 2048 },
  ],
  lookback: 20,
  ttls: ["1h", "5m"],
  granularity: 1,
  order: ["tools", "system", "messages"],
  deferLoading: true,
};

/** Amazon Bedrock Converse API (`cachePoint`), Claude models. */
export const BEDROCK: ProviderProfile = {
  provider: "bedrock",
  source:
    "https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html",
  checked: "2026-12-01",
  breakpoints: 4,
  minimum: "increment",
  models: [
    { model: "claude-fable-5", minTokens: 512 },
    { model: "claude-mythos-5", minTokens: 512 },
    { model: "claude-mythos-preview", minTokens: 4096 },
    { model: "claude-opus-5", minTokens: 512 },
    { model: "claude-opus-4-8", minTokens: 1024 },
    { model: "claude-opus-4-7", minTokens: 4096 },
    { model: "claude-opus-4-6", minTokens: 4096 },
    { model: "claude-opus-4-5", minTokens: 4096 },
    { model: "claude-sonnet-5", minTokens: 1024 },
    { model: "claude-sonnet-4-6", minTokens: 1024 },
    { model: "claude-sonnet-4-5", minTokens: 1024 },
    { model: "claude-3-7-sonnet", minTokens: 1024 },
    { model: "claude-3-5-sonnet", minTokens: 1024 },
    { model: "claude-haiku-4-5", minTokens: 4096 },
  ],
  lookback: 20,
  ttls: ["1h", "5m"],
  granularity: 1,
  order: ["tools", "system", "messages"],
  deferLoading: false,
};

/**
 * OpenAI Responses and Chat Completions: automatic caching of prompts of
 * 1,024 tokens or more, hits in 128-token steps; no breakpoints. The order
 * of instructions and tools in the cached prefix is not documented; the
 * profile assumes instructions first, as OpenAI's Harmony format renders
 * them.
 */
export const OPENAI: ProviderProfile = {
  provider: "openai",
  source: "https://developers.openai.com/api/docs/guides/prompt-caching",
  checked: "2026-12-01",
  breakpoints: 0,
  minimum: "prefix",
  models: [
    { model: "gpt-4o", minTokens: 1024 },
    { model: "gpt-4.1", minTokens: 1024 },
    { model: "gpt-5", minTokens: 1024 },
    { model: "o1", minTokens: 1024 },
    { model: "o3", minTokens: 1024 },
    { model: "o4", minTokens: 1024 },
  ],
  lookback: 0,
  ttls: [],
  granularity: 128,
  order: ["system", "tools", "messages"],
  deferLoading: true,
};

/**
 * Gemini API implicit caching (Gemini 2.5 and newer): automatic, best
 * effort, no breakpoints. The order of system instruction and tools in the
 * cached prefix is not documented; the profile assumes the instruction
 * first.
 */
export const GEMINI: ProviderProfile = {
  provider: "gemini",
  source: "https://ai.google.dev/gemini-api/docs/caching",
  checked: "2026-12-01",
  breakpoints: 0,
  minimum: "prefix",
  models: [
    { model: "gemini-2.5-flash", minTokens: 2048 },
    { model: "gemini-2.5-pro", minTokens: 2048 },
    { model: "gemini-3", minTokens: 4096 },
    { model: "gemini-4", minTokens: 4096 },
  ],
  lookback: 0,
  ttls: [],
  granularity: 1,
  order: ["system", "tools", "messages"],
  deferLoading: false,
};
