/**
 * What every adapter does around its provider's shape: the blocks and the
 * tools of its source, the plan, the breakpoints it chose, and the runtime
 * context as the provider's message; and what it remembers. A step from
 * `render()` keeps its `blocks` and `tools` arrays while they do not
 * change, so its request's system blocks, tools and plan are found by
 * them, and the same step again is the same result. An assembly is
 * rendered and cut every call, and its request remembered by its prompt's
 * text (a bounded memory); its texts' and tools' token counts are
 * remembered by content.
 *
 * @module
 */

import {
  type PromptAssembly,
  renderContext,
  type RenderedStep,
  type StepBlock,
  type ToolSchema,
} from "../../mod.ts";
import { assemblyBlocks, joinedTo, vouch } from "../render/_blocks.ts";
import { BoundedCache } from "../render/_bounded_cache.ts";
import { isStep } from "./_blocks.ts";
import {
  fixedEntries,
  fixedTools,
  type ToolEntry,
  toolEntry,
} from "./_counts.ts";
import { planFrom, sameSettings, type Settings, settingsOf } from "./_plan.ts";
import type { AdapterOptions, CachePlan } from "./plan.ts";
import type { ProviderProfile } from "./profiles.ts";
import { failure } from "../core/_messages.ts";
import { STABILITIES } from "../core/_stability.ts";

/** A breakpoint as the providers spell it: `ttl` only for `"1h"`, not the default 5 minutes. */
export type Mark<T extends string> = { type: T; ttl?: "1h" };

/**
 * The breakpoint after a block (its index), or on a tool (`{ tool }`, its
 * index in the step's tools), if the plan put one there.
 */
export type Marker = <T extends string>(
  after: number | { tool: number },
  type: T,
) => Mark<T> | undefined;

/** A request: its fields, and its plan and context message out of sight. */
export type Request = { plan: CachePlan; contextMessage?: unknown };
/** A request's own fields. */
export type Fields<R extends Request> = Omit<R, "plan" | "contextMessage">;

/**
 * What an adapter builds from a plan: the request's own fields, those of
 * the system prompt and those of the tools (in that order on the wire),
 * each built only when what it reads changed.
 */
export interface Shape<R extends Request> {
  /**
   * The system prompt's fields, built once per blocks array and options:
   * `prompt` is the blocks' texts joined (the step's own prompt).
   */
  system(
    prompt: string,
    blocks: readonly StepBlock[],
    mark: Marker,
    plan: CachePlan,
  ): Partial<Fields<R>>;
  /**
   * The tools' fields, built once per entries list, with the same marks
   * on the tools, provider and `extra` (a step where only a block changed
   * keeps its tools list).
   */
  tools(
    tools: readonly ToolEntry[],
    mark: Marker,
    plan: CachePlan,
    extra: unknown,
  ): Partial<Fields<R>>;
  /** The runtime context as the provider's message. */
  message(context: string): NonNullable<R["contextMessage"]>;
  /**
   * Whether the request sends a deferred tool as deferred (out of the
   * prompt) for this profile: a fact of the adapter's API, not of the
   * profile's cache rules (`toOpenAIChat` sends in full with `OPENAI`).
   */
  defers(profile: ProviderProfile): boolean;
}

/** A tools list's wire fields, and what they were built for. */
interface ToolFields<R extends Request> {
  /** The marks on the tools, as `index:ttl` pairs. */
  readonly marks: string;
  readonly provider: string;
  readonly extra: unknown;
  readonly fields: Partial<Fields<R>>;
}

/** A request's fields with their plan, shared by steps with the same parts. */
interface Shared<F> {
  readonly blocks: readonly StepBlock[];
  readonly tools: readonly ToolSchema[];
  readonly entries: readonly ToolEntry[];
  readonly settings: Settings;
  readonly extra: unknown;
  readonly plan: CachePlan;
  readonly fields: F;
}

/** A step's result, while the step and the options stay as they were. */
interface Known<R> {
  readonly prompt: string;
  readonly tools: readonly ToolSchema[];
  readonly blocks: readonly StepBlock[];
  readonly context: string;
  readonly settings: Settings;
  readonly extra: unknown;
  readonly result: R;
}

/** How many requests a blocks array (or a prompt text) keeps. */
const SHARED_PER_BLOCKS = 8;

