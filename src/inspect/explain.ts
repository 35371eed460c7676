/**
 * `explainPrompt`: the rendered prompt (and runtime context) with who owns
 * each part of it; and an explanation read as a tree of parts, the one
 * shape `comparePrompts` and `checkPrompt` walk.
 *
 * @module
 */

import type { PromptAssembly, Stability, ToolSchema } from "../core/types.ts";
import { describeValue, failure, unreadable } from "../core/errors.ts";
import { toolLayer, toolOwner } from "../core/tools.ts";
import { referencesOf } from "../render/_template.ts";
import { type PartSpan, renderAssembly } from "../render/_walk.ts";
import { tryRead } from "../core/_guards.ts";
import { defined } from "../core/_defined.ts";
import { estimateTokens } from "./estimate_tokens.ts";

/**
 * One rendered part of an explained prompt: an item of a list, and (as
 * {@linkcode SectionExplanation}) a section or context entry.
 * `[separatorStart, start)` is the separator before it and `[start, end)`
 * its text, so the parts and separators of a sequence tile the text.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { explainPrompt, type ItemExplanation } from "@dsh/system-prompt/inspect";
 *
 * const { text, sections } = explainPrompt({
 *   sections: [{
 *     name: "tools", order: 0, text: "Tools:", list: {},
 *     items: [{ name: "bash", order: 0, text: "- bash", owner: "bash" }],
 *   }],
 *   tools: [],
 *   variables: {},
 * });
 * const bash: ItemExplanation = sections[0]!.items![0]!;
 * assert.equal(text.slice(bash.start, bash.end), "- bash");
 * assert.equal(text.slice(bash.separatorStart, bash.start), "\n");
 * ```
 */
export interface ItemExplanation {
  /** Its name. */
  name: string;
  /** The owner; absent for the root registry. */
  owner?: string;
  /** The layer that registered it; absent for a global part. */
  layer?: string;
  /** The farther registration it shadows in its layer chain. */
  shadows?: { owner?: string; layer?: string };
  /** Its order. */
  order: number;
  /** Declared (`"static"` when not); a list's is its most volatile part's. */
  stability: Stability;
  /** Where the separator before it starts (`start` when there is none). */
  separatorStart: number;
  /** Where it starts in the text (UTF-16 index). */
  start: number;
  /** Where it ends, exclusive. */
  end: number;
  /** `end - start`. */
  chars: number;
  /** `estimateTokens` of the rendered text. */
  tokens: number;
  /** What its text (a list's heading and footer) references, in first-use order. */
  variables: string[];
  /** A nested list's rendered items: with heading and footer they tile `[start, end)`. */
  items?: ItemExplanation[];
}

/**
 * One rendered section (or context entry) of an explained prompt.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { explainPrompt, type SectionExplanation } from "@dsh/system-prompt/inspect";
 *
 * const [persona]: SectionExplanation[] = explainPrompt({
 *   sections: [{ name: "persona", order: 0, text: "I am {{model}}." }],
 *   tools: [],
 *   variables: { model: "m-1" },
 * }).sections;
 * assert.deepEqual([persona?.start, persona?.end, persona?.variables], [0, 9, ["model"]]);
 * ```
 */
export interface SectionExplanation extends ItemExplanation {
  /** A list's rendered items (`[]` when it renders `empty`); absent for a non-list. */
  items?: ItemExplanation[];
}

/**
 * One tool of an explained prompt.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { explainPrompt, type ToolExplanation } from "@dsh/system-prompt/inspect";
 *
 * const tools: ToolExplanation[] = explainPrompt({
 *   sections: [],
 *   tools: [{ name: "todo", description: "Tracks tasks.", parameters: {} }],
 *   variables: {},
 * }).tools;
 * assert.equal(tools[0]?.descriptionChars, 13);
 * ```
 */
