/**
 * Token counts and tool entries remembered between requests: a text is
 * counted once per counter (a bounded memory, like the parse cache), and
 * a tool whose schema is the registry's frozen copy is stringified and
 * counted once, its wire shapes built once per adapter.
 *
 * @module
 */

import type { StepBlock, ToolSchema } from "../../mod.ts";
import { failure } from "../core/_messages.ts";
import { BoundedCache } from "../render/_bounded_cache.ts";
import { isRegistrySchema } from "../core/_provenance.ts";
import { toolStability } from "../core/tools.ts";

/** A host's token counter. */
export type Counter = (text: string) => number;

/**
 * Texts remembered per counter: at most 2,048 texts or 4 Mi characters a
 * generation, doubling up to 3 times when the texts in use need it.
 */
const COUNTS = new WeakMap<Counter, BoundedCache<number>>();
/** A block's count by the counter that counted it last: no hashing. */
const BLOCK_COUNTS = new WeakMap<StepBlock, { count: Counter; n: number }>();

/**
 * `count(text)`, checked: a count is a non-negative finite number. `action`
 * is what a failure says was being done.
 */
export function counted(
  count: Counter,
  text: string,
  { action = "plan cache breakpoints" }: { action?: string } = {},
): number {
  let memory = COUNTS.get(count);
  if (memory === undefined) COUNTS.set(count, memory = new BoundedCache());
  const known = memory.get(text);
  if (known !== undefined) return known;
  let n: unknown;
  try {
    n = count(text);
  } catch (cause) {
    throw failure({
      code: "invalid-option",
      action,
      problem: `countTokens threw on a text of ${text.length} characters`,
      cause,
    });
  }
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0) {
    const shown = typeof n === "number" ? `${n}` : typeof n;
    throw failure({
      code: "invalid-option",
      action,
      problem:
        `countTokens returned ${shown} for a text of ${text.length} characters, not a non-negative finite number`,
    });
  }
  memory.set(text, n);
  return n;
}

/** A block's tokens by `count`. */
export function blockTokens(count: Counter, block: StepBlock): number {
  const known = BLOCK_COUNTS.get(block);
  if (known?.count === count) return known.n;
  const n = counted(count, block.text);
  BLOCK_COUNTS.set(block, { count, n });
  return n;
}

/** A tool as requests read it: its fields once, its JSON and tokens. */
export interface ToolEntry {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
  /** `deferLoading: true`: the model loads it by tool search, where the API takes that. */
  readonly deferred: boolean;
  /** Its provider's stability; `"static"` for a tool the registry did not copy. */
  readonly stability: "static" | "session";
  /** Its name, description and parameters as JSON: what is counted. */
  readonly json: string;
  /** Its tokens by the last counter. */
  tokens: { count: Counter; n: number } | undefined;
  /** Its wire shape per adapter, for a fixed schema. */
  readonly wire: Map<unknown, unknown> | undefined;
}

const ENTRIES = new WeakMap<object, ToolEntry[]>();

/**
 * A tool's entry: remembered by its schema when the registry froze it,
 * read afresh otherwise (a schema that may still change).
 */
export function toolEntry(tool: ToolSchema): ToolEntry {
  const { name, description, parameters } = tool;
  const deferred = tool.deferLoading === true;
  const fixed = isRegistrySchema(parameters);
  const known = fixed ? ENTRIES.get(parameters) : undefined;
  if (known !== undefined) {
    for (const entry of known) {
      if (
        entry.name === name && entry.description === description &&
        entry.deferred === deferred
      ) return entry;
    }
  }
  const entry: ToolEntry = {
    name,
    description,
    parameters: parameters as Record<string, unknown>,
    deferred,
    // The stability is the schema copy's (its provenance): fixed with it.
    stability: toolStability(tool) ?? "static",
    json: JSON.stringify({ name, description, parameters }),
    tokens: undefined,
    wire: fixed ? new Map() : undefined,
  };
  if (fixed) {
    if (known === undefined) ENTRIES.set(parameters, [entry]);
    else known.push(entry);
  }
  return entry;
}

/** Tools arrays of the registry's frozen copies. */
const FIXED_TOOLS = new WeakSet<readonly ToolSchema[]>();

/** Whether a tools array and its tools are frozen registry copies. */
export function fixedTools(tools: readonly ToolSchema[]): boolean {
  if (FIXED_TOOLS.has(tools)) return true;
  if (!Object.isFrozen(tools)) return false;
  for (const tool of tools) {
    if (!Object.isFrozen(tool) || !isRegistrySchema(tool.parameters)) {
      return false;
    }
  }
  FIXED_TOOLS.add(tools);
  return true;
}

/**
 * A tools list's entries: one list per array of frozen registry copies
 * (see {@linkcode fixedEntries}), else read afresh.
 */
export function entriesOf(tools: readonly ToolSchema[]): readonly ToolEntry[] {
  return fixedTools(tools) ? fixedEntries(tools) : tools.map(toolEntry);
}

const ENTRY_LISTS = new WeakMap<readonly ToolSchema[], readonly ToolEntry[]>();

/**
 * The entries of a tools array of frozen registry copies: one list per
 * array, so that what is computed per list (the tools' places in a plan)
 * is computed once while a step's tools stay the same.
 */
export function fixedEntries(
  tools: readonly ToolSchema[],
): readonly ToolEntry[] {
  let entries = ENTRY_LISTS.get(tools);
  if (entries === undefined) {
    ENTRY_LISTS.set(tools, entries = Object.freeze(tools.map(toolEntry)));
  }
  return entries;
}

/** A tool's tokens by `count`. */
export function toolTokens(count: Counter, entry: ToolEntry): number {
  if (entry.tokens?.count === count) return entry.tokens.n;
  const n = counted(count, entry.json);
  entry.tokens = { count, n };
  return n;
}

/** A tool's wire shape for one adapter, built once for a fixed schema. */
export function wireOf<W>(
  entry: ToolEntry,
  key: unknown,
  build: (entry: ToolEntry) => W,
): W {
  const wire = entry.wire;
  if (wire === undefined) return build(entry);
  let built = wire.get(key) as W | undefined;
  if (built === undefined) wire.set(key, built = Object.freeze(build(entry)));
  return built;
}
