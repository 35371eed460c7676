/**
 * What the cache ledger remembers between steps so that a step's prefix
 * costs work only for what changed: each counter's counts and each text's
 * hash (bounded, the least recently used dropped first), each block's
 * parts by its text, each tool's hash by the registry's frozen schema, and
 * each frozen plan's whole prefix while its step's tools stay the same.
 *
 * @module
 */

import type { ToolSchema } from "../../mod.ts";
import { isRegistrySchema } from "../core/_provenance.ts";
import { BoundedCache } from "../render/_bounded_cache.ts";
import type { CachePlan, SystemBlock } from "./plan.ts";
import { counted } from "./_counts.ts";
import type { Placed, PrefixPart, StepPrefix } from "./_ledger_prefix.ts";

export type { Placed };

/** A block's parts, and what they were made from, to tell a block's text reused by another block. */
interface BlockParts {
  block: SystemBlock;
  parts: readonly Placed[];
}

/** A plan's whole prefix, and the step's tools it was made with. */
interface KnownPrefix {
  tools: readonly ToolSchema[];
  /** The length of the plan's system prompt, to check a step's prompt. */
  total: number;
  prefix: StepPrefix;
}

/**
 * A counter's memory: one per counter, shared by the ledgers and
 * `stepAttributes` calls that count with it, so a step's prefix is made
 * once for both.
 */
export class PrefixMemo {
  readonly #count: (text: string) => number;
  #hashes = new BoundedCache<string>();
  #blocks = new BoundedCache<BlockParts>();
  /** The parts of the prefix made last, and what they were made of. */
  chain: { placed: readonly Placed[]; parts: readonly PrefixPart[] } = {
    placed: [],
    parts: [],
  };
  /** Each frozen plan's prefix: a plan is made once per request. */
  readonly prefixes: WeakMap<CachePlan, KnownPrefix> = new WeakMap();

  constructor(count: (text: string) => number) {
    this.#count = count;
  }

  /**
   * `count(text)`, checked, in the adapters' memory of the counter: a text
   * a request counted is not counted again for its record.
   */
  count(text: string): number {
    return counted(this.#count, text, { action: "record a step" });
  }

  /** `hash(text)`, remembered. */
  hash(text: string, hash: (text: string) => string): string {
    let h = this.#hashes.get(text);
    if (h === undefined) this.#hashes.set(text, h = hash(text));
    return h;
  }

  /** A block's parts as last made from a block like it, or `make()`'s. */
  blockParts(
    block: SystemBlock,
    make: () => readonly Placed[],
  ): readonly Placed[] {
    const known = this.#blocks.get(block.text);
    if (known !== undefined && sameBlock(known.block, block)) {
      return known.parts;
    }
    const parts = Object.freeze(make());
    this.#blocks.set(block.text, { block, parts });
    return parts;
  }
}

/** Whether two blocks of one text make the same parts. */
function sameBlock(a: SystemBlock, b: SystemBlock): boolean {
  if (a === b) return true;
  if (
    a.tokens !== b.tokens || a.stability !== b.stability ||
    a.parts.length !== b.parts.length || a.spans.length !== b.spans.length
  ) return false;
  for (let i = 0; i < a.spans.length; i++) {
    const [x, y] = [a.spans[i]!, b.spans[i]!];
    if (
      a.parts[i] !== b.parts[i] || x.start !== y.start || x.end !== y.end ||
      x.owner !== y.owner || x.layer !== y.layer
    ) return false;
  }
  return true;
}

const MEMOS = new WeakMap<(text: string) => number, PrefixMemo>();

/** The memory of a counter. */
export function memoFor(count: (text: string) => number): PrefixMemo {
  let memo = MEMOS.get(count);
  if (memo === undefined) MEMOS.set(count, memo = new PrefixMemo(count));
  return memo;
}

/** Tools' hashes by their registry schema (frozen, so fixed for good). */
const TOOL_HASHES = new WeakMap<
  object,
  { name: string; description: string; hash: string }[]
>();

/**
 * A tool's content hash, made by `make` once per frozen registry schema,
 * name and description: a schema the registry did not freeze may change,
 * so it is hashed afresh.
 */
export function toolHash(tool: ToolSchema, make: () => string): string {
  const { name, description, parameters } = tool;
  if (
    typeof name !== "string" || typeof description !== "string" ||
    !isRegistrySchema(parameters)
  ) return make();
  let known = TOOL_HASHES.get(parameters);
  for (const entry of known ?? []) {
    if (entry.name === name && entry.description === description) {
      return entry.hash;
    }
  }
  const hash = make();
  if (known === undefined) TOOL_HASHES.set(parameters, known = []);
  // A schema's names and descriptions are few: a renamed copy is rare.
  if (known.length >= 8) known.shift();
  known.push({ name, description, hash });
  return hash;
}

/** Whether a tool's fields are fixed: frozen around a registry schema. */
export function fixedTool(tool: ToolSchema): boolean {
  return Object.isFrozen(tool) && isRegistrySchema(tool.parameters);
}

const FIXED_PLANS = new WeakSet<CachePlan>();

/**
 * Whether a plan is frozen through its blocks and choices (an adapter's
 * is), so its prefix may be remembered by its identity.
 */
export function fixedPlan(plan: CachePlan): boolean {
  if (FIXED_PLANS.has(plan)) return true;
  const frozen = (value: unknown) => Object.isFrozen(value);
  const fixed = frozen(plan) && frozen(plan.blocks) &&
    frozen(plan.choices) && frozen(plan.toolTokens) &&
    plan.blocks.every((b) =>
      frozen(b) && frozen(b.spans) && frozen(b.parts) &&
      b.spans.every(frozen)
    ) && plan.choices.every(frozen);
  if (fixed) FIXED_PLANS.add(plan);
  return fixed;
}
