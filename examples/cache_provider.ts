/**
 * A provider simulated from its documented prompt-cache rules, for the
 * cache-ledger example and tests: it keeps a prefix cache with TTLs, a
 * minimum, a lookback window and evictions on demand, takes the requests
 * the adapters build, and answers usage objects in the provider's shape,
 * with the ground truth of every miss beside them.
 *
 * - Anthropic (explicit breakpoints): the request's content blocks are the
 *   tools, then the system blocks. After a request, the prefix through each
 *   breakpoint that reaches the minimum is cached (written, or refreshed
 *   when read) for the breakpoint's TTL (5 minutes, or 1 hour). A request
 *   reads the longest cached prefix that ends at a block boundary within
 *   `lookback` blocks before one of its breakpoints.
 * - OpenAI Responses (automatic): the longest common prefix (in characters,
 *   instructions then tools) with a request cached within the TTL, when it
 *   reaches 1,024 tokens, in steps of 128 tokens.
 *
 * @module
 */

import type {
  AnthropicRequest,
  OpenAIResponsesRequest,
} from "@dsh/system-prompt/adapters";

/** Why the simulated provider read less than the whole cacheable prefix. */
export type TrueCause =
  | "first-request"
  | "ttl-expired"
  | "prefix-changed"
  | "model-changed"
  | "evicted";

/** A simulated response: the usage in the provider's shape, and the truth. */
export interface Simulated<U> {
  usage: U;
  /** Present when the cacheable prefix was not all read. */
  truth?: TrueCause;
  /** For a prefix change: the index of the first changed block of the request. */
  block?: number;
  /** The cacheable prefix's tokens, by the simulator's count. */
  cacheable: number;
}

interface Entry {
  blocks: string[];
  lastUse: number;
  ttl: number;
  evicted: boolean;
}

const MINUTE = 60_000;

/** The Anthropic Messages API's prompt cache, simulated. */
export class AnthropicCache {
  #entries = new Map<string, Entry>();
  #counts = new Map<string, number>();
  #last = new Map<string, { model: string; blocks: string[] }>();
  constructor(
    readonly count: (text: string) => number,
    readonly minTokens = 1024,
    readonly lookback = 20,
  ) {}

  /** Evicts every live entry for which `pick` says so (all, by default). */
  evict(pick: (key: string) => boolean = () => true): number {
    let n = 0;
    for (const [key, entry] of this.#entries) {
      if (!entry.evicted && pick(key)) [entry.evicted, n] = [true, n + 1];
    }
    return n;
  }

