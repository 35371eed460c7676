/**
 * A step's system parts: each plan block cut at its spans (each part's
 * owner, layer and stability), with its share of the block's tokens and
 * its content hash; block by block, each remembered by its text.
 *
 * @module
 */

import { defined } from "../core/_defined.ts";
import type {
  PromptAssembly,
  RenderedStep,
  Stability,
  StepBlock,
} from "../../mod.ts";
import { failure } from "../core/_messages.ts";
import { stepBlocks } from "./_blocks.ts";
import type { CachePlan, SystemBlock } from "./plan.ts";
import type { PrefixMemo } from "./_ledger_memo.ts";
import type { Placed } from "./_ledger_prefix.ts";

interface SystemPart {
  name: string;
  owner?: string;
  layer?: string;
  stability: Stability;
  text: string;
}

/** Whether a plan's blocks carry their spans (an adapter's do). */
export function spanned(plan: CachePlan): boolean {
  return plan.blocks.every((b) =>
    Array.isArray(b.spans) && Array.isArray(b.parts)
  );
}

/** The length of blocks' texts joined. */
export function promptLength(list: readonly { text: string }[]): number {
  return list.reduce((sum, b) => sum + b.text.length, 0);
}

/** A rendered step's prompt must be the plan's. */
export function checkPrompt(
  step: PromptAssembly | RenderedStep,
  total: number,
): void {
  const prompt = (step as Partial<RenderedStep>).prompt;
  if (typeof prompt === "string" && prompt.length !== total) {
    throw notTheRequests();
  }
}

const notTheRequests = () =>
  failure({
    code: "invalid-value",
    action: "record a step",
    problem:
      "the step's prompt is not the request's; pass the step the request was made from",
  });

/**
 * Each plan block's parts, with tokens that sum to the block's: block by
 * block (each remembered by its text) where every block's spans cover it
 * with non-empty parts, else walked across blocks.
 */
export function systemParts(
  step: PromptAssembly | RenderedStep,
  how: {
    plan: CachePlan;
    memo: PrefixMemo;
    hashOf: (text: string) => string;
  },
): (readonly Placed[])[] {
  const { plan, memo, hashOf } = how;
  if (spanned(plan) && plan.blocks.every(coveredBySpans)) {
    checkPrompt(step, promptLength(plan.blocks));
    return plan.blocks.map((block) =>
      memo.blockParts(block, () =>
        shareTokens(
          block,
          block.spans.map((span, i) => ({
            name: block.parts[i] ?? "",
            ...defined({ owner: span.owner, layer: span.layer }),
            stability: block.stability,
            text: block.text.slice(span.start, span.end),
          })),
          memo,
          hashOf,
        ))
    );
  }
  const pieces = partsOfStep(step, plan);
  const result: (readonly Placed[])[] = [];
  let cursor = 0;
  let offset = 0;
  for (const block of plan.blocks) {
    const inBlock: SystemPart[] = [];
    let need = block.text.length;
    while (need > 0 && cursor < pieces.length) {
      const piece = pieces[cursor]!;
      const take = piece.text.slice(offset, offset + need);
      inBlock.push({ ...piece, text: take });
      need -= take.length;
      offset += take.length;
      if (offset >= piece.text.length) [cursor, offset] = [cursor + 1, 0];
    }
    result.push(shareTokens(block, inBlock, memo, hashOf));
  }
  return result;
}

/** Whether a block's spans are non-empty and cover its text, in order. */
function coveredBySpans(block: SystemBlock): boolean {
  let at = 0;
  for (const span of block.spans) {
    if (span.start !== at || !(span.end > at)) return false;
    at = span.end;
  }
  return at === block.text.length && at > 0;
}

/** A block's parts with their share of its tokens. */
function shareTokens(
  block: SystemBlock,
  inBlock: readonly SystemPart[],
  memo: PrefixMemo,
  hashOf: (text: string) => string,
): Placed[] {
  // A block of one part needs no count: the plan counted it.
  const counts = inBlock.length === 1
    ? [1]
    : inBlock.map((part) => Math.max(1, memo.count(part.text)));
  const sum = counts.reduce((a, b) => a + b, 0);
  let seen = 0;
  let given = 0;
  return inBlock.map((part, i) => {
    seen += counts[i]!;
    const upTo = Math.round(block.tokens * seen / sum);
    const tokens = upTo - given;
    given = upTo;
    return {
      kind: "section" as const,
      name: part.name,
      ...defined({ owner: part.owner, layer: part.layer }),
      stability: part.stability,
      tokens,
      hash: hashOf(part.text),
    };
  });
}

/**
 * The step's system parts in order, with owners and layers: from the plan's
 * blocks, or (for a plan without spans) the step's own blocks; their texts
 * join to the prompt.
 */
function partsOfStep(
  step: PromptAssembly | RenderedStep,
  plan: CachePlan,
): SystemPart[] {
  const blocks: readonly StepBlock[] = spanned(plan)
    ? plan.blocks
    : stepBlocks(step);
  const parts = blocks.flatMap((block) =>
    block.spans.map((span, i) => ({
      name: block.parts[i] ?? "",
      ...defined({ owner: span.owner, layer: span.layer }),
      stability: block.stability,
      text: block.text.slice(span.start, span.end),
    }))
  );
  const total = promptLength(plan.blocks);
  if (promptLength(parts) !== total) throw notTheRequests();
  checkPrompt(step, total);
  return parts;
}
