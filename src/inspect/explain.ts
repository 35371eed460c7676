/**
 * TEMPORARY (inspect branch only): a stand-in for `explainPrompt` with the
 * exported types the explain helper's version has, so that comparePrompts,
 * cacheBlocks and checkPrompt can be written and tested before it lands.
 * The merge takes the other helper's file; nothing here is to be kept.
 *
 * @module
 */

import { failure, PromptError, type Where } from "../core/errors.ts";
import { checkPart, type PartKind } from "../core/_fields.ts";
import { closestName, didYouMean } from "../core/names.ts";
import { toolLayer, toolOwner } from "../core/tools.ts";
import { estimateTokens } from "./estimate_tokens.ts";
import type {
  AssembledItem,
  PromptAssembly,
  Stability,
} from "../core/types.ts";

/**
 * One rendered part (an item; a section says the same and more).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ItemExplanation } from "@dsh/system-prompt/inspect";
 *
 * const item: ItemExplanation = { name: "a", order: 0, stability: "static", separatorStart: 0, start: 0, end: 1, chars: 1, tokens: 1, variables: [] };
 * assert.equal(item.end, 1);
 * ```
 */
export interface ItemExplanation {
  /** Its name. */
  name: string;
  /** Its owner. */
  owner?: string;
  /** Its layer. */
  layer?: string;
  /** The registration it shadows. */
  shadows?: { owner?: string; layer?: string };
  /** Its order. */
  order: number;
  /** Its stability. */
  stability: Stability;
  /** Where the separator before it starts. */
  separatorStart: number;
  /** Where it starts. */
  start: number;
  /** Where it ends. */
  end: number;
  /** `end - start`. */
  chars: number;
  /** Estimated tokens. */
  tokens: number;
  /** Variables it references. */
  variables: string[];
  /** A nested list's rendered items. */
  items?: ItemExplanation[];
}

/**
 * One rendered section.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { SectionExplanation } from "@dsh/system-prompt/inspect";
 *
 * const s: SectionExplanation = { name: "a", order: 0, stability: "static", separatorStart: 0, start: 0, end: 1, chars: 1, tokens: 1, variables: [] };
 * assert.equal(s.name, "a");
 * ```
 */
export interface SectionExplanation extends ItemExplanation {
  /** A list's rendered items. */
  items?: ItemExplanation[];
}

/**
 * One tool.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ToolExplanation } from "@dsh/system-prompt/inspect";
 *
 * const t: ToolExplanation = { name: "a", descriptionChars: 0, parametersChars: 2, tokens: 1 };
 * assert.equal(t.name, "a");
 * ```
 */
export interface ToolExplanation {
  /** Its name. */
  name: string;
  /** Its owner. */
  owner?: string;
  /** Its layer. */
  layer?: string;
  /** Characters of its description. */
  descriptionChars: number;
  /** Characters of its parameters as JSON. */
  parametersChars: number;
  /** Estimated tokens. */
  tokens: number;
}

/**
 * What explainPrompt returns.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { explainPrompt } from "@dsh/system-prompt/inspect";
 *
 * assert.equal(explainPrompt({ sections: [], tools: [], variables: {} }).text, "");
 * ```
 */
export interface PromptExplanation {
  /** The prompt. */
  text: string;
  /** Rendered sections. */
  sections: SectionExplanation[];
  /** Dropped sections. */
  dropped: string[];
  /** Tools. */
  tools: ToolExplanation[];
  /** The runtime context. */
  context: {
    text: string;
    sections: SectionExplanation[];
    dropped: string[];
  };
  /** Sums. */
  totals: {
    chars: number;
    tokens: number;
    sections: number;
    tools: number;
    toolTokens: number;
  };
}

const GROUP = /\\\{\{|\{\{([^{}]*)\}\}/g;
const NAME = /^[ \t]*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)[ \t]*$/;
const RANK: Record<Stability, number> = { static: 0, session: 1, step: 2 };
type Values = Record<string, unknown>;

function interpolate(
  text: string,
  values: Values,
  where: Where,
  refs: string[],
): string {
  let out = "";
  let last = 0;
  for (const m of text.matchAll(GROUP)) {
    out += text.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[1] === undefined) {
      out += "{{";
      continue;
    }
    const name = NAME.exec(m[1])?.[1];
    if (name === undefined) {
      throw failure(
        "malformed-reference",
        "render",
        where,
        `${JSON.stringify(m[0])} is not a reference`,
        { reference: m[0], offset: m.index },
      );
    }
    const at = { ...where, variable: name };
    if (!Object.hasOwn(values, name)) {
      const suggestion = closestName(name, Object.keys(values));
      throw failure(
        "unknown-variable",
        "render",
        at,
        `no variable "${name}" is registered${didYouMean(suggestion)}`,
        { suggestion },
      );
    }
    const value = values[name];
    if (value === undefined) {
      throw failure("missing-value", "render", at, "it has no value");
    }
    if (typeof value !== "string") {
      throw failure("invalid-value", "render", at, "its value is no string");
    }
    if (!refs.includes(name)) refs.push(name);
    out += value;
  }
  return out + text.slice(last);
}

interface Rendered {
  text: string;
  variables: string[];
  stability: Stability;
  items?: ItemExplanation[];
}

function shift(item: ItemExplanation, by: number): ItemExplanation {
  return {
    ...item,
    separatorStart: item.separatorStart + by,
    start: item.start + by,
    end: item.end + by,
    ...(item.items ? { items: item.items.map((i) => shift(i, by)) } : {}),
  };
}

