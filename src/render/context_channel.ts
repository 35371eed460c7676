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
 * differs from the last text it saw, `undefined` otherwise. After `reset()`
 * (the history lost the last message, as after compaction) the next text
 * is sent again. One channel per agent; a render that throws changes
 * nothing.
 *
 * A context that cleared (every entry rendered empty after the model saw
 * some) is reported as `""`, once: the facts the model last saw are gone,
 * and only the host can say so. An empty message is no message (many APIs
 * refuse one), so a careful host sends its own words for it, such as "No
 * runtime context now: the earlier one no longer applies." An empty
 * context before any text was sent (or after `reset()`) is `undefined`:
 * the model has nothing to forget. So `undefined` always means "send
 * nothing", and a string always means "send this" (`""`: "say there is no
 * context now").
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { ContextChannel, type PromptAssembly } from "@dsh/system-prompt";
 *
 * const at = (time: string): PromptAssembly => ({
 *   sections: [],
 *   contexts: [{ name: "clock", order: 0, text: "{{time}}" }],
 *   tools: [],
 *   variables: { time },
 * });
 * const channel = new ContextChannel();
 * assert.equal(channel.next(at("")), undefined); // nothing to send yet
 * assert.equal(channel.next(at("It is 9:00.")), "It is 9:00.");
 * assert.equal(channel.next(at("It is 9:00.")), undefined);
 * assert.equal(channel.next("It is 9:05."), "It is 9:05.");
 * assert.equal(channel.next(at("")), ""); // cleared: say so in your words
 * assert.equal(channel.next(at("")), undefined);
 * channel.reset(); // the history lost it (compaction)
 * assert.equal(channel.next(at("It is 9:05.")), "It is 9:05.");
 * ```
 */
export class ContextChannel {
  #last: string | undefined;

  /**
   * The context text to send for this step, or `undefined` when the model
   * already has it or there is nothing to send.
   *
   * @param step The step's assembly, or its rendered `context` text.
   * @returns The text when it changed since the last one seen; `""` when
   * the context cleared after a non-empty one (the host says so in its own
   * words); `undefined` when there is nothing to send.
   * @throws {PromptError} As `renderContext` does.
   */
  next(step: PromptAssembly | string): string | undefined {
    const text = typeof step === "string" ? step : renderContext(step);
    const last = this.#last;
    if (text === last) return undefined;
    this.#last = text;
    // Empty before anything was sent: the model has nothing to forget.
    return text === "" && last === undefined ? undefined : text;
  }

  /** Forgets what was seen: the next context that renders is sent again. */
  reset(): void {
    this.#last = undefined;
  }
}
