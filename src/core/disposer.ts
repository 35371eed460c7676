/**
 * Undo functions for registrations.
 *
 * @module
 */

/**
 * Undoes one registration: call it, or let `using` dispose it. Idempotent:
 * every call after the first does nothing.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 *
 * const prompt = new SystemPrompt();
 * {
 *   using _habit = prompt.section({ name: "habit", order: 105, text: "Be brief." });
 *   assert.equal((await prompt.assemble()).sections.length, 1);
 * }
 * assert.equal((await prompt.assemble()).sections.length, 0);
 * ```
 */
export interface Disposer extends Disposable {
  /** Unregisters; later calls do nothing. */
  (): void;
}

/** Wraps `undo` so that it runs once, however often it is called. */
export function createDisposer(undo: () => void): Disposer {
  let done = false;
  const dispose = (() => {
    if (done) return;
    done = true;
    undo();
  }) as Disposer;
  dispose[Symbol.dispose] = dispose;
  return dispose;
}