export interface ToolExplanation {
  /** The tool's name. */
  name: string;
  /** The scope whose provider supplied it; absent for the root or a handler. */
  owner?: string;
  /** The layer whose provider supplied it; absent for a global one. */
  layer?: string;
  /** Characters of its description (0 when it has none). */
  descriptionChars: number;
  /** Characters of its `parameters` as JSON (0 when they cannot be written as JSON). */
  parametersChars: number;
  /**
   * `estimateTokens` of `{ name, description, parameters }` as JSON: what
   * `planCache` counts for a tool (host fields left out), so both agree.
   */
  tokens: number;
}

/**
 * What {@linkcode explainPrompt} returns.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { explainPrompt, type PromptExplanation } from "@dsh/system-prompt/inspect";
 *
 * const explained: PromptExplanation = explainPrompt({ sections: [], tools: [], variables: {} });
 * assert.deepEqual(explained.totals, { chars: 0, tokens: 0, sections: 0, tools: 0, toolTokens: 0 });
 * assert.deepEqual(explained.context, { text: "", sections: [], dropped: [] });
 * ```
 */
export interface PromptExplanation {
  /** The prompt, exactly as `renderPrompt` returns it. */
  text: string;
  /** The sections that rendered to something, in prompt order. */
  sections: SectionExplanation[];
  /** Sections that rendered empty and were dropped. */
  dropped: string[];
  /** The tools, in assembly order. */
  tools: ToolExplanation[];
  /** The runtime context, explained the same way against `renderContext`'s text. */
  context: { text: string; sections: SectionExplanation[]; dropped: string[] };
  /** Sums for the prompt (not the context): characters, tokens, counts, tokens of all tools. */
  totals: {
    chars: number;
    tokens: number;
    sections: number;
    tools: number;
    toolTokens: number;
  };
}

/**
 * Renders an assembly once and says who owns each part of the result: for
 * each rendered section, item and nested item its owner, layer, order,
 * stability, span, separator, size, tokens and variables; the runtime
 * context (`assembly.contexts`) likewise against `renderContext`'s text;
 * each tool's owner and sizes (0 for a missing description, or parameters
 * JSON cannot write: a cycle, a BigInt); and totals. `text` is exactly
 * `renderPrompt(assembly)`.
 *
 * @param assembly The assembly, usually from `SystemPrompt.assemble()`.
 * @returns The explanation.
 * @throws {PromptError} As `renderPrompt` and `renderContext` do;
 * `invalid-value` for `tools` that are not an array or throw when read.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderPrompt, SystemPrompt } from "@dsh/system-prompt";
 * import { explainPrompt } from "@dsh/system-prompt/inspect";
 *
 * const prompt = new SystemPrompt();
 * prompt.scope("agent-loop").section({ name: "persona", order: 0, text: "I am {{model}}." });
 * prompt.scope("agent-loop").variable("model", () => "m-1");
 * prompt.scope("bash").section({ name: "tool:bash", order: 105, text: "Check exit codes." });
 * const assembly = await prompt.assemble();
 * const { text, sections } = explainPrompt(assembly);
 * assert.equal(text, renderPrompt(assembly));
 * assert.deepEqual([sections[1]!.owner, text.slice(sections[1]!.start)], ["bash", "Check exit codes."]);
 * ```
 */
export function explainPrompt(assembly: PromptAssembly): PromptExplanation {
  const prompt = explainSequence(assembly, "section");
  const context = explainSequence(assembly, "context");
  const tools = explainTools(assembly);
  const { text, sections } = prompt;
  const toolTokens = tools.reduce((sum, tool) => sum + tool.tokens, 0);
  const size = { chars: text.length, tokens: estimateTokens(text) };
  const count = { sections: sections.length, tools: tools.length, toolTokens };
  return { ...prompt, tools, context, totals: { ...size, ...count } };
}

/** One channel rendered and explained: the system prompt's or the runtime context's. */
export type Explained = PromptExplanation["context"];

/** Stabilities from the least volatile. */
const VOLATILITY: readonly Stability[] = ["static", "session", "step"];

/**
 * Explains one channel: the system prompt (`"section"`) or the runtime
 * context; a list is as volatile as its most volatile item.
 */
