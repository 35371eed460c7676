/**
 * One agent step over a realistic scenario, the ways besides ours
 * (`_ours.ts`), every one async and awaited like ours:
 *
 * - the floor ({@linkcode floorStep}): the same provider and handler calls,
 *   tools concatenated without copies, texts rendered by the true floor
 *   (`_floor.ts`), a function section re-split only when its text differs
 *   from the last one; no memory of the last step's output;
 * - a peer: the floor with a peer engine's interpolation (`compile`);
 * - the memoizing floor ({@linkcode memoFloorStep}): providers called, the
 *   previous string (and tools) returned when nothing changed, only changed
 *   sections re-rendered, no assembly objects;
 * - the reading floor ({@linkcode readFloorStep}): the memoizing floor
 *   that also reads every field of every tool it returns, and compares
 *   nothing: the least any step does that sees a schema edited in place
 *   (to see an edit, a step must at least read the field);
 * - the physical limit ({@linkcode physicalLimitStep}): providers called and
 *   each result compared with `===` to the last one, nothing allocated when
 *   nothing changed (the same result object comes back), and on a change
 *   only the sections that use what changed rendered again, found through a
 *   reverse index from variables to sections.
 *
 * @module
 */

import type { PromptAssembly, ToolSchema } from "@dsh/system-prompt";
import {
  compilePiece,
  type Piece,
  renderPiece,
  splitText,
  type Values,
} from "./_floor.ts";
import { BASE_CONTEXT, type Context, type Scenario } from "./_realistic.ts";
import type { Compile } from "./_renderers.ts";
import { assertSame } from "./_check.ts";
import { ownSite } from "./_bench.ts";

/** What a step hands the model. */
export interface StepResult {
  prompt: string;
  tools: readonly ToolSchema[];
}

/** One step of one implementation. */
export type Step = (context: Context) => Promise<StepResult>;

/** Options of the floors' steps. */
export interface StepOptions {
  /** Interpolate with this engine (a peer) instead of the floor's join. */
  compile?: Compile;
  /** Run the scenario's assemble handler, as ours with it registered. */
  handler?: boolean;
}

/** A compiled section: the floor's piece, or an engine's function for it. */
type Compiled = (values: Values) => string;

function compileText(text: string, compile?: Compile): Compiled | undefined {
  const piece = compilePiece(splitText(text));
  if (piece === undefined) return undefined;
  return compile === undefined
    ? (values) => renderPiece(piece, values)
    : compile(piece);
}

/**
 * The floor's full step, interpolating with `options.compile` when given (a
 * peer), else with the floor's own join. Each call compiles the step's
 * code anew (`ownSite`): the floor and each peer call their own sections
 * from call sites of their own.
 */
export function floorStep(scenario: Scenario, options: StepOptions = {}): Step {
  const { sections, variables, toolProviders, handler } = scenario;
  const { compile } = options;
  const texts: (string | undefined)[] = [];
  const compiled: (Compiled | undefined)[] = [];
  for (const { text } of sections) {
    const isStatic = typeof text === "string";
    texts.push(isStatic ? text : undefined);
    compiled.push(isStatic ? compileText(text, compile) : undefined);
  }
  const state = {
    sections,
    variables,
    toolProviders,
    handler: options.handler ? handler : undefined,
    texts,
    compiled,
    recompile: (text: string) => compileText(text, compile),
  };
  return ownSite((floor: typeof state): Step => {
    const { sections, variables, toolProviders, handler } = floor;
    const { texts, compiled, recompile } = floor;
    // deno-lint-ignore require-await -- a promise, as ours returns
    return async (context) => {
      const values: Values = Object.create(null);
      for (let i = 0; i < variables.length; i++) {
        values[variables[i]![0]] = variables[i]![1](context);
      }
      let tools: ToolSchema[] = [];
      for (let p = 0; p < toolProviders.length; p++) {
        const list = toolProviders[p]!();
        for (let t = 0; t < list.length; t++) tools.push(list[t]!);
      }
      if (handler !== undefined) {
        const assembly = { sections: [], tools, variables: values };
        handler(assembly);
        tools = assembly.tools;
      }
      let prompt = "";
      for (let i = 0; i < sections.length; i++) {
        const text = sections[i]!.text;
        if (typeof text !== "string") {
          const resolved = text(context);
          if (resolved !== texts[i]) {
            texts[i] = resolved;
            compiled[i] = recompile(resolved);
          }
        }
        const section = compiled[i];
        if (section === undefined) continue;
        const rendered = section(values);
        if (rendered === "") continue;
        prompt = prompt === "" ? rendered : prompt + "\n\n" + rendered;
      }
      return { prompt, tools };
    };
  }, state);
}

