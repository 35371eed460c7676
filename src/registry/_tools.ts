/**
 * Tools: each provider's result compared with the registry's last copy of
 * each of its tools (by name), and only what changed copied again into the
 * registry's own frozen copy (the caller's objects are never touched), who
 * provided it marked on the copy's schema; then the canonical order and
 * the check of pinned tools.
 *
 * Covered by tests/tool_copies_test.ts, tests/tool_frozen_test.ts,
 * tests/tool_stability_test.ts and tests/tool_owner_test.ts.
 *
 * @module
 */

import { describeValue } from "../core/_describe.ts";
import type { PromptError } from "../core/errors.ts";
import { failure, type Where } from "../core/_messages.ts";
import { notSchema, toolFault } from "../core/_tool_fields.ts";
import type { JsonSchema, ToolSchema, ToolStability } from "../core/types.ts";
import { BoundedCache } from "../render/_bounded_cache.ts";
import { ignoreRejections, isThenable } from "../core/_guards.ts";
import { callError } from "./_resolve.ts";
import {
  isRegistrySchema,
  owned,
  type ToolProvenance,
} from "../core/_provenance.ts";
import type { Provider, Snapshot } from "./_snapshot.ts";
import { orderTools, type ToolOrder } from "./_tool_order.ts";
import { copyJson, countKeys, shaped } from "./_tool_json.ts";
import {
  frozenSources,
  type HostField,
  hostField,
  sameProvenance,
  sameRecords,
  SCHEMA_KEYS,
  type ToolRecord,
  unchanged,
} from "./_tool_records.ts";
import { checkPins } from "./_tool_pins.ts";

/** Each provider's records of one step. */
type Results = ToolRecord[][];

/**
 * How many of the chain's tool providers, from the first, answered as at
 * the `last` step (all of them: the step's tools are the last step's).
 */
function steady(
  last: Results,
  chain: Snapshot,
  values: readonly unknown[],
): number {
  const providers = chain.tools;
  for (let p = 0; p < providers.length; p++) {
    if (!sameRecords(last[p]!, values[providers[p]!.call])) return p;
  }
  return providers.length;
}

/**
 * A tool provider's result refused: in the tool, once it has a name
 * (`Cannot list tool "x" of "o": …`), else in the provider's list.
 */
function refused(
  where: Where,
  problem: string,
  more: { tool?: string | undefined; cause?: unknown } = {},
) {
  const { tool, ...cause } = more;
  const code = "invalid-value";
  return tool === undefined
    ? failure({ code, action: "list tools", where, problem, ...cause })
    : failure({
      code,
      action: "list",
      where: { ...where, tool },
      problem,
      ...cause,
    });
}

/** A chain's last step: each provider's records, and all of them as collected and as ordered. */
interface LastTools {
  readonly results: Results;
  readonly raw: readonly ToolRecord[];
  readonly ordered: readonly ToolRecord[];
}

/** A provider's last result: its records, and each by name. */
interface Listing {
  readonly records: readonly ToolRecord[];
  readonly byName: ReadonlyMap<string, ToolRecord>;
}

/** How many tools' key orders are remembered after their provider went. */
const KEY_ORDERS = 4096;

/** The registry's memory of the tools it has seen, by provider and name. */
export class ToolCopies {
  // Per tool provider: its last result's records.
  readonly #byProvider = new WeakMap<object, Listing>();
  // Per owner, layer and name: the last record, whose key order a tool
  // keeps when its provider is registered again (an MCP reconnect).
  readonly #seen = new BoundedCache<ToolRecord>({ maxEntries: KEY_ORDERS });
  // Per chain snapshot: the records whose changed fingerprint was reported.
  readonly #reported = new WeakMap<object, WeakSet<ToolRecord>>();
  readonly #onToolChanged: ((error: PromptError) => void) | undefined;
  // Per chain snapshot: each provider's records of its last step, and all
  // of them, as collected and checked in order.
  readonly #last = new WeakMap<object, LastTools>();

  /** @param onToolChanged Where a changed pinned tool goes instead of a rejection. */
  constructor(onToolChanged?: (error: PromptError) => void) {
    this.#onToolChanged = onToolChanged;
  }

