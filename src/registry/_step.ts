/**
 * `render()`: one call per step. Without handlers, a step whose every
 * provider answered what it answered last time for the same agent returns
 * that agent's last step without building anything; a changed step builds
 * and renders again only the top-level parts that changed or read a
 * variable that did (the step memory, `_step_memory.ts`, says what is
 * kept). With handlers, or an audit, it assembles and renders. Covered by
 * tests/render_step_test.ts and tests/render_again_test.ts.
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
import { renderContext } from "../render/render.ts";
import { assemblyBlocks, isMixed } from "../render/_blocks.ts";
import { renderAssembly, type RenderHow } from "../render/_walk.ts";
import { referencesOf } from "../render/_template.ts";
import { assemble, type AssembleState } from "./_assemble.ts";
import { resolveStep } from "./_resolve.ts";
import {
  part,
  readProvided,
  result,
  sameItems,
  variablesOf,
} from "./_parts.ts";
import type { Snapshot } from "./_snapshot.ts";
import { blocksLater, cutParts, Step } from "./_step_blocks.ts";
import type { LastStep, StepMemory } from "./_step_memory.ts";
import { matches, type ToolRecord } from "./_tool_records.ts";

const NO_AGENT = Symbol("no agent");
const CHANNEL = { section: "prompt", context: "context" } as const;

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

/** The rest of a step once every call answered: as little as changed. */
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
  const records = state.copies.records(snapshot, values, state.order);
  const moved = last && movedCalls(snapshot, { last, values });
  const tools = last?.records === records ? last.step.tools : undefined;
  // Fast path: every provider answered what it answered last step.
  if (moved === undefined && tools !== undefined) return last!.step;
  const { sections, contexts } = snapshot;
  const split = sections.length; // the first context entry
  const count = split + contexts.length;
  const { parts, texts, uses, changed } = staleParts(snapshot, {
    last,
    values,
    moved,
  });
  // Every value checked first: a refused step changes nothing.
  const checked = changed.map((call) =>
    result<string | undefined>(snapshot.calls[call]!, values[call])
  );
  const variables = last?.variables ?? variablesOf(snapshot, values);
  for (let i = 0; i < changed.length; i++) {
    variables[variableOf(snapshot, changed[i]!)] = checked[i];
  }
  // Only the parts whose text is gone render, the rest are joined as they were.
  const render = (kind: RenderHow["kind"], from: number, to: number) => {
    let t = from;
    while (t < to && texts[t] !== undefined) t++;
    if (t === to && last !== undefined) return last.step[CHANNEL[kind]];
    const alone = parts.slice(from, to) as AssembledSection[];
    const { separator } = state;
    const assembly = { sections: alone, contexts: alone, variables, separator };
    const how = { kind, own: true, rendered: texts, from };
    try {
      return renderAssembly(assembly as PromptAssembly, how);
    } catch (error) {
      // The variables were updated in place for a step that failed.
      if (last !== undefined) state.memory.set(agent, undefined);
      throw error;
    }
  };
  // A complete section is the whole prompt: the others are only checked.
  const complete = snapshot.completeAt;
  const from = complete < 0 ? 0 : complete;
  const to = complete < 0 ? split : complete + 1;
  // The blocks stand while every part of the prompt does, text and all.
  let cell = last?.cell;
  for (let t = from; cell !== undefined && t < to; t++) {
    if (texts[t] === undefined || parts[t] !== last!.parts[t]) cell = undefined;
  }
  const prompt = render("section", from, to);
  // Shared with the last step while its blocks stand.
  const cut = cell !== undefined ? last!.cut : last?.cut.slice() ?? [];
  if (cell === undefined) {
    // A list cut by stability is rendered again to find its items, with
    // the variables as they are now: it is cut now, the rest when asked.
    const range = { cut, parts, texts, from, to };
    cutParts(range, { variables, only: isMixed });
    cell = blocksLater(range, {
      separator: state.separator ?? "\n\n",
      last: last?.cell.blocks,
    });
  }
  const step: RenderedStep = new Step({
    prompt,
    tools: tools ?? Object.freeze(records.map((record) => record.copy)),
    context: render("context", split, count),
    cell,
  });
  state.memory.set(agent, {
    snapshot,
    values,
    records,
    step,
    parts,
    texts,
    cut,
    cell,
    uses,
    variables,
  });
  return step;
}

