/**
 * Assembles the system prompt of an LLM agent on every step of its loop.
 *
 * Plugins contribute ordered text sections, tool schemas and named
 * `{{variables}}` to a {@linkcode SystemPrompt}, each through a scope that
 * names its owner. The agent loop calls `assemble(context)` once per step;
 * `system-prompt/assemble` handlers may reshape the result; and
 * {@linkcode renderPrompt} returns the full prompt, throwing a
 * {@linkcode PromptError} for any reference it cannot resolve. Every fact in
 * the prompt has exactly one owner.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderPrompt, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt<{ model?: string }>();
 * const loop = prompt.scope("agent-loop");
 * loop.section({ name: "agent:persona", order: 0, text: "You are {{model}}." });
 * loop.variable("model", (context) => context.model);
 *
 * const bash = prompt.scope("bash");
 * bash.section({ name: "tool:bash", order: 105, text: "Check every exit code." });
 * bash.tools(() => [{ name: "bash", description: "Runs a command.", parameters: {} }]);
 *
 * const assembly = await prompt.assemble({ model: "m-1" });
 * assert.equal(renderPrompt(assembly), "You are m-1.\n\nCheck every exit code.");
 * assert.deepEqual(assembly.tools.map((tool) => tool.name), ["bash"]);
 *
 * bash.dispose(); // the plugin unloads: its section and tools go with it
 * assert.equal(renderPrompt(await prompt.assemble({ model: "m-1" })), "You are m-1.");
 * ```
 *
 * @module
 */

export {
  type CacheBlock,
  cacheBlocks,
  type CacheBlocksOptions,
} from "./src/cache_blocks.ts";
export type { DiagnosticCode, PromptDiagnostic } from "./src/check.ts";
export {
  comparePrompts,
  type PrefixBreak,
  type PromptComparison,
} from "./src/compare.ts";
export type { Disposer } from "./src/disposer.ts";
export { estimateTokens } from "./src/estimate_tokens.ts";
export {
  explainPrompt,
  type PromptExplanation,
  type SectionExplanation,
  type ToolExplanation,
} from "./src/explain.ts";
export {
  PromptError,
  type PromptErrorCode,
  type PromptErrorOptions,
} from "./src/errors.ts";
export { isReferenceName } from "./src/reference_name.ts";
export { renderPrompt } from "./src/render.ts";
export type { PromptRegistrar } from "./src/registrar.ts";
export type { PromptScope } from "./src/scope.ts";
export {
  type AssembleArgs,
  type AssembleOptions,
  SystemPrompt,
  type SystemPromptOptions,
} from "./src/system_prompt.ts";
export { toolOwner } from "./src/tool_owner.ts";
export type * from "./src/types.ts";