  /**
   * The step's records, checked and in canonical order. When every
   * provider answered what it answered at the chain's last step, unchanged,
   * or the records are the last step's (a tool moved from one provider to
   * another, say), the last step's array: the step stays the same.
   */
  records(
    snapshot: Snapshot,
    values: readonly unknown[],
    order: ToolOrder,
  ): readonly ToolRecord[] {
    const last = this.#last.get(snapshot);
    const providers = snapshot.tools;
    // Fast path: one compare walk per tool, allocating nothing.
    const same = last === undefined
      ? 0
      : steady(last.results, snapshot, values);
    if (same === providers.length && last !== undefined) return last.ordered;
    const raw: ToolRecord[] = [];
    for (let p = 0; p < providers.length; p++) {
      const provider = providers[p]!;
      // Those before the first change were compared already: not again.
      const compared = p < same ? last!.results[p] : undefined;
      try {
        this.#collect(values[provider.call], provider, { into: raw, compared });
      } catch (error) {
        throw callError(snapshot.calls[provider.call]!, error);
      }
    }
    const results = providers.map((p) =>
      this.#byProvider.get(p.entry)!.records as ToolRecord[]
    );
    // Read again: a getter the copies ran may have run a step.
    const again = this.#last.get(snapshot);
    const before = again?.raw ?? [];
    const was = again?.ordered;
    let i = 0;
    while (i < raw.length && before[i] === raw[i]) i++;
    const kept = i === raw.length && i === before.length && was !== undefined;
    // Not frozen: internal, and a frozen array is slower to read every step.
    let ordered = was!;
    if (!kept) orderTools(ordered = raw.slice(), order);
    if (snapshot.pins !== undefined) {
      let reported = this.#reported.get(snapshot);
      if (reported === undefined) {
        this.#reported.set(snapshot, reported = new WeakSet());
      }
      checkPins(ordered, snapshot.pins, {
        onChanged: this.#onToolChanged,
        reported,
      });
    }
    this.#last.set(snapshot, { results, raw, ordered });
    return ordered;
  }

  /** The records of the chain's last step, in order. */
  recordsOf(snapshot: object): readonly ToolRecord[] {
    return this.#last.get(snapshot)?.ordered ?? [];
  }

