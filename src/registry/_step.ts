/**
 * `render()`: one call per step. Without handlers, a step whose every
 * provider answered what it answered last time for the same agent returns
 * that agent's last step without building anything; a changed step builds
 * the assembly and renders it. Each agent's memory is bounded: string keys
 * in a least-recently-used map, object keys in a WeakMap.
 *
 * @module
 */

import type {
  PromptAssembly,
  RenderedStep,
  ToolSchema,
} from "../core/types.ts";
import { renderContext, renderPrompt } from "../render/render.ts";
import { renderAssembly, type RenderHow } from "../render/_walk.ts";
import { assemble, type AssembleState } from "./_assemble.ts";
import { readProvided, sameItems } from "./_parts.ts";
import { build, resolveStep, toolRecords } from "./_resolve.ts";
import { setToolOwner, toolLayer, toolOwner } from "../core/tools.ts";
import type { Snapshot } from "./_snapshot.ts";
import type { ToolRecord } from "./_tools.ts";

/** How many string-keyed agents are remembered; object keys are weak. */
export const AGENT_MEMORY = 1024;

interface Last {
  readonly snapshot: Snapshot;
  readonly values: readonly unknown[];
  readonly records: readonly ToolRecord[];
  readonly step: RenderedStep;
}

const NO_AGENT = Symbol("no agent");
const OWN_SECTIONS: RenderHow = { kind: "section", own: true };
const OWN_CONTEXTS: RenderHow = { kind: "context", own: true };

/** The registry's memory of each agent's last step. */
export class StepMemory {
  readonly #byString = new Map<unknown, Last>();
  readonly #byObject = new WeakMap<object, Last>();

  get(agent: unknown): Last | undefined {
    if (
      typeof agent === "object" && agent !== null || typeof agent === "function"
    ) {
      return this.#byObject.get(agent as object);
    }
    const last = this.#byString.get(agent);
    if (last !== undefined) {
      // Most recently used last, so the oldest goes first.
      this.#byString.delete(agent);
      this.#byString.set(agent, last);
    }
    return last;
  }

  set(agent: unknown, last: Last): void {
    if (
      typeof agent === "object" && agent !== null || typeof agent === "function"
    ) {
      this.#byObject.set(agent as object, last);
      return;
    }
    this.#byString.delete(agent);
    this.#byString.set(agent, last);
    if (this.#byString.size > AGENT_MEMORY) {
      this.#byString.delete(this.#byString.keys().next().value);
    }
  }
}

/** One step rendered for an agent. */
export function renderStep<C>(
  snapshot: Snapshot,
  context: C,
  state: AssembleState & { memory: StepMemory; agent: unknown },
): Promise<RenderedStep> {
  if (snapshot.handlers.length > 0 || state.audit) {
    return assemble(snapshot, context, state).then(fromAssembly);
  }
  return resolveStep(
    snapshot,
    { context, signal: state.signal },
    (values) => finish(snapshot, values, state),
  );
}

function finish(
  snapshot: Snapshot,
  values: unknown[],
  state: AssembleState & { memory: StepMemory; agent: unknown },
): RenderedStep {
  const agent = state.agent === undefined ? NO_AGENT : state.agent;
  const last = state.memory.get(agent);
  readProvided(snapshot, values);
  // Every tool is read (a lookup each when unchanged): a tool edited in
  // place is a change, as it is for assemble().
  const records = toolRecords(snapshot, values, state.copies, state.order);
  // Fast path: every provider answered what it answered last step.
  if (
    last !== undefined && last.snapshot === snapshot &&
    last.records === records && sameValues(snapshot, last.values, values)
  ) {
    return last.step;
  }
  const assembly = build(snapshot, values, {
    records: undefined,
    separator: state.separator,
  });
  if (snapshot.complete !== undefined) {
    assembly.sections = assembly.sections.filter((section) =>
      section.name === snapshot.complete!.entry.name
    );
  }
  const tools = last !== undefined && last.records === records
    ? last.step.tools
    : Object.freeze(records.map((record) => record.copy));
  // Frozen: an edit of one step by its caller cannot reach a later one.
  const step: RenderedStep = Object.freeze({
    // The registry built `variables`: every value read is an own property.
    prompt: renderAssembly(assembly, OWN_SECTIONS),
    tools,
    context: renderAssembly(assembly, OWN_CONTEXTS),
  });
  state.memory.set(agent, { snapshot, values, records, step });
  return step;
}

function fromAssembly(assembly: PromptAssembly): RenderedStep {
  const tools = Object.freeze(
    assembly.tools.map((tool) =>
      setToolOwner(
        Object.freeze({ ...tool }) as ToolSchema,
        toolOwner(tool),
        toolLayer(tool),
      )
    ),
  );
  return Object.freeze({
    prompt: renderPrompt(assembly),
    tools,
    context: renderContext(assembly),
  });
}

/**
 * Whether this step read what the last one did: strings and numbers by
 * value, provided items field by field; tools are compared by their
 * records, and a call's raw result is never read again.
 */
function sameValues(
  snapshot: Snapshot,
  last: readonly unknown[],
  now: readonly unknown[],
): boolean {
  const calls = snapshot.calls;
  for (let i = 0; i < now.length; i++) {
    const a = last[i];
    const b = now[i];
    // Fast path: the same string or number (most calls).
    if (a === b || calls[i]!.kind === "tools") continue;
    if (!sameItems(a, b)) return false;
  }
  return true;
}
