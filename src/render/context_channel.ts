/**
 * What to send of the runtime context, step by step: the rendered text
 * when it changed since the last text sent, nothing otherwise.
 *
 * @module
 */

import type { PromptAssembly } from "../core/types.ts";
import { renderContext } from "./render.ts";

/**
 * Decides, for one agent, when the runtime context goes into the
 * conversation: `next()` returns the rendered context when it differs from
 * the last text it returned (the first non-empty text included), and
 * `undefined` otherwise. Call `reset()` when the history lost the last
 * message (after compaction): the next call returns the text again. A
 * context that renders `""` is never sent.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { ContextChannel, SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt<{ branch: string }>();
 * prompt.context({ name: "git", order: 0, text: (context) => `Branch: ${context.branch}` });
 * const channel = new ContextChannel();
 * assert.equal(channel.next(await prompt.assemble({ branch: "main" })), "Branch: main");
 * assert.equal(channel.next(await prompt.assemble({ branch: "main" })), undefined);
 * assert.equal(channel.next(await prompt.assemble({ branch: "dev" })), "Branch: dev");
 * channel.reset();
 * assert.equal(channel.next(await prompt.assemble({ branch: "dev" })), "Branch: dev");
 * ```
 */
export class ContextChannel {
  #last: string | undefined;

  /**
   * The context text to send with this step, or `undefined` for none.
   *
   * @param step An assembly, or the `context` string of a rendered step.
   * @returns The text when it changed, else `undefined`.
   * @throws {PromptError} As `renderContext()` does.
   */
  next(step: PromptAssembly | string): string | undefined {
    const text = typeof step === "string" ? step : renderContext(step);
    if (text === this.#last) return undefined;
    this.#last = text;
    return text === "" ? undefined : text;
  }

  /** Forgets the last text sent: the next `next()` returns it again. */
  reset(): void {
    this.#last = undefined;
  }
}
