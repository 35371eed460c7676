/**
 * What cached tokens cost: each provider's cache multipliers and base input
 * prices, as data with the page they were read from and when.
 *
 * @module
 */

/**
 * One row of the pricing table: the models of `provider` whose id contains
 * `model` (`""`: any of its models). Multipliers are of the base input
 * price; `input` is USD per million input tokens, where published.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { PriceRow } from "@dsh/system-prompt/adapters";
 *
 * const mine: PriceRow = { provider: "anthropic", model: "claude-next", input: 4, read: 0.1, write: 1.25, write1h: 2 };
 * assert.equal(mine.write1h, 2);
 * ```
 */
export interface PriceRow {
  /** `"anthropic"`, `"bedrock"`, `"openai"`, `"gemini"` (a plan's `provider`). */
  provider: string;
  /** A substring of the model id; the longest that matches wins, `""` any. */
  model: string;
  /** Base input price, USD per million tokens. */
  input?: number;
  /** A cache read, as a multiple of the base input price. */
  read: number;
  /** A cache write (5-minute TTL, or the provider's only one). */
  write: number;
  /** A cache write with a 1-hour TTL. */
  write1h?: number;
}

/**
 * The built-in table's sources: the page each provider's rows were read
 * from and when (`YYYY-MM-DD`).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { PRICING_SOURCES } from "@dsh/system-prompt/adapters";
 *
 * assert.match(PRICING_SOURCES.anthropic!.url, /^https:\/\//);
 * ```
 */
export const PRICING_SOURCES: Readonly<
  Record<string, { url: string; checked: string }>
> = {
  anthropic: {
    url: "https://platform.claude.com/docs/en/about-claude/pricing",
    checked: "2026-12-02",
  },
  bedrock: {
    url: "https://aws.amazon.com/bedrock/pricing/",
    checked: "2026-12-02",
  },
  openai: {
    url: "https://developers.openai.com/api/docs/pricing",
    checked: "2026-12-02",
  },
  gemini: {
    url: "https://ai.google.dev/gemini-api/docs/pricing",
    checked: "2026-12-02",
  },
};

/**
 * The built-in pricing table. A row a line, so that a provider's change is
 * a one-line update; pass your own rows (`pricing` of
 * {@linkcode CacheLedgerOptions}) for prices this table lacks or that moved.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { PRICING } from "@dsh/system-prompt/adapters";
 *
 * const anthropic = PRICING.find((row) => row.provider === "anthropic" && row.model === "")!;
 * assert.deepEqual([anthropic.write, anthropic.write1h, anthropic.read], [1.25, 2, 0.1]);
 * ```
 */
export const PRICING: readonly PriceRow[] = [
  { provider: "anthropic", model: "", read: 0.1, write: 1.25, write1h: 2 },
  {
    provider: "anthropic",
    model: "claude-opus-4-6",
    input: 5,
    read: 0.1,
    write: 1.25,
    write1h: 2,
  },
  {
    provider: "anthropic",
    model: "claude-opus-4-5",
    input: 5,
    read: 0.1,
    write: 1.25,
    write1h: 2,
  },
  {
    provider: "anthropic",
    model: "claude-opus-4-1",
    input: 15,
    read: 0.1,
    write: 1.25,
    write1h: 2,
  },
  {
    provider: "anthropic",
    model: "claude-opus-4",
    input: 15,
    read: 0.1,
    write: 1.25,
    write1h: 2,
  },
  {
    provider: "anthropic",
    model: "claude-sonnet-4",
    input: 3,
    read: 0.1,
    write: 1.25,
    write1h: 2,
  },
  {
    provider: "anthropic",
    model: "claude-haiku-4-5",
    input: 1,
    read: 0.1,
    write: 1.25,
    write1h: 2,
  },
  {
    provider: "anthropic",
    model: "claude-3-5-haiku",
    input: 0.8,
    read: 0.1,
    write: 1.25,
    write1h: 2,
  },
  { provider: "bedrock", model: "", read: 0.1, write: 1.25, write1h: 2 },
  { provider: "openai", model: "", read: 0.1, write: 1 },
  { provider: "openai", model: "gpt-5", input: 1.25, read: 0.1, write: 1 },
  { provider: "openai", model: "gpt-4.1", input: 2, read: 0.25, write: 1 },
  { provider: "openai", model: "gpt-4o", input: 2.5, read: 0.5, write: 1 },
  { provider: "gemini", model: "", read: 0.1, write: 1 },
  {
    provider: "gemini",
    model: "gemini-2.5-pro",
    input: 1.25,
    read: 0.25,
    write: 1,
  },
  {
    provider: "gemini",
    model: "gemini-2.5-flash",
    input: 0.3,
    read: 0.25,
    write: 1,
  },
];

/**
 * The rates that apply to one model: the multipliers of the best row, the
 * base price of the best row that has one.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { type ModelPrice, priceFor } from "@dsh/system-prompt/adapters";
 *
 * const price: ModelPrice | undefined = priceFor("anthropic", "claude-sonnet-4-5");
 * assert.deepEqual(price, { input: 3, read: 0.1, write: 1.25, write1h: 2 });
 * ```
 */
export interface ModelPrice {
  /** Base input price, USD per million tokens; absent where unknown. */
  input?: number;
  /** A cache read, as a multiple of the base input price. */
  read: number;
  /** A cache write (5 minutes, or the only TTL). */
  write: number;
  /** A 1-hour cache write. */
  write1h: number;
}

/**
 * Looks a model up in `rows` (the host's), then in {@linkcode PRICING}.
 *
 * @param provider The plan's provider.
 * @param model The model id; absent: the provider's row.
 * @param rows Rows consulted first (the longest match still wins; on a tie,
 * the host's).
 * @returns The rates, or undefined when no row names the provider.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { priceFor } from "@dsh/system-prompt/adapters";
 *
 * assert.equal(priceFor("openai", "gpt-5-mini", [{ provider: "openai", model: "gpt-5-mini", input: 0.25, read: 0.1, write: 1 }])?.input, 0.25);
 * assert.equal(priceFor("acme", "x"), undefined);
 * ```
 */
export function priceFor(
  provider: string,
  model: string | undefined,
  rows: readonly PriceRow[] = [],
): ModelPrice | undefined {
  let rates: PriceRow | undefined;
  let priced: PriceRow | undefined;
  // The host's rows, then the table's: walked, not copied (once a step).
  for (const list of [rows, PRICING]) {
    for (const row of list) {
      if (row.provider !== provider) continue;
      if (row.model !== "" && !(model?.includes(row.model) ?? false)) continue;
      if (rates === undefined || row.model.length > rates.model.length) {
        rates = row;
      }
      if (
        row.input !== undefined &&
        (priced === undefined || row.model.length > priced.model.length)
      ) priced = row;
    }
  }
  if (rates === undefined) return undefined;
  const price: ModelPrice = {
    read: rates.read,
    write: rates.write,
    write1h: rates.write1h ?? rates.write,
  };
  if (priced?.input !== undefined) price.input = priced.input;
  return price.input === undefined ? price : { input: price.input, ...price };
}