function renderPart(
  part: AssembledItem,
  values: Values,
  where: Where,
  path: string[],
): Rendered {
  const refs: string[] = [];
  const own = (text: string) => {
    const out = part.literal === true
      ? text
      : interpolate(text, values, where, refs);
    return part.trim === false ? out : out.trim();
  };
  let text = own(part.text);
  let stability = part.stability ?? "static";
  if (part.list === undefined) return { text, variables: refs, stability };
  const list = part.list;
  const items: ItemExplanation[] = [];
  const seen = new Set<string>();
  const inner = [...path, part.name];
  for (const item of part.items ?? []) {
    const at: Where = {
      ...(where.section !== undefined ? { section: where.section } : {}),
      ...(where.context !== undefined ? { context: where.context } : {}),
      item: item.name,
      list: inner,
      owner: item.owner,
    };
    const r = renderPart(item, values, at, inner);
    if (r.text === "" || (list.dedupe === true && seen.has(r.text))) continue;
    seen.add(r.text);
    const separatorStart = text.length;
    if (items.length > 0) text += item.separator ?? list.separator ?? "\n";
    else if (text !== "") {
      text += list.headingSeparator ?? list.separator ?? "\n";
    }
    const start = text.length;
    text += r.text;
    if (RANK[r.stability] > RANK[stability]) stability = r.stability;
    items.push(explained(item, r, separatorStart, start, text.length));
  }
  if (items.length === 0) text = list.empty ?? "";
  else if (list.footer !== undefined) {
    const footer = own(list.footer);
    if (footer !== "") {
      text += (list.footerSeparator ?? list.separator ?? "\n") + footer;
    }
  }
  return { text, variables: refs, stability, items };
}

function explained(
  part: AssembledItem,
  r: Rendered,
  separatorStart: number,
  start: number,
  end: number,
): ItemExplanation {
  const e: ItemExplanation = {
    name: part.name,
    order: part.order,
    stability: r.stability,
    separatorStart,
    start,
    end,
    chars: end - start,
    tokens: estimateTokens(r.text),
    variables: r.variables,
  };
  if (part.owner !== undefined) e.owner = part.owner;
  if (part.layer !== undefined) e.layer = part.layer;
  if (part.shadows !== undefined) e.shadows = part.shadows;
  if (r.items !== undefined) e.items = r.items.map((i) => shift(i, start));
  return e;
}

function explainSequence(
  parts: readonly AssembledItem[],
  kind: PartKind,
  values: Values,
  separator: string,
) {
  let text = "";
  const sections: SectionExplanation[] = [];
  const dropped: string[] = [];
  for (const part of parts) {
    const name = (part as { name?: unknown } | null)?.name;
    const where: Where = {
      [kind]: typeof name === "string" ? name : "?",
      owner: (part as { owner?: string } | null)?.owner,
    };
    checkPart(part, { kind, mode: "assembled", action: "render", where });
    const r = renderPart(part, values, where, []);
    if (r.text === "") {
      dropped.push(part.name);
      continue;
    }
    const separatorStart = text.length;
    if (text !== "") text += part.separator ?? separator;
    const start = text.length;
    text += r.text;
    sections.push(explained(part, r, separatorStart, start, text.length));
  }
  return { text, sections, dropped };
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

/**
 * TEMPORARY stand-in: renders an assembly and says who owns each part.
 *
 * @param assembly The assembly.
 * @returns The explanation.
 * @throws {PromptError} As `renderPrompt` does.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { explainPrompt } from "@dsh/system-prompt/inspect";
 *
 * const e = explainPrompt({ sections: [{ name: "a", order: 0, text: "A" }], tools: [], variables: {} });
 * assert.equal(e.text, "A");
 * ```
 */
export function explainPrompt(assembly: PromptAssembly): PromptExplanation {
  const a = assembly as Partial<PromptAssembly> | null;
  const separator = a?.separator ?? "\n\n";
  if (
    typeof a !== "object" || a === null || !Array.isArray(a.sections) ||
    !Array.isArray(a.tools) || typeof a.variables !== "object" ||
    a.variables === null ||
    (a.contexts !== undefined && !Array.isArray(a.contexts)) ||
    typeof separator !== "string"
  ) {
    throw new PromptError(
      "invalid-value",
      "Cannot render the prompt: not an assembly",
    );
  }
  const values = a.variables as Values;
  const prompt = explainSequence(a.sections, "section", values, separator);
  const context = explainSequence(
    a.contexts ?? [],
    "context",
    values,
    separator,
  );
  const tools = a.tools.map((tool, i) => {
    if (
      typeof tool !== "object" || tool === null || typeof tool.name !== "string"
    ) {
      throw new PromptError(
        "invalid-value",
        `Cannot render tool #${i}: not a tool`,
      );
    }
    const description = typeof tool.description === "string"
      ? tool.description
      : "";
    const parameters = json(tool.parameters);
    const t: ToolExplanation = {
      name: tool.name,
      descriptionChars: description.length,
      parametersChars: parameters.length,
      tokens: estimateTokens(tool.name + description + parameters),
    };
    const owner = toolOwner(tool);
    const layer = toolLayer(tool);
    if (owner !== undefined) t.owner = owner;
    if (layer !== undefined) t.layer = layer;
    return t;
  });
  return {
    ...prompt,
    tools,
    context,
    totals: {
      chars: prompt.text.length,
      tokens: estimateTokens(prompt.text),
      sections: prompt.sections.length,
      tools: tools.length,
      toolTokens: tools.reduce((sum, t) => sum + t.tokens, 0),
    },
  };
}
