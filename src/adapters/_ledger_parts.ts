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
import type { PromptAssembly, RenderedStep, ToolSchema } from "../../mod.ts";
import { failure } from "../core/_messages.ts";
import { estimateTokens } from "../inspect/estimate_tokens.ts";
import {
  checkPrompt,
  promptLength,
  spanned,
  systemParts,
} from "./_ledger_system.ts";
import type {
  Placed,
  PrefixBreakpoint,
  PrefixPart,
  StepPrefix,
} from "./_ledger_prefix.ts";
import { toolLayer, toolOwner, toolStability } from "../core/tools.ts";
import { IN_PROMPT } from "./_tool_places.ts";
import type { CachePlan } from "./plan.ts";
import {
  fixedPlan,
  fixedTool,
  memoFor,
  type PrefixMemo,
  toolHash,
} from "./_ledger_memo.ts";
import { ANTHROPIC, BEDROCK, GEMINI, OPENAI } from "./profiles.ts";
export type {
  PrefixBreakpoint,
  PrefixPart,
  StepPrefix,
} from "./_ledger_prefix.ts";

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
  const system = systemParts(step, { plan, memo, hashOf });
  const order = ORDERS[plan.provider] ?? ANTHROPIC.order;
  const parts: PrefixPart[] = [];
  const lastOfBlock = new Map<"tools" | number, number>();
  // Each tool's part; a tool the request defers is not in the prompt.
  const partOfTool = new Map<number, number>();
  const inPrompt = IN_PROMPT.get(plan);
  let prefix = 0;
  let end = 0;
  let blocks = 0;
  // The parts the last prefix made began as this one does are its own:
  // the same parts in the same blocks, so the same hashes through them.
  const last = memo.chain;
  const placed: Placed[] = [];
  let same = true;
  const push = (part: Placed) => {
    const i = placed.length;
    placed.push(part);
    const was = same && last.placed[i] === part ? last.parts[i]! : undefined;
    if (was !== undefined && was.blocks === blocks) {
      parts.push(was);
      [prefix, end] = [was.prefix, was.end];
      return;
    }
    same = false;
    prefix = link(prefix, part.hash);
    end += part.tokens;
    // Built field by field: a spread of parts of several shapes is slow.
    const made: PrefixPart = { kind: part.kind, name: part.name } as PrefixPart;
    if (part.owner !== undefined) made.owner = part.owner;
    if (part.layer !== undefined) made.layer = part.layer;
    made.stability = part.stability;
    made.tokens = part.tokens;
    made.hash = part.hash;
    made.prefix = prefix;
    made.end = end;
    made.blocks = blocks;
    parts.push(made);
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
  memo.chain = { placed, parts };
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
  if (
    spanned(plan) && fixedPlan(plan) &&
    tools.every((t) => TOOL_PARTS.has(t) || fixedTool(t))
  ) {
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
  // Only a fixed tool's part is remembered: one found is fixed.
  const known = TOOL_PARTS.get(tool);
  if (known?.tokens === tokens) return known;
  const fixed = fixedTool(tool);
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
  // The 53-bit number (21 bits of h2 over 32 of h1) in 14 hex digits, made
  // as one flat string (joined pieces would be a rope, slow as a Map key).
  const high = 2097151 & h2;
  return String.fromCharCode(
    HEX[high >>> 20]!,
    HEX[(high >>> 16) & 15]!,
    HEX[(high >>> 12) & 15]!,
    HEX[(high >>> 8) & 15]!,
    HEX[(high >>> 4) & 15]!,
    HEX[high & 15]!,
    HEX[h1 >>> 28]!,
    HEX[(h1 >>> 24) & 15]!,
    HEX[(h1 >>> 20) & 15]!,
    HEX[(h1 >>> 16) & 15]!,
    HEX[(h1 >>> 12) & 15]!,
    HEX[(h1 >>> 8) & 15]!,
    HEX[(h1 >>> 4) & 15]!,
    HEX[h1 & 15]!,
  );
}

/** The character codes of the hex digits. */
const HEX: readonly number[] = Array.from(
  { length: 16 },
  (_, i) => i.toString(16).charCodeAt(0),
);

/**
 * The hash of a prefix through a part: cyrb53 of the prefix's hash before
 * it (four 16-bit pieces) and the part's hash, as the 53-bit number.
 */
function link(before: number, part: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  const high = Math.floor(before / 4294967296);
  const low = before >>> 0;
  for (let i = -4; i < part.length; i++) {
    const c = i < 0
      ? ((i < -2 ? high : low) >>> (i & 1 ? 16 : 0)) & 0xffff
      : part.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^
    Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^
    Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
