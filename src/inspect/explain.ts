/**
 * `explainPrompt`: the rendered prompt with who owns each part of it.
 *
 * @module
 */

import { estimateTokens } from "./estimate_tokens.ts";
import {
  needsOwnCheck,
  promptSeparator,
  renderSection,
  sectionSeparator,
} from "../render/render.ts";
import { joinList, listParts } from "../render/_render_list.ts";
import {
  explainItems,
  type ItemExplanation,
  moreVolatile,
} from "./item_explanation.ts";
import { referencedVariables } from "./_referenced_variables.ts";
import { toolOwner } from "../core/tool_owner.ts";
import type { Stability } from "../core/types.ts";
import type { PromptAssembly } from "../core/types.ts";

/**
 * One rendered section of an explained prompt.
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
  /**
   * The most volatile of the section's declared stability (`"static"` when
   * none was declared) and its rendered items'.
   */
  stability: Stability;
  /**
   * A list's rendered items, in prompt order: the heading, then each item
   * after its separator, tile `[start, end)`. Empty when the list renders
   * its `empty` text; absent for a section that is not a list. A list's own
   * `variables` are its heading's.
   */
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
  /** Characters of its description. */
  descriptionChars: number;
  /** Characters of its `parameters` as JSON. */
  parametersChars: number;
  /** `estimateTokens` of name, description and parameters JSON together. */
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
  /** Sums: prompt characters and tokens, counts, tokens of all tools. */
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
 * each rendered section its owner, order, `[start, end)` span in the text,
 * size, estimated tokens and the variables it referenced; for each tool its
 * owner and sizes; and totals. `text` is exactly `renderPrompt(assembly)`.
 *
 * @param assembly The assembly, usually from `SystemPrompt.assemble()`.
 * @returns The explanation.
 * @throws {PromptError} As `renderPrompt` does.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderPrompt, SystemPrompt } from "@dsh/system-prompt";
 * import { explainPrompt } from "@dsh/system-prompt/inspect";
 *
 * const prompt = new SystemPrompt();
 * prompt.scope("agent-loop").section({ name: "agent:persona", order: 0, text: "I am {{model}}." });
 * prompt.scope("agent-loop").variable("model", () => "m-1");
 * prompt.scope("bash").section({ name: "tool:bash", order: 105, text: "Check exit codes." });
 * const assembly = await prompt.assemble();
 * const explained = explainPrompt(assembly);
 * assert.equal(explained.text, renderPrompt(assembly));
 * const bash = explained.sections[1]!;
 * assert.equal(explained.text.slice(bash.start, bash.end), "Check exit codes.");
 * assert.equal(bash.owner, "bash");
 * ```
 */
export function explainPrompt(assembly: PromptAssembly): PromptExplanation {
  const checkOwn = needsOwnCheck(assembly.variables);
  const separator = promptSeparator(assembly);
  const sections: SectionExplanation[] = [];
  const dropped: string[] = [];
  let text = "";
  for (let i = 0; i < assembly.sections.length; i++) {
    const section = assembly.sections[i]!;
    const spans: number[] = [];
    const parts = section.list === undefined
      ? undefined
      : listParts(assembly, i, checkOwn);
    const rendered = parts === undefined
      ? renderSection(assembly, i, checkOwn)
      : joinList(parts, spans);
    if (rendered === "") {
      dropped.push(section.name);
      continue;
    }
    const before = sectionSeparator(section, separator);
    const separatorStart = text.length;
    if (text !== "") text += before;
    const start = text.length;
    text += rendered;
    const explained: SectionExplanation = {
      name: section.name,
      order: section.order,
      stability: section.stability ?? "static",
      separatorStart,
      start,
      end: text.length,
      chars: rendered.length,
      tokens: estimateTokens(rendered),
      variables: referencedVariables(section.text, section),
    };
    if (section.owner !== undefined) explained.owner = section.owner;
    if (parts !== undefined) {
      explained.items = explainItems(section, parts, spans, start, text);
      explained.stability = explained.items.reduce(
        (most, item) => moreVolatile(most, item.stability),
        explained.stability,
      );
    }
    sections.push(explained);
  }
  const tools = assembly.tools.map((tool) => {
    const parameters = JSON.stringify(tool.parameters) ?? "";
    const explained: ToolExplanation = {
      name: tool.name,
      descriptionChars: tool.description.length,
      parametersChars: parameters.length,
      tokens: estimateTokens(tool.name + tool.description + parameters),
    };
    const owner = toolOwner(tool);
    if (owner !== undefined) explained.owner = owner;
    return explained;
  });
  return {
    text,
    sections,
    dropped,
    tools,
    totals: {
      chars: text.length,
      tokens: estimateTokens(text),
      sections: sections.length,
      tools: tools.length,
      toolTokens: tools.reduce((sum, tool) => sum + tool.tokens, 0),
    },
  };
}