  /** Sends a request; `messages` tokens follow the system prompt, uncached. */
  send(
    request: AnthropicRequest,
    { at, model, agent, messages = 50 }: {
      at: number;
      model: string;
      agent: string;
      messages?: number;
    },
  ): Simulated<{
    input_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
    cache_creation: {
      ephemeral_5m_input_tokens: number;
      ephemeral_1h_input_tokens: number;
    };
  }> {
    const blocks: string[] = [];
    const marks: ("5m" | "1h" | undefined)[] = [];
    for (const { cache_control, ...tool } of request.tools) {
      blocks.push(JSON.stringify(tool));
      marks.push(cache_control && (cache_control.ttl ?? "5m"));
    }
    for (const { text, cache_control } of request.system) {
      blocks.push(text);
      marks.push(cache_control && (cache_control.ttl ?? "5m"));
    }
    const ends: number[] = [];
    let total = 0;
    for (const block of blocks) {
      let n = this.#counts.get(block);
      if (n === undefined) this.#counts.set(block, n = this.count(block));
      ends.push(total += n);
    }
    const keys = blocks.map((_, i) =>
      model + "\u0000" + blocks.slice(0, i + 1).join("\u0001")
    );
    const points = marks.flatMap((
      m,
      i,
    ) => (m && ends[i]! >= this.minTokens ? [i] : []));
    const live = (key: string, evictedToo: boolean) => {
      const entry = this.#entries.get(key);
      return entry !== undefined && at - entry.lastUse <= entry.ttl &&
        (evictedToo || !entry.evicted);
    };
    const longest = (evictedToo: boolean) => {
      let best = -1;
      for (const c of points) {
        for (let j = c; j >= Math.max(0, c - this.lookback + 1); j--) {
          if (j > best && live(keys[j]!, evictedToo)) best = j;
        }
      }
      return best;
    };
    const hit = longest(false);
    const read = hit < 0 ? 0 : ends[hit]!;
    const last = points.at(-1);
    const cacheable = last === undefined ? 0 : ends[last]!;
    const written = Math.max(0, cacheable - read);
    const ttlOf = (i: number) => (marks[i] === "1h" ? 60 * MINUTE : 5 * MINUTE);

    let truth: TrueCause | undefined;
    let block: number | undefined;
    if (read < cacheable) {
      const key = keys[last!]!;
      const other = [...this.#entries.keys()].some((k) =>
        k.endsWith(key.slice(model.length)) && !k.startsWith(model + "\u0000")
      );
      const previous = this.#last.get(agent);
      if (longest(true) > hit) truth = "evicted";
      else if (this.#entries.has(key)) truth = "ttl-expired";
      else if (other) truth = "model-changed";
      else if (previous === undefined) truth = "first-request";
      else if (previous.model !== model) truth = "model-changed";
      else {
        truth = "prefix-changed";
        // The first block that differs from the agent's previous request;
        // where the read went past it, from the cached prefix it shares
        // the most with.
        block = blocks.findIndex((b, i) => previous.blocks[i] !== b);
        if (block < 0) block = blocks.length;
        if (hit >= block) {
          block = -1;
          for (const [k, entry] of this.#entries) {
            if (!k.startsWith(model + "\u0000")) continue;
            if (at - entry.lastUse > entry.ttl) continue;
            let n = 0;
            while (n < entry.blocks.length && entry.blocks[n] === blocks[n]) {
              n++;
            }
            block = Math.max(block, n);
          }
        }
      }
    }
    if (hit >= 0) this.#entries.get(keys[hit]!)!.lastUse = at;
    for (const c of points) {
      this.#entries.set(keys[c]!, {
        blocks: blocks.slice(0, c + 1),
        lastUse: at,
        ttl: ttlOf(c),
        evicted: false,
      });
    }
    this.#last.set(agent, { model, blocks });
    const hour = last !== undefined && marks[last] === "1h" ? written : 0;
    const usage = {
      input_tokens: total - cacheable + messages,
      cache_creation_input_tokens: written,
      cache_read_input_tokens: read,
      cache_creation: {
        ephemeral_5m_input_tokens: written - hour,
        ephemeral_1h_input_tokens: hour,
      },
    };
    return truth === undefined
      ? { usage, cacheable }
      : { usage, cacheable, truth, ...(block === undefined ? {} : { block }) };
  }
}

/** OpenAI's automatic prompt cache, simulated (Responses usage shape). */
export class OpenAICache {
  #entries: {
    model: string;
    text: string;
    lastUse: number;
    evicted: boolean;
  }[] = [];
  constructor(
    readonly count: (text: string) => number,
    readonly ttl = 7 * MINUTE,
  ) {}

  /** Evicts every entry. */
  evict(): void {
    for (const entry of this.#entries) entry.evicted = true;
  }

  /** Sends a request; `messages` tokens follow, uncached. */
  send(
    request: OpenAIResponsesRequest,
    { at, model, messages = 50 }: {
      at: number;
      model: string;
      messages?: number;
    },
  ): Simulated<{
    input_tokens: number;
    input_tokens_details: { cached_tokens: number };
  }> {
    const text = request.instructions +
      request.tools.map((t) => JSON.stringify(t)).join("");
    const total = this.count(text);
    let best = 0;
    for (const entry of this.#entries) {
      if (
        entry.model !== model || entry.evicted || at - entry.lastUse > this.ttl
      ) continue;
      let n = 0;
      while (n < text.length && text[n] === entry.text[n]) n++;
      const tokens = this.count(text.slice(0, n));
      if (tokens >= 1024) best = Math.max(best, tokens - (tokens % 128));
    }
    this.#entries = this.#entries.filter((e) =>
      e.text !== text || e.model !== model
    );
    this.#entries.push({ model, text, lastUse: at, evicted: false });
    if (this.#entries.length > 64) this.#entries.shift();
    return {
      usage: {
        input_tokens: total + messages,
        input_tokens_details: { cached_tokens: best },
      },
      cacheable: total,
    };
  }
}