/** One adapter's memory: weak, so a step's go when it does. */
export class Adapter<R extends Request> {
  readonly #results = new WeakMap<RenderedStep, Known<unknown>>();
  readonly #shared = new WeakMap<readonly StepBlock[], Shared<Fields<R>>[]>();
  /** An assembly's, by its prompt's text: bounded like the parse cache. */
  readonly #byText = new BoundedCache<Shared<Fields<R>>[]>();
  /** Each entries list's wire tools, by the marks on them. */
  readonly #tools = new WeakMap<readonly ToolEntry[], ToolFields<R>[]>();

  constructor(
    readonly profile: ProviderProfile,
    readonly shape: Shape<R>,
  ) {}

  /** The request for a source: remembered for a step, built for an assembly. */
  request(
    source: PromptAssembly | RenderedStep,
    how: { options: AdapterOptions; extra?: unknown },
  ): R {
    const { options, extra } = how;
    const settings = settingsOf(options, this.profile);
    if (!isStep(source)) {
      const { prompt, blocks } = assemblyBlocks(source);
      const entries = source.tools.map(toolEntry);
      const list = this.#byText.get(prompt);
      let shared = list?.find((known) =>
        sameBlocks(known.blocks, blocks) &&
        sameEntries(known.entries, entries) && known.extra === extra &&
        sameSettings(known.settings, settings)
      );
      if (shared === undefined) {
        shared = this.#build(
          { prompt, blocks, tools: source.tools, entries },
          settings,
          extra,
        );
        this.#byText.set(prompt, kept(list?.slice(), shared));
      }
      return this.#result(shared, renderContext(source));
    }
    const known = this.#results.get(source);
    if (
      known !== undefined && known.prompt === source.prompt &&
      known.tools === source.tools && known.blocks === source.blocks &&
      known.context === source.context && known.extra === extra &&
      sameSettings(known.settings, settings)
    ) return known.result as R;
    const { prompt, tools, blocks, context } = source;
    const fixed = fixedBlocks(blocks, prompt) && fixedTools(tools);
    if (!fixed) {
      const entries = tools.map(toolEntry);
      const parts = { prompt, blocks, tools, entries };
      return this.#result(this.#build(parts, settings, extra), context);
    }
    // The same tools array, or fresh copies of the same tools.
    let entries: readonly ToolEntry[] | undefined;
    const list = this.#shared.get(blocks);
    let shared = list?.find((known) =>
      known.extra === extra && sameSettings(known.settings, settings) &&
      (known.tools === tools ||
        sameEntries(known.entries, entries ??= fixedEntries(tools)))
    );
    if (shared === undefined) {
      entries ??= fixedEntries(tools);
      shared = this.#build({ prompt, blocks, tools, entries }, settings, extra);
      this.#shared.set(blocks, kept(list, shared));
    }
    const result = this.#result(shared, context);
    this.#results.set(source, {
      prompt,
      tools,
      blocks,
      context,
      settings,
      extra,
      result,
    });
    return result;
  }

  #build(
    parts: {
      prompt: string;
      blocks: readonly StepBlock[];
      tools: readonly ToolSchema[];
      entries: readonly ToolEntry[];
    },
    settings: Settings,
    extra: unknown,
  ): Shared<Fields<R>> {
    const { prompt, blocks, tools, entries } = parts;
    const defers = this.shape.defers(settings.profile);
    const plan = planFrom(blocks, { tools: entries, settings, defers });
    // The chosen breakpoints by place: a block's index, or -1 - a tool's.
    const ttls = new Map<number, "5m" | "1h">();
    let marks = "";
    for (const choice of plan.choices) {
      if (!choice.chosen || choice.ttl === undefined) continue;
      const { after, tool } = choice;
      if (typeof after === "number") ttls.set(after, choice.ttl);
      else if (tool !== undefined) {
        ttls.set(-1 - tool, choice.ttl);
        marks += `${tool}:${choice.ttl},`;
      }
    }
    const mark: Marker = (after, type) => {
      const ttl = ttls.get(typeof after === "number" ? after : -1 - after.tool);
      if (ttl === undefined) return undefined;
      // Frozen: the remembered request shares it with every caller.
      return Object.freeze(ttl === "1h" ? { type, ttl } : { type });
    };
    const system = this.shape.system(prompt, blocks, mark, plan);
    const wire = this.#toolFields(entries, { marks, mark, plan, extra });
    const fields = Object.freeze({ ...system, ...wire }) as Fields<R>;
    return { blocks, tools, entries, settings, extra, plan, fields };
  }

  /**
   * The tools' fields: built once per entries list (one per tools array
   * of the registry's copies) with the same marks, provider and `extra`.
   */
  #toolFields(
    entries: readonly ToolEntry[],
    how: { marks: string; mark: Marker; plan: CachePlan; extra: unknown },
  ): Partial<Fields<R>> {
    const { marks, mark, plan, extra } = how;
    const provider = plan.provider;
    const list = this.#tools.get(entries);
    const known = list?.find((one) =>
      one.marks === marks && one.provider === provider && one.extra === extra
    );
    if (known !== undefined) return known.fields;
    const fields = this.shape.tools(entries, mark, plan, extra);
    const one = { marks, provider, extra, fields };
    if (list === undefined) this.#tools.set(entries, [one]);
    else kept(list, one);
    return fields;
  }

  /**
   * The request: its fields enumerable, `plan` and `contextMessage` not,
   * so a spread or `JSON.stringify` holds only what the provider takes.
   */
  #result(shared: Shared<Fields<R>>, context: string): R {
    const result = { ...shared.fields };
    Object.defineProperty(result, "plan", { value: shared.plan });
    if (context !== "") {
      const message = Object.freeze(this.shape.message(context));
      Object.defineProperty(result, "contextMessage", { value: message });
    }
    return Object.freeze(result) as unknown as R;
  }
}