/** The calls that answered otherwise than at the last step, or none. */
function movedCalls(
  snapshot: Snapshot,
  step: { last: LastStep; values: readonly unknown[] },
): number[] | undefined {
  const { calls } = snapshot;
  const { last, values } = step;
  let moved: number[] | undefined;
  for (let i = 0; i < values.length; i++) {
    const a = last.values[i];
    const b = values[i];
    // Fast path: the same string or number (most calls); tools are compared
    // by their records.
    if (a === b || calls[i]!.kind === "tools" || sameItems(a, b)) continue;
    (moved ??= []).push(i);
  }
  return moved;
}

/** A step's top-level parts, texts and references, and its changed variables. */
interface StaleParts {
  readonly parts: (AssembledItem | undefined)[];
  /** `undefined` where the part must render again. */
  readonly texts: (string | undefined)[];
  readonly uses: (ReadonlySet<string> | undefined)[];
  /** The calls of the variables that changed. */
  readonly changed: number[];
}

/**
 * The last step's parts and texts with what changed taken out: a part
 * whose own calls answered otherwise is built (so checked) again, in
 * assembly order, and a part that references a changed variable loses
 * its text. An unchanged part is known good.
 */
function staleParts(
  snapshot: Snapshot,
  step: {
    last: LastStep | undefined;
    values: readonly unknown[];
    moved: readonly number[] | undefined;
  },
): StaleParts {
  const { sections, contexts, tops } = snapshot;
  const { last, values } = step;
  const split = sections.length;
  const count = split + contexts.length;
  const parts: (AssembledItem | undefined)[] = last?.parts.slice() ?? [];
  const texts = last?.texts.slice() ?? [];
  const uses = last?.uses.slice() ?? [];
  const changed: number[] = [];
  for (const call of step.moved ?? []) {
    if (tops[call]! >= 0) parts[tops[call]!] = undefined;
    else changed.push(call);
  }
  const names = new Set(changed.map((call) => variableOf(snapshot, call)));
  for (let t = 0; t < count; t++) {
    if (parts[t] !== undefined) continue;
    parts[t] = part(snapshot, values, sections[t] ?? contexts[t - split]!);
    texts[t] = uses[t] = undefined;
  }
  for (let t = 0; names.size > 0 && t < count; t++) {
    if (texts[t] === undefined) continue;
    const used = uses[t] ??= referenced(parts[t]!, new Set());
    for (const name of used) {
      if (names.has(name)) {
        texts[t] = undefined;
        break;
      }
    }
  }
  return { parts, texts, uses, changed };
}

/** The name of the variable a variable provider's call resolves. */
function variableOf(snapshot: Snapshot, call: number): string {
  return snapshot.calls[call]!.where.variable!;
}

/** The variables a part's texts (heading, footer, items) reference. */
function referenced(part: AssembledItem, into: Set<string>): Set<string> {
  return referencesOf(part, into, { items: true });
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
    // The copy's keys: the three of a schema and the host fields.
    const expected = { parameters: record?.copy.parameters, keys: 3 };
    expected.keys += record?.host.length ?? 0;
    if (record !== undefined && matches(fields, record, expected)) {
      next = at + 1;
      return record.copy;
    }
    // Its provenance, if any, is its `parameters`'.
    return Object.freeze(fields as unknown as ToolSchema);
  }));
  const { prompt, blocks } = assemblyBlocks(assembly);
  const context = renderContext(assembly);
  return new Step({
    prompt,
    tools,
    context,
    cell: { blocks, make: undefined },
  });
}
