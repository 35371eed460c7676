/**
 * `render()`: one call per step. Without handlers, a step whose every
 * provider answered what it answered last time for the same agent returns
 * that agent's last step without building anything; a changed step builds
 * and renders again only the top-level parts that changed or read a
 * variable that did. Each agent's memory is bounded: string keys in a
 * least-recently-used map, object keys in a WeakMap.
 *
 * @module
 */

import type {
  AssembledItem,
  AssembledSection,
  PromptAssembly,
  RenderedStep,
  ToolSchema,
} from "../core/types.ts";
import { renderContext, renderPrompt } from "../render/render.ts";
import { renderAssembly, type RenderHow } from "../render/_walk.ts";
import { templateOf } from "../render/_template.ts";
import { assemble, type AssembleState } from "./_assemble.ts";
import { part, readProvided, sameItems } from "./_parts.ts";
import {
  resolveStep,
  toolRecords,
  variablesOf,
  variableValue,
} from "./_resolve.ts";
import type { Snapshot } from "./_snapshot.ts";
import type { ToolRecord } from "./_tools.ts";

/** How many string-keyed agents are remembered; object keys are weak. */
export const AGENT_MEMORY = 1024;

interface Last {
  readonly snapshot: Snapshot;
  readonly values: readonly unknown[];
  readonly records: readonly ToolRecord[];
  readonly step: RenderedStep;
  /** Each top-level part (sections, then context entries) as built. */
  readonly parts: readonly AssembledItem[];
  /** Each top-level part's rendered text, `""` when it dropped out. */
  readonly texts: readonly (string | undefined)[];
  /** The variables each part's texts reference, found when first asked. */
  readonly uses: (ReadonlySet<string> | undefined)[];
  /** The step's variables, updated in place by the next changed step. */
  readonly variables: Record<string, string | undefined>;
}

const NO_AGENT = Symbol("no agent");

/** An object key is remembered weakly, any other in the bounded map. */
const isObject = (agent: unknown): agent is object =>
  typeof agent === "object" && agent !== null || typeof agent === "function";

/** The registry's memory of each agent's last step. */
export class StepMemory {
  readonly #byString = new Map<unknown, Last>();
  readonly #byObject = new WeakMap<object, Last>();

  get(agent: unknown): Last | undefined {
    if (isObject(agent)) return this.#byObject.get(agent);
    const last = this.#byString.get(agent);
    // Most recently used last, so the oldest goes first.
    if (last !== undefined) this.set(agent, last);
    return last;
  }

  /** Remembers `last` as `agent`'s last step, or forgets it (`undefined`). */
  set(agent: unknown, last: Last | undefined): void {
    const map = isObject(agent) ? this.#byObject : this.#byString;
    map.delete(agent as object);
    if (last !== undefined) map.set(agent as object, last);
    if (this.#byString.size > AGENT_MEMORY) {
      this.#byString.delete(this.#byString.keys().next().value);
    }
  }
}

/** What one `render()` step is given: the assembly state and the agent. */
export interface StepState extends AssembleState {
  readonly memory: StepMemory;
  readonly agent: unknown;
  readonly context: unknown;
}

/** One step rendered for an agent. */
export function renderStep(
  snapshot: Snapshot,
  context: unknown,
  state: StepState,
): Promise<RenderedStep> {
  if (snapshot.handlers.length > 0 || state.audit) {
    return assemble(snapshot, context, state).then((assembly) =>
      fromAssembly(assembly, state.copies.recordsOf(snapshot))
    );
  }
  return resolveStep(snapshot, state, finish);
}

function finish(
  values: unknown[],
  snapshot: Snapshot,
  state: StepState,
): RenderedStep {
  const agent = state.agent === undefined ? NO_AGENT : state.agent;
  const found = state.memory.get(agent);
  const last = found?.snapshot === snapshot ? found : undefined;
  readProvided(snapshot, values);
  // Every tool is read (a comparison each when unchanged): a tool edited
  // in place is a change, as it is for assemble().
  const records = toolRecords(snapshot, values, state.copies, state.order);
  const change = last && changed(snapshot, last, values);
  // Fast path: every provider answered what it answered last step.
  if (last !== undefined && change === undefined && last.records === records) {
    return last.step;
  }
  const { sections, contexts } = snapshot;
  const count = sections.length + contexts.length;
  const parts = last?.parts.slice() ?? new Array<AssembledItem>(count);
  const texts = last?.texts.slice() ?? new Array<string | undefined>(count);
  const uses = last?.uses.slice() ?? new Array<Set<string> | undefined>(count);
  // Built (so checked) in assembly order; an unchanged part is known good,
  // and one that only reads a changed variable is rendered from the part it was.
  for (let t = 0; t < count; t++) {
    const dirty = change?.dirty[t] ?? (last === undefined ? OWN : 0);
    if (dirty !== 0) texts[t] = undefined;
    if (dirty !== OWN) continue;
    const node = t < sections.length
      ? sections[t]!
      : contexts[t - sections.length]!;
    parts[t] = part(snapshot, values, node);
    uses[t] = undefined;
  }
  let variables = last?.variables;
  if (variables === undefined) variables = variablesOf(snapshot, values);
  else {
    const calls = change?.variables ?? [];
    const checked = calls.map((call) => variableValue(snapshot, values, call));
    // Every value checked first: a refused step changes nothing.
    for (let i = 0; i < calls.length; i++) {
      variables[snapshot.calls[calls[i]!]!.where.variable!] = checked[i];
    }
  }
  // Only the parts whose text is gone render, the rest are joined as they were.
  const render = (kind: RenderHow["kind"], from: number, to: number) => {
    const alone = parts.slice(from, to) as AssembledSection[];
    const separator = state.separator ?? "\n\n";
    const assembly = { sections: alone, contexts: alone, tools: [], variables };
    const how = { kind, own: true, rendered: texts, from };
    return renderAssembly({ ...assembly, separator }, how);
  };
  // A complete section is the whole prompt: the others are only checked.
  const complete = snapshot.complete === undefined
    ? -1
    : sections.indexOf(snapshot.complete);
  let prompt: string;
  let context: string;
  try {
    prompt = complete === -1
      ? render("section", 0, sections.length)
      : render("section", complete, complete + 1);
    context = render("context", sections.length, count);
  } catch (error) {
    // The variables were updated in place for a step that failed.
    if (last !== undefined) state.memory.set(agent, undefined);
    throw error;
  }
  const tools = last !== undefined && last.records === records
    ? last.step.tools
    : Object.freeze(records.map((record) => record.copy));
  // Frozen: an edit of one step by its caller cannot reach a later one.
  const step: RenderedStep = Object.freeze({ prompt, tools, context });
  state.memory.set(agent, {
    snapshot,
    values,
    records,
    step,
    parts,
    texts,
    uses,
    variables,
  });
  return step;
}