  /**
   * Checks one provider's result and appends its records. An unchanged
   * tool costs a compare walk against its record at the same place, else
   * the one of its name; a changed one is copied where it changed.
   */
  #collect(
    provided: unknown,
    provider: Provider,
    to: {
      into: ToolRecord[];
      /** Records `provided` was found equal to this step. */
      compared: readonly ToolRecord[] | undefined;
    },
  ): void {
    const { into, compared } = to;
    const where = provider.where;
    if (!Array.isArray(provided)) {
      const state = `returned ${describeValue(provided)}, not an array`;
      throw refused(where, `its tool provider ${state}`);
    }
    let listing = this.#byProvider.get(provider.entry);
    // Fast path: the tools of the last result, at their places, unchanged.
    if (
      listing === undefined ||
      (listing.records !== compared && !sameRecords(listing.records, provided))
    ) {
      const records: ToolRecord[] = [];
      const byName = new Map<string, ToolRecord>();
      const stability = provider.entry.stability ?? "static";
      const place = { where, stability };
      try {
        for (let index = 0, length = provided.length; index < length; index++) {
          const value: unknown = provided[index];
          let known = listing?.records[index];
          if (known === undefined || !unchanged(known, value)) {
            known = this.#record(value, { ...place, index, listing, known });
          }
          records.push(known);
          byName.set(known.name, known);
        }
      } catch (error) {
        // Refused: nothing else will read the promises the array holds.
        ignoreRejections(provided);
        throw error;
      }
      this.#byProvider.set(provider.entry, listing = { records, byName });
    }
    for (let i = 0; i < listing.records.length; i++) {
      into.push(listing.records[i]!);
    }
  }

  #record(
    value: unknown,
    at: {
      where: Where;
      index: number;
      stability: ToolStability;
      /** The provider's last result, and the record compared already. */
      listing: Listing | undefined;
      known: ToolRecord | undefined;
    },
  ): ToolRecord {
    const { where, index, stability } = at;
    const label = `item ${index}`;
    if (typeof value !== "object" || value === null || isThenable(value)) {
      throw refused(where, toolFault(undefined, { label, value })!.problem);
    }
    // Own fields (own getters too) are read once by the spread; a class's
    // getters are read from the object only when the spread lacks them.
    const own: Record<string, unknown> = { ...value };
    const field = (key: string) =>
      key in own ? own[key] : (value as Record<string, unknown>)[key];
    const read = {
      name: field("name"),
      description: field("description"),
      deferLoading: own.deferLoading,
    };
    const parameters = field("parameters");
    const fault = toolFault(read, { label });
    if (fault !== undefined) {
      throw refused(where, fault.problem, { tool: fault.tool });
    }
    const name = read.name as string;
    const description = read.description as string;
    const fields = { tool: name };
    const { owner, layer } = where;
    const key = seenKey(where, name);
    // The last record of its name: of this provider, or of another of the
    // same owner and layer (a tool that moved). Its parts are reused, its
    // key order kept; it is the record while the tool equals it.
    const was = at.listing?.byName.get(name) ?? this.#seen.get(key);
    if (
      was !== undefined && was !== at.known && was.stability === stability &&
      unchanged(was, value)
    ) return was;
    const bad = (state: string, cause?: unknown) =>
      refused(where, `its parameters ${state}`, { ...fields, cause });
    const provenance = { owner, layer, stability };
    const schema = this.#schema(parameters, { was, bad, provenance });
    const host: HostField[] = [];
    const copy: Record<string, unknown> = {};
    const put = (key: string) => {
      if (key === "name") copy[key] = name;
      else if (key === "description") copy[key] = description;
      else if (key === "parameters") copy[key] = schema;
      else if (Object.hasOwn(own, key)) {
        const kept = was?.host.find((field) => field.key === key);
        const { value, deep } = hostField(own[key], kept);
        host.push({ key, value, deep });
        copy[key] = value;
      }
    };
    // The last copy's keys first, in its order; then the new ones.
    const keys = Object.keys(was?.copy ?? {});
    for (const key of keys) {
      if (Object.hasOwn(own, key) || SCHEMA_KEYS.includes(key)) put(key);
    }
    for (const key of [...Object.keys(own), ...SCHEMA_KEYS]) {
      if (!Object.hasOwn(copy, key) && !keys.includes(key)) put(key);
    }
    const record: ToolRecord = {
      name,
      host,
      keys: countKeys(value),
      // Its provenance is its schema's: the copy stays a plain object,
      // quick to spread.
      copy: Object.freeze(copy) as unknown as ToolSchema,
      owner,
      layer,
      stability,
      ...frozenSources(value, parameters),
    };
    this.#seen.set(key, record);
    return record;
  }

  /**
   * The schema copy that says who provided a tool: the last one when it
   * still holds, else a copy of what changed, its root marked.
   */
  #schema(
    parameters: unknown,
    at: {
      was: ToolRecord | undefined;
      bad: (state: string, cause?: unknown) => Error;
      provenance: ToolProvenance;
    },
  ): JsonSchema {
    const { was, bad, provenance } = at;
    const before = was?.copy.parameters;
    if (typeof parameters !== "object" || parameters === null) {
      throw bad(notSchema(parameters));
    }
    const copied = copyJson(parameters, before, {
      root: "parameters",
      refuse: bad,
    });
    if (Array.isArray(copied)) {
      throw bad(notSchema(parameters));
    }
    if (copied === before && sameProvenance(was!, provenance)) return before!;
    return owned(shaped({ ...copied as JsonSchema }, parameters), provenance);
  }

  /**
   * Refuses a schema that is not JSON data, unless it is a copy of ours.
   * A handler's own schema is walked each time: an edit in place is seen.
   */
  checkSchema(
    parameters: unknown,
    fail: (state: string) => Error,
  ): void {
    if (
      typeof parameters !== "object" || parameters === null ||
      Array.isArray(parameters)
    ) {
      throw fail(notSchema(parameters));
    }
    // A registry's own copy (frozen, its provenance on it) is JSON data.
    if (isRegistrySchema(parameters)) return;
    copyJson(parameters, undefined, { root: "parameters", refuse: fail });
  }
}

/** The key of a tool's last record across its owner and layer's providers. */
function seenKey({ owner, layer }: Where, name: string): string {
  return JSON.stringify([owner, layer, name]);
}
