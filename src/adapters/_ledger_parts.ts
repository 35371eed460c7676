/**
 * A step's cached prefix as the ledger sees it: every tool and system part
 * in the provider's order, each with its owner, layer, stability, tokens,
 * content hash and the hash of the whole prefix through it; and where the
 * plan put its breakpoints.
 *
 * The parts' owners and layers come from the plan's blocks (`spans`), or
 * for a plan without them from `stepBlocks(step)`.
 *
 * @module
 */

import { defined } from "../core/_defined.ts";
import type {
  PromptAssembly,
  RenderedStep,
  Stability,
  StepBlock,
  ToolSchema,
} from "../../mod.ts";
import { failure } from "../core/_messages.ts";
import { estimateTokens } from "../inspect/estimate_tokens.ts";
import { stepBlocks } from "./_blocks.ts";
import { toolLayer, toolOwner, toolStability } from "../core/tools.ts";
import { IN_PROMPT } from "./_tool_places.ts";
import type { CachePlan, SystemBlock } from "./plan.ts";
import {
  fixedPlan,
  fixedTool,
  memoFor,
  type Placed,
  type PrefixMemo,
  toolHash,
} from "./_ledger_memo.ts";
import { ANTHROPIC, BEDROCK, GEMINI, OPENAI } from "./profiles.ts";

/** One tool or system part of the prefix. */
export interface PrefixPart {
  kind: "tool" | "section";
  /** A tool's or section's name; a list item's path (`"skills/git"`). */
  name: string;
  owner?: string;
  layer?: string;
  stability: Stability;
  tokens: number;
  /** Hash of its content. */
  hash: string;
  /** Hash of the prefix through it. */
  prefix: string;
  /** Tokens of the prefix through it. */
  end: number;
  /** Content blocks of the request through it (tools and system blocks). */
  blocks: number;
}

/** A breakpoint: after part `index`. */
export interface PrefixBreakpoint {
  index: number;
  ttl: "5m" | "1h";
}

/** A step's prefix. */
export interface StepPrefix {
  provider: string;
  parts: PrefixPart[];
  breakpoints: PrefixBreakpoint[];
  /** Tokens the plan expects later steps to read: 0 where it caches nothing. */
  expected: number;
  minTokens: number;
  /** Whether the provider caches by itself (no breakpoints). */
  automatic: boolean;
}

interface SystemPart {
  name: string;
  owner?: string;
  layer?: string;
  stability: Stability;
  text: string;
}

const ORDERS: Readonly<Record<string, readonly string[]>> = {
  anthropic: ANTHROPIC.order,
  bedrock: BEDROCK.order,
  openai: OPENAI.order,
  gemini: GEMINI.order,
};

/** The request's plan, or a PromptError: it must be an adapter's result. */
export function planOf(request: unknown): CachePlan {
  const plan = (request as { plan?: Partial<CachePlan> } | null)?.plan;
  if (
    typeof plan !== "object" || plan === null ||
    typeof plan.provider !== "string" || !Array.isArray(plan.blocks) ||
    !Array.isArray(plan.choices) || !Array.isArray(plan.toolTokens)
  ) {
    throw failure({
      code: "invalid-value",
      action: "record a step",
      problem:
        "request must be an adapter's result, with its plan (request.plan)",
    });
  }
  return plan as CachePlan;
}

/**
 * The step's prefix in the provider's order. What did not change since
 * `memo` last saw it is not made again: a frozen plan's whole prefix while
 * the step's tools are the same frozen copies, a block's parts by its
 * text, a registry tool's hash by its schema.
 */