/** A part's own calls changed: it is built and rendered again. */
const OWN = 1;
/** A variable it references changed: it is rendered again. */
const READS = 2;

/** What changed since the last step: parts to redo, variable calls. */
interface Change {
  readonly dirty: Uint8Array;
  readonly variables: readonly number[] | undefined;
}

/**
 * Which top-level parts must be built and rendered again: those whose own
 * calls answered otherwise, and those that reference a variable that did;
 * `undefined` when no call did (tools are compared by their records).
 */
function changed(
  snapshot: Snapshot,
  last: Last,
  values: readonly unknown[],
): Change | undefined {
  const { calls, tops } = snapshot;
  let dirty: Uint8Array | undefined;
  let variables: number[] | undefined;
  for (let i = 0; i < values.length; i++) {
    const a = last.values[i];
    const b = values[i];
    // Fast path: the same string or number (most calls).
    if (a === b || calls[i]!.kind === "tools" || sameItems(a, b)) continue;
    dirty ??= new Uint8Array(last.parts.length);
    const top = tops[i]!;
    if (top >= 0) dirty[top] = OWN;
    else (variables ??= []).push(i);
  }
  if (dirty === undefined) return undefined;
  if (variables !== undefined) {
    const names = new Set(variables.map((call) => calls[call]!.where.variable));
    for (let t = 0; t < dirty.length; t++) {
      if (dirty[t] === OWN) continue;
      for (
        const name of last.uses[t] ??= referenced(last.parts[t]!, new Set())
      ) {
        if (names.has(name)) {
          dirty[t] = READS;
          break;
        }
      }
    }
  }
  return { dirty, variables };
}

/** The variables a part's texts (heading, footer, items) reference. */
function referenced(part: AssembledItem, into: Set<string>): Set<string> {
  if (part.literal !== true) {
    add(part.text, into);
    if (part.list?.footer !== undefined) add(part.list.footer, into);
  }
  for (const item of part.items ?? []) referenced(item, into);
  return into;
}

function add(text: string, into: Set<string>): void {
  const names = templateOf(text).parts;
  for (let k = 1; k < names.length; k += 2) into.add(names[k]!);
}

/**
 * A step from an assembly the handlers left: each tool frozen with its
 * provenance, the registry's own copy when the handlers left it as it was.
 */
function fromAssembly(
  assembly: PromptAssembly,
  records: readonly ToolRecord[],
): RenderedStep {
  let next = 0;
  const tools = Object.freeze(assembly.tools.map((tool) => {
    // Handlers mostly filter: the records, in order, are searched ahead.
    let at = next;
    while (at < records.length && records[at]!.name !== tool.name) at++;
    const record = records[at];
    const fields: Record<string, unknown> = { ...tool }; // each field read once
    if (record !== undefined && sameFields(fields, record)) {
      next = at + 1;
      return record.copy;
    }
    // Its provenance, if any, is its `parameters`'.
    return Object.freeze(fields as unknown as ToolSchema);
  }));
  return Object.freeze({
    prompt: renderPrompt(assembly),
    tools,
    context: renderContext(assembly),
  });
}

/** Whether a plain copy of a tool holds exactly the fields of a record's copy. */
function sameFields(
  fields: Record<string, unknown>,
  record: ToolRecord,
): boolean {
  if (
    fields.name !== record.name || fields.description !== record.description ||
    fields.parameters !== record.copy.parameters
  ) return false;
  const { host } = record;
  for (let i = 0; i < host.length; i++) {
    if (fields[host[i]![0]] !== host[i]![1]) return false;
  }
  let count = 0;
  for (const _ in fields) count++;
  // The copy's keys: the three of a schema and the host fields.
  return count === 3 + host.length;
}
