/**
 * One agent step over a realistic scenario, three ways besides ours
 * (`ours_step.ts`): the floor (the same provider
 * and handler calls, tools concatenated without copies, texts rendered by
 * the true floor, a function section re-split only when its text differs
 * from the last one), a peer (the floor with a peer engine's interpolation)
 * and the memoizing floor (providers called, previous string returned when
 * nothing changed, only changed sections re-rendered, no assembly objects).
 * Every step is async and awaited, like ours.
 *
 * @module
 */

import type { ToolSchema } from "../mod.ts";
import {
  compilePiece,
  type Piece,
  renderPiece,
  splitText,
  type Values,
} from "./floor.ts";
import type { Context, Scenario } from "./realistic.ts";
import type { Compile } from "./renderers.ts";

/** What a step hands the model. */
export interface StepResult {
  prompt: string;
  tools: ToolSchema[];
}

/** One step of one implementation. */
export type Step = (context: Context) => Promise<StepResult>;

/** A compiled section: the floor's piece, and an engine's function for it. */
interface Compiled {
  piece: Piece;
  fn?: (values: Values) => string;
}

function compileText(text: string, compile?: Compile): Compiled | undefined {
  const piece = compilePiece(splitText(text));
  if (piece === undefined) return undefined;
  return compile === undefined
    ? { piece }
    : { piece, fn: compile(piece.parts) };
}

function renderCompiled(compiled: Compiled, values: Values): string {
  if (compiled.fn === undefined) return renderPiece(compiled.piece, values);
  const { piece } = compiled;
  const text = compiled.fn(values);
  if (piece.trimStart) return piece.trimEnd ? text.trim() : text.trimStart();
  return piece.trimEnd ? text.trimEnd() : text;
}

/**
 * The floor's full step, interpolating with `compile` when given (a peer),
 * else with the floor's own join.
 */
export function floorStep(scenario: Scenario, compile?: Compile): Step {
  const { sections, variables, toolProviders, handler } = scenario;
  const texts: (string | undefined)[] = [];
  const compiled: (Compiled | undefined)[] = [];
  for (const { text } of sections) {
    const isStatic = typeof text === "string";
    texts.push(isStatic ? text : undefined);
    compiled.push(isStatic ? compileText(text, compile) : undefined);
  }
  // deno-lint-ignore require-await -- a promise, as ours returns
  return async (context) => {
    const values: Values = Object.create(null);
    for (let i = 0; i < variables.length; i++) {
      values[variables[i]![0]] = variables[i]![1](context);
    }
    const tools: ToolSchema[] = [];
    for (let p = 0; p < toolProviders.length; p++) {
      const list = toolProviders[p]!();
      for (let t = 0; t < list.length; t++) tools.push(list[t]!);
    }
    const assembly = { sections: [], tools, variables: values };
    handler(assembly);
    let prompt = "";
    for (let i = 0; i < sections.length; i++) {
      const text = sections[i]!.text;
      if (typeof text !== "string") {
        const resolved = text(context);
        if (resolved !== texts[i]) {
          texts[i] = resolved;
          compiled[i] = compileText(resolved, compile);
        }
      }
      const section = compiled[i];
      if (section === undefined) continue;
      const rendered = renderCompiled(section, values);
      if (rendered === "") continue;
      prompt = prompt === "" ? rendered : prompt + "\n\n" + rendered;
    }
    return { prompt, tools: assembly.tools };
  };
}

/**
 * The memoizing floor: calls every provider and section function, compares
 * each result with the last step's, re-renders only sections whose text or
 * referenced values changed, and returns the previous string (and tools)
 * when nothing did.
 */
export function memoFloorStep(scenario: Scenario): Step {
  const { sections, variables, toolProviders, handler } = scenario;
  const values: Values = Object.create(null);
  const lastValues: (string | undefined)[] = variables.map(() => undefined);
  const lastLists: (ToolSchema[] | undefined)[] = toolProviders.map(() =>
    undefined
  );
  const texts: (string | undefined)[] = sections.map(() => undefined);
  const pieces: (Piece | undefined)[] = sections.map(() => undefined);
  const rendered: string[] = sections.map(() => "");
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
    let toolsChanged = false;
    for (let p = 0; p < toolProviders.length; p++) {
      const list = toolProviders[p]!();
      if (!sameList(list, lastLists[p])) {
        lastLists[p] = list;
        toolsChanged = true;
      }
    }
    if (toolsChanged) {
      const assembly = {
        sections: [],
        tools: lastLists.flat(),
        variables: values,
      };
      handler(assembly as never);
      tools = assembly.tools as ToolSchema[];
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
      if (redo) {
        const piece = pieces[i];
        const next = piece === undefined ? "" : renderPiece(piece, values);
        if (next !== rendered[i]) {
          rendered[i] = next;
          dirty = true;
        }
      }
    }
    if (dirty) {
      prompt = "";
      for (const text of rendered) {
        if (text !== "") prompt = prompt === "" ? text : prompt + "\n\n" + text;
      }
    }
    return { prompt, tools };
  };
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
