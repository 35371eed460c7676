/**
 * Tools: each provider's result checked, copied once per distinct object
 * into the registry's own frozen copy (the caller's objects are never
 * touched), owners recorded beside the copies, and the canonical order.
 *
 * @module
 */

import { describeValue, failure, type Where } from "../core/errors.ts";
import type { JsonSchema, ToolSchema } from "../core/types.ts";
import { callError, ignoreRejections, isThenable } from "./_resolve.ts";
import { owned, type Provenance, TOOL_ORDER_REST } from "../core/tools.ts";
import type { Provider, Snapshot } from "./_snapshot.ts";
import { orderTools, type ToolOrder } from "./_tool_order.ts";

/** A tool as the registry keeps it: the fields it read and its frozen copy. */
export interface ToolRecord extends Provenance {
  readonly name: string;
  readonly parameters: unknown;
  /** Host fields as read, and how many keys the object had. */
  readonly host: readonly (readonly [string, unknown])[];
  readonly keys: number;
  readonly copy: ToolSchema;
  /** The caller's object it was read from. */
  readonly source: object;
}

const SCHEMA_KEYS: readonly string[] = ["name", "description", "parameters"];
/** The `typeof` of the JSON values that are not objects, but `null`. */
const SCALARS: ReadonlySet<string> = new Set(["string", "number", "boolean"]);

/** Enumerable keys, counted without allocating. */
export function countKeys(value: object): number {
  let count = 0;
  for (const _ in value) count++;
  return count;
}

/**
 * Whether a tool holds a record's name and description, `parameters`, its
 * host fields and `keys` keys.
 */
export function matches(
  tool: Record<string, unknown>,
  known: ToolRecord,
  expected: { parameters: unknown; keys: number },
): boolean {
  if (
    known.name !== tool.name || known.copy.description !== tool.description ||
    expected.parameters !== tool.parameters
  ) return false;
  const host = known.host;
  for (let i = 0; i < host.length; i++) {
    if (tool[host[i]![0]] !== host[i]![1]) return false;
  }
  return expected.keys === countKeys(tool);
}

/** The record's own tool, answering as it did. */
function unchanged(known: ToolRecord, value: unknown): boolean {
  return value === known.source && matches(value as never, known, known);
}

/** Whether a provider's result holds its last result's tools, unchanged. */
function same(records: readonly ToolRecord[], provided: unknown): boolean {
  if (!Array.isArray(provided) || records.length !== provided.length) {
    return false;
  }
  for (let i = 0; i < records.length; i++) {
    if (!unchanged(records[i]!, provided[i])) return false;
  }
  return true;
}

/** Each provider's records of one step. */
type Results = ToolRecord[][];

/** Whether every tool provider of the chain answered as at the `last` step. */
function steady(last: Results, chain: Snapshot, values: readonly unknown[]) {
  const providers = chain.tools;
  for (let p = 0; p < providers.length; p++) {
    if (!same(last[p]!, values[providers[p]!.call])) return false;
  }
  return true;
}

/** A tool provider's result refused. */
function refused(where: Where, state: string, fields?: { tool: string }) {
  return failure("invalid-value", "list tools", where, state, fields);
}

/** The registry's memory of the tools it has seen, by the caller's object. */
export class ToolCopies {
  readonly #records = new WeakMap<object, ToolRecord>();
  // Checked schemas: the caller's object to its frozen copy, and each copy
  // of ours to itself, so that it needs no check.
  readonly #schemas = new WeakMap<object, JsonSchema>();
  readonly #byPlace = new WeakMap<object, Map<string, JsonSchema>>();
  // Per tool provider: its last result's tools and their records.
  readonly #byProvider = new WeakMap<object, ToolRecord[]>();
  // Per chain snapshot: each provider's records of its last step, and all
  // of them, as collected and checked in order.
  readonly #last = new WeakMap<object, [Results, ToolRecord[], ToolRecord[]]>();

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
    // Fast path: a record stays true of its tool while the tool is unchanged.
    if (last !== undefined && steady(last[0], snapshot, values)) return last[2];
    const providers = snapshot.tools;
    const raw: ToolRecord[] = [];
    for (const provider of providers) {
      try {
        this.#collect(values[provider.call], provider, raw);
      } catch (error) {
        throw callError(snapshot.calls[provider.call]!, error);
      }
    }
    const results = providers.map((p) => this.#byProvider.get(p.entry)!);
    // Read again: a getter the copies ran may have run a step.
    const [, before = [], was] = this.#last.get(snapshot) ?? [];
    let i = 0;
    while (i < raw.length && before[i] === raw[i]) i++;
    const kept = i === raw.length && i === before.length && was !== undefined;
    // Not frozen: internal, and a frozen array is slower to read every step.
    const ordered = kept ? was : raw.slice();
    if (!kept) orderTools(ordered, order);
    this.#last.set(snapshot, [results, raw, ordered]);
    return ordered;
  }

  /** The records of the chain's last step, in order. */
  recordsOf(snapshot: object): readonly ToolRecord[] {
    return this.#last.get(snapshot)?.[2] ?? [];
  }