/**
 * The memoizing floor: calls every provider and section function, compares
 * each result with the last step's, re-renders only sections whose text or
 * referenced values changed, and returns the previous string (and tools)
 * when nothing did.
 */
export function memoFloorStep(
  scenario: Scenario,
  options: Pick<StepOptions, "handler"> = {},
): Step {
  const { sections, variables, toolProviders, handler } = scenario;
  const withHandler = options.handler ?? false;
  const { values, lastValues, lastLists, texts, pieces, rendered } = memory(
    scenario,
  );
  let prompt = "";
  let tools: ToolSchema[] = [];
  const changed = new Set<string>();
  // deno-lint-ignore require-await -- a promise, as ours returns
  return async (context) => {
    changed.clear();
    for (let i = 0; i < variables.length; i++) {
      const [name, provider] = variables[i]!;
      const value = provider(context);
      if (value !== lastValues[i]) {
        lastValues[i] = values[name] = value;
        changed.add(name);
      }
    }
    if (pollTools(toolProviders, lastLists)) {
      tools = (lastLists as ToolSchema[][]).flat();
      if (withHandler) {
        const assembly = { sections: [], tools, variables: values };
        handler(assembly as PromptAssembly);
        tools = assembly.tools;
      }
    }
    let dirty = false;
    for (let i = 0; i < sections.length; i++) {
      const source = sections[i]!.text;
      const text = typeof source === "string" ? source : source(context);
      let redo = false;
      if (text !== texts[i]) {
        texts[i] = text;
        pieces[i] = compilePiece(splitText(text));
        redo = true;
      } else if (changed.size > 0) redo = references(pieces[i], changed);
      if (redo && rerender(pieces, rendered, i, values)) dirty = true;
    }
    if (dirty) prompt = join(rendered);
    return { prompt, tools };
  };
}

/**
 * The reading floor: the memoizing floor's step, then every field of every
 * tool it returns read (objects by `for-in`, arrays by index), nothing
 * compared or kept; the count of fields read goes to a sink, so the reads
 * cannot be dropped. Its output is the memoizing floor's.
 */
export function readFloorStep(scenario: Scenario): Step {
  const memo = memoFloorStep(scenario);
  return ownSite((step: Step): Step => {
    const read = (value: unknown): number => {
      if (typeof value !== "object" || value === null) return 1;
      let count = 1;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) count += read(value[i]);
      } else {
        for (const key in value) {
          count += read((value as Record<string, unknown>)[key]);
        }
      }
      return count;
    };
    const sink = { fields: 0 };
    return async (context) => {
      const result = await step(context);
      const tools = result.tools;
      for (let t = 0; t < tools.length; t++) sink.fields += read(tools[t]);
      return result;
    };
  }, memo);
}

/**
 * The physical limit: every provider and section function called, each
 * result compared with `===` to the last one; when nothing changed, no
 * object, array or string is made and the same result object is returned.
 * A changed value marks the sections that reference it (a reverse index
 * kept as section texts change); only those are rendered again, and the
 * prompt is joined again only when a rendered section differs. No handler.
 */
export function physicalLimitStep(scenario: Scenario): Step {
  const { sections, variables, toolProviders } = scenario;
  const slot = new Map(variables.map(([name], i) => [name, i]));
  const { values, lastValues, lastLists, texts, pieces, rendered } = memory(
    scenario,
  );
  /** `users[v]`: the sections whose text references variable `v`. */
  const users: number[][] = variables.map(() => []);
  /** `uses[s]`: the variables section `s` references. */
  const uses: number[][] = sections.map(() => []);
  const dirty = new Uint8Array(sections.length);
  const result: StepResult = { prompt: "", tools: [] };
  // deno-lint-ignore require-await -- a promise, as ours returns
  return async (context) => {
    for (let v = 0; v < variables.length; v++) {
      const value = variables[v]![1](context);
      if (value !== lastValues[v]) {
        lastValues[v] = values[variables[v]![0]] = value;
        const list = users[v]!;
        for (let u = 0; u < list.length; u++) dirty[list[u]!] = 1;
      }
    }
    if (pollTools(toolProviders, lastLists)) {
      result.tools = (lastLists as ToolSchema[][]).flat();
    }
    let promptChanged = false;
    for (let s = 0; s < sections.length; s++) {
      const source = sections[s]!.text;
      if (typeof source !== "string") {
        const text = source(context);
        if (text !== texts[s]) {
          reindex(s, text);
          dirty[s] = 1;
        }
      } else if (texts[s] === undefined) {
        reindex(s, source);
        dirty[s] = 1;
      }
      if (dirty[s] === 0) continue;
      dirty[s] = 0;
      if (rerender(pieces, rendered, s, values)) promptChanged = true;
    }
    if (promptChanged) result.prompt = join(rendered);
    return result;
  };

  function reindex(s: number, text: string) {
    for (const v of uses[s]!) {
      const list = users[v]!;
      list.splice(list.indexOf(s), 1);
    }
    texts[s] = text;
    const piece = pieces[s] = compilePiece(splitText(text));
    const referenced = new Set<number>();
    if (piece !== undefined) {
      for (let k = 1; k < piece.parts.length; k += 2) {
        const v = slot.get(piece.parts[k]!);
        if (v !== undefined) referenced.add(v);
      }
    }
    uses[s] = [...referenced];
    for (const v of referenced) users[v]!.push(s);
  }
}