export function explainSequence(
  assembly: PromptAssembly,
  kind: "section" | "context",
): Explained {
  const spans: PartSpan[] = [];
  const dropped: string[] = [];
  const text = renderAssembly(assembly, { kind, spans, dropped });
  // A span's positions are relative to `at`, the start of the part holding it.
  const explain = (span: PartSpan, at: number): ItemExplanation => {
    const [start, end] = [at + span.start, at + span.end];
    const { name, order, stability = "static", owner, layer, shadows } =
      span.part;
    const explained: ItemExplanation = defined({
      name,
      order,
      stability,
      separatorStart: at + span.separatorStart,
      start,
      end,
      chars: end - start,
      tokens: estimateTokens(text.slice(start, end)),
      variables: [...referencesOf(span.part, new Set())],
      owner,
      layer,
      shadows: shadows && { ...shadows },
    });
    if (span.items === undefined) return explained;
    explained.items = span.items.map((item) => explain(item, start));
    const parts = [explained, ...explained.items];
    const most = Math.max(...parts.map((p) => VOLATILITY.indexOf(p.stability)));
    explained.stability = VOLATILITY[most]!;
    return explained;
  };
  return { text, sections: spans.map((span) => explain(span, 0)), dropped };
}

/** The tools of an assembly that rendered, explained. */
function explainTools(assembly: PromptAssembly): ToolExplanation[] {
  const action = "explain the prompt";
  try {
    const given: unknown = assembly.tools;
    if (!Array.isArray(given)) {
      const state = `its tools are ${describeValue(given)}, not an array`;
      throw failure("invalid-value", action, {}, state);
    }
    return given.map(explainTool);
  } catch (error) {
    throw unreadable(error, action, {}, "its tools");
  }
}

/** A tool as a handler may have left it. */
type Loose = Partial<Record<keyof ToolSchema, unknown>>;

/** What can be counted of a tool, whatever a handler left in it. */
function explainTool(tool: ToolSchema): ToolExplanation {
  const { name, description, parameters }: Loose = tool ?? {};
  // A cycle or a BigInt: the parameters are not counted.
  const json = tryRead(() => JSON.stringify(parameters)) ?? "";
  const named = typeof name === "string" ? name : "";
  const described = typeof description === "string" ? description : "";
  return defined({
    name: named,
    descriptionChars: described.length,
    parametersChars: json.length,
    // The JSON planCache counts; unwritable parameters are left out.
    tokens: estimateTokens(
      json === ""
        ? JSON.stringify({ name: named, description: described })
        : `{"name":${JSON.stringify(named)},"description":${
          JSON.stringify(described)
        },"parameters":${json}}`,
    ),
    owner: toolOwner(tool),
    layer: toolLayer(tool),
  });
}

/**
 * An explained part as `comparePrompts` and `checkPrompt` read it: with the
 * lists above it, its `key` (the separator before it and its text), its
 * `own` text (without its items: a list's heading and footer) and its items.
 */
export type Part = ItemExplanation & Keyed & { children?: Part[] };
type Keyed = { list: string[]; key: string; own: string };

/**
 * The parts of an explained channel, with their items at any depth; with
 * `all`, every part collected there too, each before its items.
 */
export function partsOf({ text, sections }: Explained, all?: Part[]): Part[] {
  const of = (parts: ItemExplanation[], list: string[]): Part[] =>
    parts.map((explained) => {
      const { separatorStart, start, end, items } = explained;
      const [first, last] = [items?.[0], items?.at(-1)];
      // Its items, each after its separator, tile it between heading and footer.
      const own = first === undefined
        ? text.slice(start, end)
        : text.slice(start, first.separatorStart) + text.slice(last!.end, end);
      const key = text.slice(separatorStart, end);
      const part: Part = { ...explained, list, key, own };
      all?.push(part);
      if (items) part.children = of(items, [...list, explained.name]);
      return part;
    });
  return of(sections, []);
}
