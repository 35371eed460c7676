/**
 * The shapes of an explanation: what `explainPrompt` says of each section,
 * item and tool of an assembly, and of the prompt as a whole.
 *
 * @module
 */

import type { Stability } from "../core/types.ts";

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