export function stepPrefix(
  step: PromptAssembly | RenderedStep,
  how: {
    plan: CachePlan;
    /** The counter's memory; by default, `count`'s. */
    memo?: PrefixMemo;
    count?: (text: string) => number;
  },
): StepPrefix {
  const { plan, memo = memoFor(how.count ?? estimateTokens) } = how;
  const tools = Array.isArray(step?.tools) ? step.tools : [];
  if (tools.length !== plan.toolTokens.length) {
    throw failure({
      code: "invalid-value",
      action: "record a step",
      problem:
        `the step has ${tools.length} tools, its request ${plan.toolTokens.length}; pass the step the request was made from`,
    });
  }
  const known = memo.prefixes.get(plan);
  if (known !== undefined && sameTools(known.tools, tools)) {
    checkPrompt(step, known.total);
    return known.prefix;
  }
  const hashOf = (text: string) => memo.hash(text, hash);
  const system = systemParts(step, plan, memo, hashOf);
  const order = ORDERS[plan.provider] ?? ANTHROPIC.order;
  const parts: PrefixPart[] = [];
  const lastOfBlock = new Map<"tools" | number, number>();
  // Each tool's part; a tool the request defers is not in the prompt.
  const partOfTool = new Map<number, number>();
  const inPrompt = IN_PROMPT.get(plan);
  let prefix = "";
  let end = 0;
  let blocks = 0;
  const push = (part: Placed) => {
    prefix = hash(prefix, part.hash);
    end += part.tokens;
    parts.push({ ...part, prefix, end, blocks });
  };
  for (const what of order) {
    if (what === "tools") {
      tools.forEach((tool, i) => {
        if (inPrompt?.[i] === false) return;
        blocks++;
        push(toolPart(tool, plan.toolTokens[i]!, hashOf));
        partOfTool.set(i, parts.length - 1);
      });
      if (tools.length > 0) lastOfBlock.set("tools", parts.length - 1);
    } else if (what === "system") {
      system.forEach((inBlock, i) => {
        blocks++;
        for (const part of inBlock) push(part);
        lastOfBlock.set(i, parts.length - 1);
      });
    }
  }
  const breakpoints: PrefixBreakpoint[] = [];
  let expected = 0;
  const automatic = plan.choices.some((c) => c.reason === "automatic");
  for (const choice of plan.choices) {
    const index = typeof choice.after === "number"
      ? lastOfBlock.get(choice.after)
      : choice.tool === undefined
      ? lastOfBlock.get("tools")
      : partOfTool.get(choice.tool);
    if (index === undefined) continue;
    if (choice.chosen) {
      breakpoints.push({ index, ttl: choice.ttl ?? "5m" });
      expected = Math.max(expected, parts[index]!.end);
    } else if (automatic && choice.reason === "automatic") {
      expected = Math.max(expected, parts[index]!.end);
    }
  }
  if (automatic && expected < plan.minTokens) expected = 0;
  const result: StepPrefix = {
    provider: plan.provider,
    parts,
    breakpoints,
    expected,
    minTokens: plan.minTokens,
    automatic,
  };
  // Remembered only where nothing it was made from can change: a frozen
  // plan with spans (not the step's blocks) and frozen registry tools.
  if (spanned(plan) && fixedPlan(plan) && tools.every(fixedTool)) {
    memo.prefixes.set(plan, {
      tools: tools.slice(),
      total: promptLength(plan.blocks),
      prefix: result,
    });
  }
  return result;
}

/** Each frozen registry tool's part, for its tokens. */
const TOOL_PARTS = new WeakMap<ToolSchema, Placed>();

/** A tool's part: made once per frozen tool (and token count). */
function toolPart(
  tool: ToolSchema,
  tokens: number,
  hashOf: (text: string) => string,
): Placed {
  const fixed = fixedTool(tool);
  const known = fixed ? TOOL_PARTS.get(tool) : undefined;
  if (known?.tokens === tokens) return known;
  const part: Placed = Object.freeze({
    kind: "tool",
    name: String(tool.name),
    ...defined({ owner: toolOwner(tool), layer: toolLayer(tool) }),
    stability: toolStability(tool) ?? "static",
    tokens,
    hash: toolHash(tool, () => hashOf(toolText(tool))),
  });
  if (fixed) TOOL_PARTS.set(tool, part);
  return part;
}

function sameTools(
  a: readonly ToolSchema[],
  b: readonly ToolSchema[],
): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const spanned = (plan: CachePlan) =>
  plan.blocks.every((b) => Array.isArray(b.spans) && Array.isArray(b.parts));

const promptLength = (list: readonly { text: string }[]) =>
  list.reduce((sum, b) => sum + b.text.length, 0);

/** A rendered step's prompt must be the plan's. */
function checkPrompt(step: PromptAssembly | RenderedStep, total: number) {
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
function systemParts(
  step: PromptAssembly | RenderedStep,
  plan: CachePlan,
  memo: PrefixMemo,
  hashOf: (text: string) => string,
): (readonly Placed[])[] {
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

/** What of a tool the provider sees: name, description, parameters. */
function toolText(tool: ToolSchema): string {
  try {
    return JSON.stringify([tool.name, tool.description, tool.parameters]);
  } catch (error) {
    throw failure({
      code: "invalid-value",
      action: "record a step",
      problem: `the parameters of tool "${
        String(tool.name)
      }" cannot be written as JSON`,
      fields: { tool: String(tool.name) },
      cause: error,
    });
  }
}

/**
 * A 53-bit content hash (cyrb53) as 14 hex digits: fast and synchronous,
 * for telling parts apart; not a cryptographic hash. With `after`, the
 * hash of `text + "\u0000" + after`.
 */
export function hash(text: string, after?: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  const mix = (c: number) => {
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  };
  for (let i = 0; i < text.length; i++) mix(text.charCodeAt(i));
  // A chain's link: the hash of `text + "\u0000" + after`, not joined
  // (a joined string is read slowly until it is flattened).
  if (after !== undefined) {
    mix(0);
    for (let i = 0; i < after.length; i++) mix(after.charCodeAt(i));
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^
    Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^
    Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(
    14,
    "0",
  );
}