/** A list of requests with one more, the oldest dropped past the bound. */
function kept<T>(list: T[] | undefined, one: T): T[] {
  const out = list ?? [];
  if (out.push(one) > SHARED_PER_BLOCKS) out.shift();
  return out;
}

/** Whether two tool lists hold the same tools: the same entries, or equal. */
function sameEntries(
  a: readonly ToolEntry[],
  b: readonly ToolEntry[],
): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i]!, b[i]!];
    if (
      x !== y && (x.name !== y.name || x.json !== y.json ||
        x.deferred !== y.deferred || x.stability !== y.stability)
    ) return false;
  }
  return true;
}

/** Whether two blocks lists say the same: texts, stabilities, parts, spans. */
function sameBlocks(
  a: readonly StepBlock[],
  b: readonly StepBlock[],
): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i]!, b[i]!];
    if (x.text !== y.text || x.stability !== y.stability) return false;
    if (x.parts.length !== y.parts.length) return false;
    for (let k = 0; k < x.parts.length; k++) {
      const [s, t] = [x.spans[k]!, y.spans[k]!];
      if (
        x.parts[k] !== y.parts[k] || s.start !== t.start || s.end !== t.end ||
        s.owner !== t.owner || s.layer !== t.layer
      ) return false;
    }
  }
  return true;
}

/**
 * Whether a step's blocks are frozen and join to its prompt (checked once
 * per array); a step whose blocks do not is refused.
 */
function fixedBlocks(blocks: readonly StepBlock[], prompt: string): boolean {
  // Joined by the renderer for this prompt, or checked once already.
  if (joinedTo(blocks) === prompt) return true;
  let text = "";
  let frozen = Object.isFrozen(blocks);
  for (const block of blocks) {
    const ok = typeof block === "object" && block !== null &&
      typeof block.text === "string" && STABILITIES.includes(block.stability) &&
      Array.isArray(block.parts) && Array.isArray(block.spans);
    if (!ok) throw badBlocks("hold a block that is not a StepBlock");
    text += block.text;
    frozen &&= Object.isFrozen(block) && Object.isFrozen(block.parts) &&
      Object.isFrozen(block.spans);
  }
  if (text !== prompt) throw badBlocks("do not join to its prompt");
  if (frozen) vouch(blocks, prompt);
  return frozen;
}

const badBlocks = (state: string) =>
  failure({
    code: "invalid-value",
    action: "build the request",
    problem:
      `the step's blocks ${state}; pass the step render() returned, or an assembly`,
  });

/** The runtime context as a user message of text. */
export const userMessage = (
  content: string,
): { role: "user"; content: string } => ({ role: "user", content });

/**
 * A block's wire object where it carries no mark: built once per frozen
 * block and adapter (frozen, since requests share it), so a step that
 * keeps a block keeps its object. A block that is not frozen (a hand-made
 * step's) may change its text: built afresh.
 */
export function unmarked<W extends object>(
  memory: WeakMap<StepBlock, W>,
  block: StepBlock,
  build: (block: StepBlock) => W,
): W {
  if (!Object.isFrozen(block)) return Object.freeze(build(block));
  let wire = memory.get(block);
  if (wire === undefined) memory.set(block, wire = Object.freeze(build(block)));
  return wire;
}
