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

import { defined } from "../../../src/core/_defined.ts";
import type {
  PromptAssembly,
  RenderedStep,
  Stability,
  StepBlock,
  ToolSchema,
} from "../../../mod.ts";
import { failure } from "../../../src/core/_messages.ts";
import { stepBlocks } from "../../../src/adapters/_blocks.ts";
import {
  toolLayer,
  toolOwner,
  toolStability,
} from "../../../src/core/tools.ts";
import { IN_PROMPT } from "../../../src/adapters/_tool_places.ts";
import type { CachePlan } from "../../../src/adapters/plan.ts";
import {
  ANTHROPIC,
  BEDROCK,
  GEMINI,
  OPENAI,
} from "../../../src/adapters/profiles.ts";

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

/** The step's prefix in the provider's order. */
export function stepPrefix(
  step: PromptAssembly | RenderedStep,
  how: {
    plan: CachePlan;
    count: (text: string) => number;
    hashOf?: (text: string) => string;
  },
): StepPrefix {
  const { plan, count, hashOf = hash } = how;
  const tools = Array.isArray(step?.tools) ? step.tools : [];
  if (tools.length !== plan.toolTokens.length) {
    throw failure({
      code: "invalid-value",
      action: "record a step",
      problem:
        `the step has ${tools.length} tools, its request ${plan.toolTokens.length}; pass the step the request was made from`,
    });
  }
  const system = systemParts(step, plan, count, hashOf);
  const order = ORDERS[plan.provider] ?? ANTHROPIC.order;
  const parts: PrefixPart[] = [];
  const lastOfBlock = new Map<"tools" | number, number>();
  // Each tool's part; a tool the request defers is not in the prompt.
  const toolPart = new Map<number, number>();
  const inPrompt = IN_PROMPT.get(plan);
  let prefix = "";
  let end = 0;
  let blocks = 0;
  const push = (part: Omit<PrefixPart, "prefix" | "end" | "blocks">) => {
    prefix = hash(prefix + "\u0000" + part.hash);
    end += part.tokens;
    parts.push({ ...part, prefix, end, blocks });
  };
  for (const what of order) {
    if (what === "tools") {
      tools.forEach((tool, i) => {
        if (inPrompt?.[i] === false) return;
        blocks++;
        push({
          kind: "tool",
          name: String(tool.name),
          ...defined({ owner: toolOwner(tool), layer: toolLayer(tool) }),
          stability: toolStability(tool) ?? "static",
          tokens: plan.toolTokens[i]!,
          hash: hashOf(toolText(tool)),
        });
        toolPart.set(i, parts.length - 1);
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
      : toolPart.get(choice.tool);
    if (index === undefined) continue;
    if (choice.chosen) {
      breakpoints.push({ index, ttl: choice.ttl ?? "5m" });
      expected = Math.max(expected, parts[index]!.end);
    } else if (automatic && choice.reason === "automatic") {
      expected = Math.max(expected, parts[index]!.end);
    }
  }
  if (automatic && expected < plan.minTokens) expected = 0;
  return {
    provider: plan.provider,
    parts,
    breakpoints,
    expected,
    minTokens: plan.minTokens,
    automatic,
  };
}

/** Each plan block's parts, with tokens that sum to the block's. */
function systemParts(
  step: PromptAssembly | RenderedStep,
  plan: CachePlan,
  count: (text: string) => number,
  hashOf: (text: string) => string,
): (Omit<PrefixPart, "prefix" | "end" | "blocks">)[][] {
  const pieces = partsOfStep(step, plan);
  const result: (Omit<PrefixPart, "prefix" | "end" | "blocks">)[][] = [];
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
    // A block of one part needs no count: the plan counted it.
    const counts = inBlock.length === 1
      ? [1]
      : inBlock.map((part) => Math.max(1, count(part.text)));
    const sum = counts.reduce((a, b) => a + b, 0);
    let seen = 0;
    let given = 0;
    result.push(inBlock.map((part, i) => {
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
    }));
  }
  return result;
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
  const spanned = plan.blocks.every((b) =>
    Array.isArray(b.spans) && Array.isArray(b.parts)
  );
  const blocks: readonly StepBlock[] = spanned ? plan.blocks : stepBlocks(step);
  const parts = blocks.flatMap((block) =>
    block.spans.map((span, i) => ({
      name: block.parts[i] ?? "",
      ...defined({ owner: span.owner, layer: span.layer }),
      stability: block.stability,
      text: block.text.slice(span.start, span.end),
    }))
  );
  const length = (list: readonly { text: string }[]) =>
    list.reduce((sum, b) => sum + b.text.length, 0);
  const prompt = (step as Partial<RenderedStep>).prompt;
  const total = length(plan.blocks);
  if (
    length(parts) !== total ||
    (typeof prompt === "string" && prompt.length !== total)
  ) {
    throw failure({
      code: "invalid-value",
      action: "record a step",
      problem:
        "the step's prompt is not the request's; pass the step the request was made from",
    });
  }
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
 * for telling parts apart; not a cryptographic hash.
 */
export function hash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
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
