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
  StepBlock,
  ToolSchema,
} from "../core/types.ts";
import { renderContext } from "../render/render.ts";
import {
  assemblyBlocks,
  isMixed,
  joinBlocks,
  piecesOf,
  type Rendered,
  vouch,
} from "../render/_blocks.ts";
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
import { matches, type ToolRecord } from "./_tools.ts";

/** How many string-keyed agents are remembered; object keys are weak. */
export const AGENT_MEMORY = 1024;

interface Last {
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

const NO_AGENT = Symbol("no agent");
const CHANNEL = { section: "prompt", context: "context" } as const;

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

function finish(values: unknown[], snapshot: Snapshot, state: StepState) {
  const agent = state.agent === undefined ? NO_AGENT : state.agent;
  const found = state.memory.get(agent);
  const last = found?.snapshot === snapshot ? found : undefined;
  readProvided(snapshot, values);
  // Every tool is read (a comparison each when unchanged): a tool edited
  // in place is a change, as it is for assemble().
  const records = state.copies.records(snapshot, values, state.order);
  const { sections, contexts, tops, calls } = snapshot;
  let moved: number[] | undefined; // the calls that answered otherwise
  for (let i = 0; last !== undefined && i < values.length; i++) {
    const a = last.values[i];
    const b = values[i];
    // Fast path: the same string or number (most calls); tools are compared
    // by their records.
    if (a === b || calls[i]!.kind === "tools" || sameItems(a, b)) continue;
    (moved ??= []).push(i);
  }
  const tools = last?.records === records ? last.step.tools : undefined;
  // Fast path: every provider answered what it answered last step.
  if (moved === undefined && tools !== undefined) return last!.step;
  const split = sections.length; // the first context entry
  const count = split + contexts.length;
  const parts: (AssembledItem | undefined)[] = last?.parts.slice() ?? [];
  const texts = last?.texts.slice() ?? [];
  const uses = last?.uses.slice() ?? [];
  const changed: number[] = []; // the variables' calls
  for (const call of moved ?? []) {
    if (tops[call]! >= 0) parts[tops[call]!] = undefined;
    else changed.push(call);
  }
  const variable = (call: number) => calls[call]!.where.variable!;
  const names = new Set(changed.map(variable));
  // A part whose own calls changed is built (so checked) again, in assembly
  // order; an unchanged part is known good.
  for (let t = 0; t < count; t++) {
    if (parts[t] !== undefined) continue;
    parts[t] = part(snapshot, values, sections[t] ?? contexts[t - split]!);
    texts[t] = uses[t] = undefined;
  }
  // One that references a changed variable is rendered again.
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
  // Every value checked first: a refused step changes nothing.
  const checked = changed.map((call) =>
    result<string | undefined>(snapshot, values, call)
  );
  const variables = last?.variables ?? variablesOf(snapshot, values);
  for (let i = 0; i < changed.length; i++) {
    variables[variable(changed[i]!)] = checked[i];
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
  const [from, to] = complete < 0 ? [0, split] : [complete, complete + 1];
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
    cutParts(cut, parts, texts, [from, to], { variables, only: isMixed });
    cell = blocksLater(cut, parts, texts, [from, to], {
      separator: state.separator ?? "\n\n",
      last: last?.cell.blocks,
    });
  }
  const step: RenderedStep = new Step(
    prompt,
    tools ?? Object.freeze(records.map((record) => record.copy)),
    render("context", split, count),
    cell,
  );
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

/**
 * A rendered step, frozen: an edit of one step by its caller cannot reach
 * a later one. Its blocks are joined when first read (a host that only
 * renders never pays for them), from parts cut when the step rendered.
 */
class Step implements RenderedStep {
  readonly prompt: string;
  readonly tools: readonly ToolSchema[];
  readonly context: string;
  readonly #cell: BlocksCell;

  constructor(
    prompt: string,
    tools: readonly ToolSchema[],
    context: string,
    cell: BlocksCell,
  ) {
    this.prompt = prompt;
    this.tools = tools;
    this.context = context;
    this.#cell = cell;
    Object.freeze(this);
  }

  get blocks(): readonly StepBlock[] {
    const cell = this.#cell;
    if (cell.blocks === undefined) {
      cell.blocks = cell.make!();
      vouch(cell.blocks, this.prompt);
    }
    return cell.blocks;
  }

  /** Its JSON holds the blocks too. */
  toJSON(): RenderedStep {
    const { prompt, tools, context, blocks } = this;
    return { prompt, tools, context, blocks };
  }
}

/**
 * Cuts each part of `[from, to)` whose pieces in `cut` are not of the same
 * part and text (those `only` accepts), passing the old pieces on for reuse.
 */
function cutParts(
  cut: (Rendered | undefined)[],
  parts: readonly (AssembledItem | undefined)[],
  texts: readonly (string | undefined)[],
  [from, to]: readonly [number, number],
  how: {
    variables: Record<string, unknown>;
    only?: (part: AssembledItem) => boolean;
  },
): void {
  for (let t = from; t < to; t++) {
    const part = parts[t]!;
    const text = texts[t]!;
    const known = cut[t];
    if (known !== undefined && known.part === part && known.text === text) {
      continue;
    }
    if (how.only !== undefined && !how.only(part)) continue;
    const pieces = piecesOf(part, text, how.variables, true, known?.pieces);
    cut[t] = { part, text, pieces };
  }
}

/** A step's blocks: joined when first read, by `make`. */
interface BlocksCell {
  blocks: readonly StepBlock[] | undefined;
  make: (() => readonly StepBlock[]) | undefined;
}

/**
 * The blocks of parts `[from, to)`, joined when first read. Each part's
 * pieces stand while it is the same part with the same text, kept in
 * `cut` (the step's own array) for the next step.
 */
function blocksLater(
  cut: (Rendered | undefined)[],
  parts: readonly (AssembledItem | undefined)[],
  texts: readonly (string | undefined)[],
  [from, to]: readonly [number, number],
  how: { separator: string; last: readonly StepBlock[] | undefined },
): BlocksCell {
  const cell: BlocksCell = { blocks: undefined, make: undefined };
  cell.make = () => {
    // Not a list cut by stability (that was cut at once): no variable is read.
    cutParts(cut, parts, texts, [from, to], { variables: {} });
    cell.make = undefined;
    return joinBlocks(cut, how.separator, how.last, from, to);
  };
  return cell;
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
  return new Step(prompt, tools, context, { blocks, make: undefined });
}
