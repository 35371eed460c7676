/**
 * `explainPrompt`: the rendered prompt (and runtime context) with who owns
 * each part of it, and what each tool costs.
 *
 * @module
 */

import type { PromptAssembly, ToolSchema } from "../core/types.ts";
import { describeValue } from "../core/_describe.ts";
import { failure, unreadable } from "../core/_messages.ts";
import { toolLayer, toolOwner } from "../core/tools.ts";
import { tryRead } from "../core/_guards.ts";
import { defined } from "../core/_defined.ts";
import { estimateTokens } from "./estimate_tokens.ts";
import type { PromptExplanation, ToolExplanation } from "./explanation.ts";
import { explainSequence } from "./_sequence.ts";

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

/** The tools of an assembly that rendered, explained. */
function explainTools(assembly: PromptAssembly): ToolExplanation[] {
  const action = "explain the prompt";
  try {
    const given: unknown = assembly.tools;
    if (!Array.isArray(given)) {
      const state = `its tools are ${describeValue(given)}, not an array`;
      throw failure({ code: "invalid-value", action, problem: state });
    }
    return given.map(explainTool);
  } catch (error) {
    throw unreadable(error, { action, what: "its tools" });
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
