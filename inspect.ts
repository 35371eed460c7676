/**
 * Who owns each line of the prompt: introspection for an assembly that
 * `SystemPrompt.assemble()` produced.
 *
 * - {@linkcode explainPrompt}: the rendered prompt with each section's owner,
 *   span, size and variables, and each tool's owner and size.
 * - {@linkcode comparePrompts}: why a provider's prompt cache missed between
 *   two steps: the tools, the section (or item) that broke the cached
 *   prefix, and the runtime context on its own.
 * - {@linkcode cacheBlocks}: the prompt split where cache breakpoints pay.
 * - {@linkcode checkPrompt}: what would fail, or read worse, before the
 *   first step.
 * - {@linkcode estimateTokens}, {@linkcode toolOwner}, {@linkcode toolLayer},
 *   {@linkcode toolStability}.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 * import { checkPrompt, explainPrompt } from "@dsh/system-prompt/inspect";
 *
 * const prompt = new SystemPrompt();
 * prompt.scope("agent-loop").section({ name: "agent:persona", order: 0, text: "I am {{model}}." });
 * prompt.scope("agent-loop").variable("model", () => "m-1");
 * prompt.scope("bash").section({ name: "tool:bash", order: 105, text: "Check exit codes." });
 *
 * assert.deepEqual(await checkPrompt(prompt), []);
 * const { sections } = explainPrompt(await prompt.assemble());
 * assert.deepEqual(sections.map((s) => [s.owner, s.start, s.end]), [
 *   ["agent-loop", 0, 9],
 *   ["bash", 11, 28],
 * ]);
 * ```
 *
 * @module
 */

export * from "./src/inspect/cache_blocks.ts";
export * from "./src/inspect/check.ts";
export * from "./src/inspect/compare.ts";
export * from "./src/inspect/diagnostics.ts";
export * from "./src/inspect/estimate_tokens.ts";
export * from "./src/inspect/explain.ts";
export * from "./src/inspect/explanation.ts";
export * from "./src/core/tools.ts";
