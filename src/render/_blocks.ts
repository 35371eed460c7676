/**
 * A rendered prompt cut into blocks of one stability: each top-level part
 * becomes pieces (one, unless it is a list whose items differ in
 * stability), and consecutive pieces of one stability join into a block.
 * `render()` keeps each part's pieces while its text stands and a block
 * while its pieces do, so an unchanged run is the same block object.
 *
 * @module
 */

import type {
  AssembledItem,
  PartSpan,
  PromptAssembly,
  Stability,
  StepBlock,
} from "../core/types.ts";
import { STABILITIES, stabilityRank } from "../core/_stability.ts";
import { type PartSpan as WalkSpan, renderAssembly } from "./_walk.ts";

/** Part of one top-level part's text, of one stability. */
export interface Piece {
  readonly text: string;
  readonly stability: Stability;
  /** Its name, or nested-list path. */
  readonly part: string;
  /** The top-level part it belongs to. */
  readonly top: string;
  readonly owner: string | undefined;
  readonly layer: string | undefined;
  /** Its span where it last landed in a block: the same place, the same span. */
  span: PartSpan;
}

/** A piece's span before it lands in a block. */
const NO_SPAN: PartSpan = Object.freeze({ start: -1, end: -1 });

/** A part's stability with its items', at any depth. */
function deepRank(part: AssembledItem): number {
  let most = stabilityRank(part.stability);
  const items = part.items;
  for (let i = 0; items !== undefined && most < 2 && i < items.length; i++) {
    most = Math.max(most, deepRank(items[i]!));
  }
  return most;
}

/** Whether a list has an item more volatile than the list itself. */
function mixed(part: AssembledItem, own: number): boolean {
  const items = part.items;
  if (part.list === undefined || items === undefined) return false;
  for (let i = 0; i < items.length; i++) {
    if (deepRank(items[i]!) > own) return true;
  }
  return false;
}

/** Whether a top-level part is a list whose items differ in stability. */
export function isMixed(part: AssembledItem): boolean {
  return mixed(part, stabilityRank(part.stability));
}

/**
 * The pieces of one top-level part rendered as `text`: one piece, or for a
 * list whose items differ in stability, its heading and each item (cut
 * deeper in a nested list that differs). Such a list is rendered once more
 * alone, to find where its items landed; a piece equal to the one at its
 * place in `old` is that one.
 */
export function piecesOf(
  part: AssembledItem,
  how: {
    text: string;
    variables: Record<string, unknown>;
    own: boolean;
    old?: readonly Piece[] | undefined;
  },
): readonly Piece[] {
  const { text, variables, own, old = [] } = how;
  if (text === "") return [];
  const top = part.name;
  const one = (stability: number): Piece => ({
    text,
    stability: STABILITIES[stability]!,
    part: top,
    top,
    owner: part.owner,
    layer: part.layer,
    span: NO_SPAN,
  });
  if (!mixed(part, stabilityRank(part.stability))) {
    const now = one(deepRank(part));
    return old.length === 1 && samePiece(old[0]!, now) ? old : [now];
  }
  const spans: WalkSpan[] = [];
  const alone = { sections: [part], tools: [], variables } as PromptAssembly;
  renderAssembly(alone, { kind: "section", own, spans });
  // Where each piece starts; each ends where the next starts (a list's
  // footer is its last item's).
  const starts: { at: number; piece: Omit<Piece, "text" | "span"> }[] = [];
  const mark = (
    span: WalkSpan,
    at: number,
    path: string,
    inherited: number,
  ) => {
    const item = span.part;
    const level = Math.max(inherited, stabilityRank(item.stability));
    const name = path + item.name;
    const fields = { part: name, top, owner: item.owner, layer: item.layer };
    const items = span.items ?? [];
    if (items.length === 0 || !mixed(item, level)) {
      const stability = STABILITIES[Math.max(level, deepRank(item))]!;
      starts.push({ at, piece: { ...fields, stability } });
      return;
    }
    starts.push({ at, piece: { ...fields, stability: STABILITIES[level]! } });
    // A list's items are placed from its start.
    const origin = at + span.start - span.separatorStart;
    for (const child of items) {
      mark(child, origin + child.separatorStart, `${name}/`, level);
    }
  };
  mark(spans[0]!, 0, "", 0);
  const pieces: Piece[] = [];
  for (let i = 0; i < starts.length; i++) {
    const end = starts[i + 1]?.at ?? text.length;
    const piece = text.slice(starts[i]!.at, end);
    if (piece === "") continue;
    // An unchanged piece is the one it was, so its block can be too.
    const was = old[pieces.length];
    const now = { ...starts[i]!.piece, text: piece, span: NO_SPAN };
    pieces.push(was !== undefined && samePiece(was, now) ? was : now);
  }
  return pieces;
}

function samePiece(a: Piece, b: Piece): boolean {
  return a.text === b.text && a.stability === b.stability &&
    a.part === b.part && a.owner === b.owner && a.layer === b.layer;
}

/** A top-level part as rendered: its text, cut into pieces. */
export interface Rendered {
  readonly part: AssembledItem;
  readonly text: string;
  readonly pieces: readonly Piece[];
}