  /**
   * Checks one provider's result and appends its records. Unchanged tools
   * (same object, same fields, same provider) cost a comparison when the
   * provider's last result held them at the same places, else a lookup.
   */
  #collect(provided: unknown, provider: Provider, into: ToolRecord[]): void {
    const where = provider.where;
    if (!Array.isArray(provided)) {
      const state = `returned ${describeValue(provided)}, not an array`;
      throw refused(where, `its tool provider ${state}`);
    }
    let now = this.#byProvider.get(provider.entry);
    // Fast path: the tools of the last result, at their places, unchanged.
    if (now === undefined || !same(now, provided)) {
      now = [];
      try {
        for (let index = 0, length = provided.length; index < length; index++) {
          const value: unknown = provided[index];
          const known = this.#records.get(value as object);
          now.push(
            known !== undefined && known.owner === where.owner &&
              known.layer === where.layer && unchanged(known, value)
              ? known
              : this.#record(value, { where, index }),
          );
        }
      } catch (error) {
        // Refused: nothing else will read the promises the array holds.
        ignoreRejections(provided);
        throw error;
      }
      this.#byProvider.set(provider.entry, now);
    }
    for (let i = 0; i < now.length; i++) into.push(now[i]!);
  }

  #record(value: unknown, at: { where: Where; index: number }): ToolRecord {
    const { where, index } = at;
    if (typeof value !== "object" || value === null || isThenable(value)) {
      const state = `is ${describeValue(value)}, not a tool`;
      throw refused(where, `item ${index} ${state}`);
    }
    // Own fields (own getters too) are read once by the spread; a class's
    // getters are read from the object only when the spread lacks them.
    const own: Record<string, unknown> = { ...value };
    const field = (key: string) =>
      key in own ? own[key] : (value as Record<string, unknown>)[key];
    const name = field("name");
    const description = field("description");
    const parameters = field("parameters");
    if (typeof name !== "string" || name === "") {
      throw refused(where, `item ${index} is not a tool with a non-empty name`);
    }
    const fields = { tool: name };
    const fail = (state: string) =>
      refused(where, `tool "${name}" ${state}`, fields);
    if (name === TOOL_ORDER_REST) {
      throw fail("takes the name of the toolOrder rest entry");
    }
    if (typeof description !== "string") {
      const state = `has ${describeValue(description)} as description`;
      throw fail(`${state}, not a string`);
    }
    const what = `the parameters of tool "${name}"`;
    const bad = (state: string) => refused(where, `${what} ${state}`, fields);
    const schema = this.#carried(this.checkSchema(parameters, bad), where);
    // Host fields (an `execute`, say) survive on the copy; its provenance
    // is its schema's, so the copy stays a plain object, quick to spread.
    const copy = { ...own, name, description, parameters: schema };
    const record: ToolRecord = {
      name,
      parameters,
      host: Object.entries(own).filter(([key]) => !SCHEMA_KEYS.includes(key)),
      keys: countKeys(value),
      copy: Object.freeze(copy),
      owner: where.owner,
      layer: where.layer,
      source: value,
    };
    this.#records.set(value, record);
    return record;
  }

  /**
   * The schema copy that says who provided a tool: one per schema and
   * provenance, so a tool's copies are found by their `parameters`.
   */
  #carried(schema: JsonSchema, { owner, layer }: Where): JsonSchema {
    const byPlace = this.#byPlace.get(schema) ?? new Map<string, JsonSchema>();
    this.#byPlace.set(schema, byPlace);
    const key = JSON.stringify([owner, layer]);
    let carried = byPlace.get(key);
    if (carried === undefined) {
      carried = owned({ ...schema }, { owner, layer });
      byPlace.set(key, carried);
      this.#schemas.set(carried, carried);
    }
    return carried;
  }

  /**
   * Refuses a schema that is not JSON data, unless it is a copy of ours;
   * returns its frozen copy.
   */
  checkSchema(
    parameters: unknown,
    fail: (state: string) => Error,
  ): JsonSchema {
    if (
      typeof parameters !== "object" || parameters === null ||
      Array.isArray(parameters)
    ) {
      throw fail(`are ${describeValue(parameters)}, not a JSON Schema object`);
    }
    const known = this.#schemas.get(parameters);
    if (known !== undefined) return known;
    const schema = frozenJson(parameters, fail) as JsonSchema;
    this.#schemas.set(parameters, schema);
    return schema;
  }
}

/**
 * A frozen deep copy of JSON data: plain objects, arrays, strings, finite
 * numbers, booleans and null. Anything else (a cycle, a BigInt, a class
 * instance such as a zod schema) is refused with the path at fault.
 */
function frozenJson(schema: object, fail: (state: string) => Error): unknown {
  const seen = new Set<object>();
  const copy = (value: unknown, path: string): unknown => {
    if (typeof value === "number" && !Number.isFinite(value)) {
      throw fail(`hold ${value} at ${path}, which JSON cannot carry`);
    }
    if (value === null || SCALARS.has(typeof value)) return value;
    if (typeof value !== "object") {
      const state = `hold ${describeValue(value)} at ${path}`;
      throw fail(`${state}; a schema is JSON data`);
    }
    if (seen.has(value)) {
      throw fail(`refer to themselves at ${path}; a schema is JSON data`);
    }
    seen.add(value);
    let result: unknown;
    if (Array.isArray(value)) {
      result = value.map((item, i) => copy(item, `${path}[${i}]`));
    } else {
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        const state = `hold a class instance at ${path}; a schema is JSON data`;
        throw fail(`${state} (convert it first)`);
      }
      const fields: [string, unknown][] = [];
      for (const key of Object.keys(value)) {
        const field = (value as Record<string, unknown>)[key];
        // An entry, not an assignment: a `__proto__` key stays an own property.
        if (field !== undefined) {
          fields.push([key, copy(field, `${path}.${key}`)]);
        }
      }
      result = Object.fromEntries(fields);
    }
    seen.delete(value);
    return Object.freeze(result);
  };
  return copy(schema, "parameters");
}
