/**
 * Assembles the system prompt of an LLM agent on every step of its loop.
 *
 * Plugins contribute ordered text sections, runtime-context entries, tool
 * schemas and named `{{variables}}` to a {@linkcode SystemPrompt}, each
 * through a scope that names its owner, and agents get layers of their own. The agent loop calls `assemble(context)` once per step;
 * `system-prompt/assemble` handlers may reshape the result; and
 * {@linkcode renderPrompt} returns the full prompt, throwing a
 * {@linkcode PromptError} for any reference it cannot resolve. Every fact in
 * the prompt has exactly one owner.
 *
 * This entry point is what an agent loop needs. The tools that tell who owns
 * each line of the prompt, why a provider's cache missed and what to fix
 * before the first step are in `@dsh/system-prompt/inspect`.
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

export * from "./src/core/types.ts";
export * from "./src/core/tool_order.ts";
export * from "./src/core/errors.ts";
export * from "./src/core/names.ts";
export * from "./src/core/fingerprint.ts";
export * from "./src/render/render.ts";
export * from "./src/render/escape_template.ts";
export * from "./src/render/context_channel.ts";
export * from "./src/registry/system_prompt.ts";
