/**
 * `ContextChannel`: when to send the runtime context again.
 *
 * @module
 */

import type { PromptAssembly } from "../core/types.ts";
import { renderContext } from "./render.ts";

/**
 * Decides, step by step, whether an agent's runtime context must be sent:
 * `next(assembly)` renders it (as `renderContext` does; `next(step.context)`
 * takes what `render()` gave) and returns the
 * text when it differs from the last text it returned, `undefined`
 * otherwise. Before anything was sent (and after `reset()`), a context that
 * renders `""` is not sent either: there is nothing to tell. Once something
 * was sent, a change to `""` is returned as `""`, so that the host can say
 * that the facts it sent no longer hold (or send nothing). One channel per
 * agent; a render that throws changes nothing.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { ContextChannel, type PromptAssembly } from "@dsh/system-prompt";
 *
 * const at = (time: string): PromptAssembly => ({
 *   sections: [],
 *   contexts: [{ name: "clock", order: 0, text: "It is {{time}}." }],
 *   tools: [],
 *   variables: { time },
 * });
 * const channel = new ContextChannel();
 * assert.equal(channel.next(at("9:00")), "It is 9:00.");
 * assert.equal(channel.next(at("9:00")), undefined);
 * assert.equal(channel.next(at("9:05")), "It is 9:05.");
 * channel.reset(); // the history lost it (compaction)
 * assert.equal(channel.next(at("9:05")), "It is 9:05.");
 * ```
 */
export class ContextChannel {
  #sent: string | undefined;

  /**
   * The context text to send for this step, or `undefined` when the model
   * already has it.
   *
   * @param step The step's assembly, or the `context` text `render()` gave.
   * @returns The text when it changed since the last one returned.
   * @throws {PromptError} As `renderContext` does.
   */
  next(step: PromptAssembly | string): string | undefined {
    const text = typeof step === "string" ? step : renderContext(step);
    if (text === (this.#sent ?? "")) return undefined;
    this.#sent = text;
    return text;
  }

  /** Forgets what was sent: the next context that renders is sent again. */
  reset(): void {
    this.#sent = undefined;
  }
}