/** What a memoizing step remembers of the last one, empty. */
function memory(scenario: Scenario) {
  return {
    values: Object.create(null) as Values,
    lastValues: scenario.variables.map((): string | undefined => undefined),
    lastLists: scenario.toolProviders.map((): ToolSchema[] | undefined =>
      undefined
    ),
    texts: scenario.sections.map((): string | undefined => undefined),
    pieces: scenario.sections.map((): Piece | undefined => undefined),
    rendered: scenario.sections.map(() => ""),
  };
}

/**
 * Calls every tool provider and keeps each list in `lastLists`; true when a
 * list differs, tool by tool, from the last one.
 */
function pollTools(
  providers: readonly (() => ToolSchema[])[],
  lastLists: (ToolSchema[] | undefined)[],
): boolean {
  let changed = false;
  for (let p = 0; p < providers.length; p++) {
    const list = providers[p]!();
    if (!sameList(list, lastLists[p])) {
      lastLists[p] = list;
      changed = true;
    }
  }
  return changed;
}

/** Renders section `i` again into `rendered`; true when its text changed. */
function rerender(
  pieces: readonly (Piece | undefined)[],
  rendered: string[],
  i: number,
  values: Values,
): boolean {
  const piece = pieces[i];
  const next = piece === undefined ? "" : renderPiece(piece, values);
  if (next === rendered[i]) return false;
  rendered[i] = next;
  return true;
}

/** Joins rendered sections as ours does: blank-line separated, empties out. */
function join(rendered: readonly string[]): string {
  let prompt = "";
  for (let i = 0; i < rendered.length; i++) {
    const text = rendered[i]!;
    if (text !== "") prompt = prompt === "" ? text : prompt + "\n\n" + text;
  }
  return prompt;
}

function sameList(list: ToolSchema[], last: ToolSchema[] | undefined) {
  if (list === last) return true;
  if (last === undefined || list.length !== last.length) return false;
  for (let i = 0; i < list.length; i++) if (list[i] !== last[i]) return false;
  return true;
}

function references(piece: Piece | undefined, names: Set<string>): boolean {
  if (piece === undefined) return false;
  for (let k = 1; k < piece.parts.length; k += 2) {
    if (names.has(piece.parts[k]!)) return true;
  }
  return false;
}

/** The contexts of a kind of step: the n-th step of a run gets `next(n)`. */
export const KINDS: Readonly<Record<string, (n: number) => Context>> = {
  "unchanged step": () => BASE_CONTEXT,
  "one variable changed": (n) => ({ turn: n, clock: 0, fresh: 0 }),
  "one section changed": (n) => ({ turn: 1, clock: n, fresh: 0 }),
  "every variable changed": (n) => ({ turn: n, clock: 0, fresh: n }),
};

/** Anything with a step's shape: ours (`_ours.ts`) or a floor's. */
export type AnyStep = (context: Context) => Promise<StepResult>;

/**
 * Runs every kind of step, in a mixed order and repeated, through every
 * implementation and throws unless each one's prompt (and its flattened
 * form) and tools equal the first one's. Called before anything is timed.
 */
export async function checkSteps(
  group: string,
  steps: Readonly<Record<string, AnyStep>>,
): Promise<void> {
  const kinds = Object.values(KINDS);
  const contexts: Context[] = [];
  for (let n = 2; n < 2 + 3 * kinds.length; n++) {
    contexts.push(kinds[n % kinds.length]!(n), kinds[n % kinds.length]!(n));
  }
  const [first, ...rest] = Object.entries(steps);
  for (const context of contexts) {
    const expected = await first![1](context);
    const tools = JSON.stringify(expected.tools);
    for (const [name, step] of rest) {
      const actual = await step(context);
      assertSame(`${group}: ${name}`, actual.prompt, expected.prompt);
      assertSame(
        `${group}: ${name} flattened`,
        JSON.stringify(actual.prompt),
        JSON.stringify(expected.prompt),
      );
      assertSame(
        `${group}: ${name}'s tools`,
        JSON.stringify(actual.tools),
        tools,
      );
    }
  }
}
