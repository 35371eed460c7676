/**
 * `ContextChannel`: when to send the runtime context again.
 *
 * @module
 */

import type { PromptAssembly } from "../core/types.ts";
import { renderContext } from "./render.ts";

/**
 * Decides, step by step, whether an agent's runtime context must be sent:
 * `next()` takes the step's assembly (rendered as `renderContext` does) or
 * the `context` text of a rendered step, and returns the text when it
 * differs from the last text it saw, `undefined` otherwise. A context that
 * renders `""` is never returned (an empty message is no message; many
 * APIs refuse one), but it is remembered: when the facts come back, they
 * are sent again. After `reset()` (the history lost the last message, as
 * after compaction) the next text is sent again. One channel per agent; a
 * render that throws changes nothing.
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
 * assert.equal(channel.next("It is 9:05."), "It is 9:05.");
 * channel.reset(); // the history lost it (compaction)
 * assert.equal(channel.next(at("9:05")), "It is 9:05.");
 * ```
 */
export class ContextChannel {
  #last: string | undefined;

  /**
   * The context text to send for this step, or `undefined` when the model
   * already has it or there is nothing to send.
   *
   * @param step The step's assembly, or its rendered `context` text.
   * @returns The text when it changed since the last one seen and is not `""`.
   * @throws {PromptError} As `renderContext` does.
   */
  next(step: PromptAssembly | string): string | undefined {
    const text = typeof step === "string" ? step : renderContext(step);
    if (text === this.#last) return undefined;
    this.#last = text;
    return text === "" ? undefined : text;
  }

  /** Forgets what was seen: the next context that renders is sent again. */
  reset(): void {
    this.#last = undefined;
  }
}
