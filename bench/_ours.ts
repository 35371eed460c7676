/**
 * Ours, one agent step: the one place every bench's "ours" goes through.
 *
 * - {@linkcode oursStep}: `prompt.render(context, { agent })` where the
 *   registry has it (one call per step: prompt, tools and runtime context),
 *   else `assemble()` + `renderPrompt()` (+ `renderContext()` when the
 *   package exports it), which is what `render()` must equal byte for byte.
 *   {@linkcode RENDER_PATH} says which one ran, and the report prints it.
 * - {@linkcode handlerPathStep}: `assemble()` + `renderPrompt()` always, the
 *   path a host with assemble handlers takes, timed on its own.
 *
 * Only the public entry point is used, so the benches survive any rewrite
 * of the internals; once `render()` exists, re-running the report is all it
 * takes for every "ours" figure to be render's.
 *
 * @module
 */

import * as library from "@dsh/system-prompt";
import type {
  AssembleOptions,
  PromptAssembly,
  SystemPrompt,
  ToolSchema,
} from "@dsh/system-prompt";

/** What one step of ours hands the model. */
export interface OursResult {
  prompt: string;
  tools: readonly ToolSchema[];
  /** The runtime context text; `""` where the package has none yet. */
  context: string;
}

/** One step of ours. */
export type OursStep<C> = (context: C) => Promise<OursResult>;

/** `render()` as docs/guide.md (one call per step) describes it, where the registry has it. */
type Render<C> = (
  context: C,
  options?: AssembleOptions & { agent?: unknown },
) => Promise<OursResult>;

const renderContext = (library as unknown as Record<string, unknown>)
  .renderContext as ((assembly: PromptAssembly) => string) | undefined;

function renderOf<C>(prompt: SystemPrompt<C>): Render<C> | undefined {
  const render = (prompt as unknown as { render?: unknown }).render;
  return typeof render === "function" ? render as Render<C> : undefined;
}

/** Which path {@linkcode oursStep} takes with this package. */
export const RENDER_PATH: string = renderOf(new library.SystemPrompt())
  ? "prompt.render(context, { agent })"
  : `assemble() + renderPrompt()${
    renderContext ? " + renderContext()" : ""
  } (no render() yet)`;

/**
 * Ours on `prompt`: `render(context, { agent })` when the registry has it,
 * else assemble and render. `agent` is the key of the agent this step
 * belongs to (one per agent; a fresh object when left out).
 */
export function oursStep<C>(
  prompt: SystemPrompt<C>,
  agent: unknown = {},
): OursStep<C> {
  const render = renderOf(prompt);
  if (render !== undefined) {
    const options = { agent };
    return (context) => render.call(prompt, context, options);
  }
  const assemble = prompt.assemble as (context: C) => Promise<PromptAssembly>;
  return async (context) => {
    const assembly = await assemble.call(prompt, context);
    return {
      prompt: library.renderPrompt(assembly),
      tools: assembly.tools,
      context: renderContext === undefined ? "" : renderContext(assembly),
    };
  };
}

/**
 * The handler path: `renderPrompt(await prompt.assemble(context))`,
 * whether `render()` exists or not; `audit` turns the waterfall audit on.
 */
export function handlerPathStep<C>(
  prompt: SystemPrompt<C>,
  audit = false,
): OursStep<C> {
  const options = { audit };
  const assemble = prompt.assemble as (
    context: C,
    options: AssembleOptions,
  ) => Promise<PromptAssembly>;
  return async (context) => {
    const assembly = await assemble.call(prompt, context, options);
    return {
      prompt: library.renderPrompt(assembly),
      tools: assembly.tools,
      context: "",
    };
  };
}