/** What built a block: its pieces, each after its lead (separator or ""). */
interface Run {
  readonly block: StepBlock;
  readonly run: readonly (Piece | string)[];
}
const RUNS = new WeakMap<Piece, Run>();
/** The top-level sections each block holds, for the cache plan. */
const SECTIONS = new WeakMap<StepBlock, readonly string[]>();

/**
 * Blocks known to join to a prompt, with that prompt: the renderer's own
 * (joined from the parts the prompt was rendered from), and frozen ones an
 * adapter checked once.
 */
const JOINED = new WeakMap<readonly StepBlock[], string>();

/**
 * Records that `blocks` (frozen) join to `prompt`: an adapter then trusts
 * the pair without joining the texts again.
 */
export function vouch(blocks: readonly StepBlock[], prompt: string): void {
  JOINED.set(blocks, prompt);
}

/** The prompt `blocks` were vouched to join to, if any. */
export function joinedTo(blocks: readonly StepBlock[]): string | undefined {
  return JOINED.get(blocks);
}

/** The sections a block holds: its parts' top-level parts. */
export function sectionsOf(block: StepBlock): readonly string[] {
  return SECTIONS.get(block) ?? block.parts;
}

/**
 * The blocks of a sequence of top-level parts joined as `renderPrompt`
 * joins them (a part that rendered empty is dropped with its separator).
 * A run of the same pieces after the same leads is the block it was, and
 * the same blocks as `last` are `last`.
 */
export function joinBlocks(
  parts: readonly (Rendered | undefined)[],
  how: {
    separator: string;
    last?: readonly StepBlock[] | undefined;
    from?: number;
    to?: number;
  },
): readonly StepBlock[] {
  const { separator, last, from = 0, to = parts.length } = how;
  const blocks: StepBlock[] = [];
  // The block being joined: the run it was last time (followed while the
  // pieces are the same), or the run built afresh from where they differ.
  let known: Run | undefined;
  let k = 0;
  let run: (Piece | string)[] | undefined;
  let stability: Stability | undefined;
  const add = (item: Piece | string) => {
    if (run === undefined && known !== undefined) {
      if (known.run[k] === item) return void k++;
      run = known.run.slice(0, k);
    }
    (run ??= []).push(item);
  };
  const close = () => {
    if (known === undefined && run === undefined) return;
    if (run === undefined && k === known!.run.length) {
      blocks.push(known!.block);
    } else {
      run ??= known!.run.slice(0, k);
      const block = blockOf(run);
      RUNS.set(run[1] as Piece, { block, run });
      blocks.push(block);
    }
    known = run = undefined;
  };
  let started = false;
  for (let t = from; t < to; t++) {
    const { part, text, pieces } = parts[t]!;
    if (text === "") continue;
    let lead = started ? part.separator ?? separator : "";
    started = true;
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (piece.stability !== stability) {
        close();
        stability = piece.stability;
        known = RUNS.get(piece);
        k = 0;
      }
      add(lead);
      add(piece);
      lead = "";
    }
  }
  close();
  // The same blocks are the same array.
  if (last !== undefined && same(last, blocks)) return last;
  return Object.freeze(blocks);
}

function same(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function blockOf(run: readonly (Piece | string)[]): StepBlock {
  let text = "";
  const parts: string[] = [];
  const spans: PartSpan[] = [];
  const sections: string[] = [];
  for (let i = 0; i < run.length; i += 2) {
    const piece = run[i + 1] as Piece;
    const start = text.length;
    text += (run[i] as string) + piece.text;
    let span = piece.span;
    if (span.start !== start || span.end !== text.length) {
      const fresh: { -readonly [K in keyof PartSpan]: PartSpan[K] } = {
        start,
        end: text.length,
      };
      if (piece.owner !== undefined) fresh.owner = piece.owner;
      if (piece.layer !== undefined) fresh.layer = piece.layer;
      span = piece.span = Object.freeze(fresh);
    }
    parts.push(piece.part);
    spans.push(span);
    if (sections.at(-1) !== piece.top) sections.push(piece.top);
  }
  const stability = (run[1] as Piece).stability;
  const block: StepBlock = Object.freeze({
    text,
    stability,
    parts: Object.freeze(parts),
    spans: Object.freeze(spans),
  });
  SECTIONS.set(block, Object.freeze(sections));
  return block;
}

/**
 * An assembly's prompt and its blocks, rendered once: the sections'
 * texts (the complete section's alone when the registry kept only it).
 */
export function assemblyBlocks(
  assembly: PromptAssembly,
): { prompt: string; blocks: readonly StepBlock[] } {
  const texts: (string | undefined)[] = [];
  const prompt = renderAssembly(assembly, { kind: "section", rendered: texts });
  const { sections, variables, separator = "\n\n" } = assembly;
  const parts = sections.map((part, i): Rendered => {
    const text = texts[i]!;
    return {
      part,
      text,
      pieces: piecesOf(part, { text, variables, own: false }),
    };
  });
  // Nothing known: a fresh assembly's pieces are new.
  const blocks = joinBlocks(parts, { separator });
  // Joined from the parts the prompt was rendered from: an adapter trusts them.
  vouch(blocks, prompt);
  return { prompt, blocks };
}
