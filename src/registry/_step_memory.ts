/**
 * The step memory: each agent's last `render()` step, per registry. String
 * keys (and other primitives) live in a least-recently-used map of
 * `AGENT_MEMORY`; object keys in a `WeakMap`, so an agent object that is
 * gone takes its memory with it. A step that fails forgets its agent: the
 * next one renders everything. Covered by tests/render_memory_test.ts and
 * tests/render_again_test.ts.
 *
 * @module
 */

import type { AssembledItem, RenderedStep } from "../core/types.ts";
import type { Rendered } from "../render/_blocks.ts";
import type { Snapshot } from "./_snapshot.ts";
import type { BlocksCell } from "./_step_blocks.ts";
import type { ToolRecord } from "./_tool_records.ts";

/** How many string-keyed agents are remembered; object keys are weak. */
const AGENT_MEMORY = 1024;

/**
 * What an agent's last step keeps, so that its next step does no work for
 * what did not change: the snapshot it ran on (a new snapshot means a
 * registration came or went, and nothing of this is reused), what every
 * call answered (compared call by call with the next step's answers), the
 * tool records (the same array when no tool changed), the step returned
 * (returned again, as it is, when nothing changed), and per top-level part
 * the part built, its rendered text, its blocks and the variables it
 * references (kept while its own calls answer the same and no variable it
 * references changed).
 */
export interface LastStep {
  readonly snapshot: Snapshot;
  readonly values: readonly unknown[];
  readonly records: readonly ToolRecord[];
  readonly step: RenderedStep;
  /** Each top-level part (sections, then context entries) as built. */
  readonly parts: readonly (AssembledItem | undefined)[];
  /** Each top-level part's rendered text, `""` when it dropped out. */
  readonly texts: readonly (string | undefined)[];
  /** Each top-level section as cut into blocks, while its part and text stand. */
  readonly cut: (Rendered | undefined)[];
  /** The step's blocks, joined when first read; shared while they stand. */
  readonly cell: BlocksCell;
  /** The variables each part's texts reference, found when first asked. */
  readonly uses: (ReadonlySet<string> | undefined)[];
  /** The step's variables, updated in place by the next changed step. */
  readonly variables: Record<string, string | undefined>;
}

/** An object key is remembered weakly, any other in the bounded map. */
const isObject = (agent: unknown): agent is object =>
  typeof agent === "object" && agent !== null || typeof agent === "function";

/** The registry's memory of each agent's last step. */
export class StepMemory {
  readonly #byString = new Map<unknown, LastStep>();
  readonly #byObject = new WeakMap<object, LastStep>();

  get(agent: unknown): LastStep | undefined {
    if (isObject(agent)) return this.#byObject.get(agent);
    const last = this.#byString.get(agent);
    // Most recently used last, so the oldest goes first.
    if (last !== undefined) this.set(agent, last);
    return last;
  }

  /** Remembers `last` as `agent`'s last step, or forgets it (`undefined`). */
  set(agent: unknown, last: LastStep | undefined): void {
    const map = isObject(agent) ? this.#byObject : this.#byString;
    map.delete(agent as object);
    if (last !== undefined) map.set(agent as object, last);
    if (this.#byString.size > AGENT_MEMORY) {
      this.#byString.delete(this.#byString.keys().next().value);
    }
  }
}
