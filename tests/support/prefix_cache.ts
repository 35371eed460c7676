/**
 * A small simulated prompt cache for requests with explicit breakpoints
 * (Anthropic Messages, Bedrock Converse), by the rules their profiles
 * document: a request writes an entry at each breakpoint whose prefix
 * reaches the minimum; it reads the longest entry found at a block
 * boundary within `lookback` blocks before one of its breakpoints, if that
 * entry has not expired (a read refreshes it). Tools come first, then the
 * system blocks; a deferred tool (`defer_loading`) is not in the prefix.
 *
 * @module
 */

import { estimateTokens } from "@dsh/system-prompt/inspect";
import type {
  AnthropicRequest,
  BedrockRequest,
} from "@dsh/system-prompt/adapters";

/** One block of the prefix: its bytes, its tokens, whether a breakpoint follows it. */
export interface Piece {
  bytes: string;
  tokens: number;
  mark: boolean;
}

/** What one request read and wrote. */
export interface Sent {
  /** Tokens of the tools and system prefix. */
  total: number;
  /** Tokens read from cache. */
  read: number;
  /** Tokens of the longest entry written. */
  written: number;
}

/** The prefix of an Anthropic request, block by block. */
export function anthropicPieces(request: AnthropicRequest): Piece[] {
  const pieces: Piece[] = [];
  for (const tool of request.tools) {
    if (tool.defer_loading === true) continue;
    const { cache_control, ...rest } = tool;
    const bytes = JSON.stringify(rest);
    pieces.push({
      bytes,
      tokens: estimateTokens(bytes),
      mark: !!cache_control,
    });
  }
  for (const block of request.system) {
    pieces.push({
      bytes: block.text,
      tokens: estimateTokens(block.text),
      mark: block.cache_control !== undefined,
    });
  }
  return pieces;
}

/** The prefix of a Bedrock Converse request, block by block. */
export function bedrockPieces(request: BedrockRequest): Piece[] {
  const pieces: Piece[] = [];
  const add = (entry: object) => {
    if ("cachePoint" in entry) {
      pieces.at(-1)!.mark = true;
      return;
    }
    const bytes = JSON.stringify(entry);
    pieces.push({ bytes, tokens: estimateTokens(bytes), mark: false });
  };
  for (const tool of request.toolConfig?.tools ?? []) add(tool);
  for (const block of request.system) add(block);
  return pieces;
}

/** A provider's cache: entries by prefix bytes, with their expiry. */
export class PrefixCache {
  readonly #entries = new Map<string, number>();

  constructor(
    readonly options: { minTokens: number; ttlMs?: number; lookback?: number },
  ) {}

  /** Sends a request's prefix at `now` (milliseconds). */
  send(pieces: Piece[], now: number): Sent {
    const { minTokens, ttlMs = 5 * 60_000, lookback = 20 } = this.options;
    const keys: string[] = [];
    const tokens: number[] = [];
    let key = "";
    let sum = 0;
    for (const piece of pieces) {
      key += `${piece.bytes.length}:${piece.bytes}`;
      sum += piece.tokens;
      keys.push(key);
      tokens.push(sum);
    }
    let read = 0;
    let hit: string | undefined;
    pieces.forEach((piece, i) => {
      if (!piece.mark) return;
      for (let j = i; j >= 0 && j > i - lookback; j--) {
        const expires = this.#entries.get(keys[j]!);
        if (expires !== undefined && expires > now && tokens[j]! > read) {
          read = tokens[j]!;
          hit = keys[j]!;
        }
      }
    });
    if (hit !== undefined) this.#entries.set(hit, now + ttlMs);
    let written = 0;
    pieces.forEach((piece, i) => {
      if (!piece.mark || tokens[i]! < minTokens) return;
      this.#entries.set(keys[i]!, now + ttlMs);
      written = Math.max(written, tokens[i]!);
    });
    return { total: sum, read, written };
  }
}
