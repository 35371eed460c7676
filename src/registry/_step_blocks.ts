/**
 * The step `render()` returns, and its blocks: a frozen `RenderedStep`
 * whose blocks are joined only when first read, from each part of the
 * prompt cut into pieces by stability. A part's pieces are kept (in the
 * step memory) while it is the same part with the same text, so a step
 * that changed one section cuts only that one. Covered by
 * tests/render_step_test.ts and tests/adapters_step_test.ts.
 *
 * @module
 */

import type {
  AssembledItem,
  RenderedStep,
  StepBlock,
  ToolSchema,
} from "../core/types.ts";
import {
  joinBlocks,
  piecesOf,
  type Rendered,
  vouch,
} from "../render/_blocks.ts";

/** A step's blocks: joined when first read, by `make`. */
export interface BlocksCell {
  blocks: readonly StepBlock[] | undefined;
  make: (() => readonly StepBlock[]) | undefined;
}

/** What a `Step` holds. */
export interface StepFields {
  readonly prompt: string;
  readonly tools: readonly ToolSchema[];
  readonly context: string;
  readonly cell: BlocksCell;
}

/**
 * A rendered step, frozen: an edit of one step by its caller cannot reach
 * a later one. Without handlers, its blocks are joined when first read (a
 * host that only renders never pays for them), from parts cut when the
 * step rendered; a step through the handlers gets them joined at once.
 */
export class Step implements RenderedStep {
  readonly prompt: string;
  readonly tools: readonly ToolSchema[];
  readonly context: string;
  readonly #cell: BlocksCell;

  constructor({ prompt, tools, context, cell }: StepFields) {
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
      // Joined from the parts this step's prompt was rendered from.
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
 * The top-level parts `[from, to)` of a step's prompt, their texts, and
 * `cut`, the step's own array of each part's pieces.
 */
export interface PromptParts {
  readonly cut: (Rendered | undefined)[];
  readonly parts: readonly (AssembledItem | undefined)[];
  readonly texts: readonly (string | undefined)[];
  readonly from: number;
  readonly to: number;
}

/**
 * Cuts each part whose pieces in `cut` are not of the same part and text
 * (those `only` accepts), passing the old pieces on for reuse.
 */
export function cutParts(
  prompt: PromptParts,
  how: {
    variables: Record<string, unknown>;
    only?: (part: AssembledItem) => boolean;
  },
): void {
  const { cut, parts, texts, to } = prompt;
  for (let t = prompt.from; t < to; t++) {
    const part = parts[t]!;
    const text = texts[t]!;
    const known = cut[t];
    if (known !== undefined && known.part === part && known.text === text) {
      continue;
    }
    if (how.only !== undefined && !how.only(part)) continue;
    const pieces = piecesOf(part, {
      text,
      variables: how.variables,
      own: true,
      old: known?.pieces,
    });
    cut[t] = { part, text, pieces };
  }
}

/**
 * The blocks of the prompt's parts, joined when first read. Each part's
 * pieces stand while it is the same part with the same text, kept in
 * `cut` for the next step.
 */
export function blocksLater(
  prompt: PromptParts,
  how: { separator: string; last: readonly StepBlock[] | undefined },
): BlocksCell {
  const cell: BlocksCell = { blocks: undefined, make: undefined };
  cell.make = () => {
    // Not a list cut by stability (that was cut at once): no variable is read.
    cutParts(prompt, { variables: {} });
    cell.make = undefined;
    const { cut, from, to } = prompt;
    return joinBlocks(cut, {
      separator: how.separator,
      last: how.last,
      from,
      to,
    });
  };
  return cell;
}
