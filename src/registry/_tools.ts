/**
 * Tools: each provider's result checked, copied once per distinct object
 * into the registry's own frozen copy (the caller's objects are never
 * touched), owners recorded beside the copies, and the canonical order.
 *
 * @module
 */

import { describeValue, failure, type Where } from "../core/errors.ts";
import type { JsonSchema, ToolSchema } from "../core/types.ts";
import { ignoreRejections, isThenable } from "./_guard.ts";
import { owned, type Provenance, TOOL_ORDER_REST } from "../core/tools.ts";

/** A tool as the registry keeps it: the fields it read and its frozen copy. */
export interface ToolRecord {
  readonly name: string;
  readonly description: string;
  readonly parameters: unknown;
  /** Host fields as read, and how many keys the object had. */
  readonly host: readonly (readonly [string, unknown])[];
  readonly keys: number;
  readonly copy: ToolSchema;
  readonly owner: string | undefined;
  readonly layer: string | undefined;
}

const SCHEMA_KEYS: readonly string[] = ["name", "description", "parameters"];

/** Enumerable keys, counted without allocating. */
function countKeys(value: object): number {
  let count = 0;
  for (const _ in value) count++;
  return count;
}

/** The tool answers as it did: its three fields, its host fields, its keys. */
function unchanged(known: ToolRecord, value: object): boolean {
  const tool = value as Record<string, unknown>;
  if (
    known.name !== tool.name || known.description !== tool.description ||
    known.parameters !== tool.parameters
  ) {
    return false;
  }
  const host = known.host;
  for (let i = 0; i < host.length; i++) {
    if (tool[host[i]![0]] !== host[i]![1]) return false;
  }
  return known.keys === countKeys(value);
}

/** One tool provider's result: its tools and their records. */
interface Result {
  readonly sources: unknown[];
  readonly records: ToolRecord[];
}

/** Whether a provider's result holds its last result's tools, unchanged. */
function same(
  last: { sources: readonly unknown[]; records: readonly ToolRecord[] },
  provided: readonly unknown[],
): boolean {
  const { sources, records } = last;
  if (sources.length !== provided.length) return false;
  for (let i = 0; i < sources.length; i++) {
    const value = provided[i];
    if (value !== sources[i] || !unchanged(records[i]!, value as object)) {
      return false;
    }
  }
  return true;
}

/** The registry's memory of the tools it has seen, by the caller's object. */
export class ToolCopies {
  readonly #records = new WeakMap<object, ToolRecord>();
  readonly #schemas = new WeakMap<object, JsonSchema>();
  readonly #byPlace = new WeakMap<object, Map<string, JsonSchema>>();
  // The registry's own frozen copies, which need no check.
  readonly #own = new WeakSet<object>();
  // Per tool provider: its last result's tools and their records.
  readonly #byProvider = new WeakMap<object, Result>();
  // Per chain snapshot: each provider's result of its last step, and the
  // records they gave, checked and in order.
  readonly #last = new WeakMap<
    object,
    {
      results: (Result | undefined)[];
      raw: ToolRecord[];
      ordered: readonly ToolRecord[];
    }
  >();

  /**
   * The ordered records of the chain's last step when every provider
   * answered what it answered then, unchanged; else `undefined`.
   */
  steady(
    snapshot: { readonly tools: readonly { call: number }[] },
    values: readonly unknown[],
  ): readonly ToolRecord[] | undefined {
    const last = this.#last.get(snapshot);
    if (last === undefined) return undefined;
    const providers = snapshot.tools;
    for (let p = 0; p < providers.length; p++) {
      // A record stays true of its tool while the tool is unchanged.
      const result = last.results[p];
      const value = values[providers[p]!.call];
      if (
        result === undefined || !Array.isArray(value) || !same(result, value)
      ) return undefined;
    }
    return last.ordered;
  }

  /** The records of the chain's last step, in order. */
  recordsOf(snapshot: object): readonly ToolRecord[] {
    return this.#last.get(snapshot)?.ordered ?? [];
  }

  /** The ordered records; `prepare` checks and sorts only what changed. */
  ordered(
    snapshot: { readonly tools: readonly { entry: object }[] },
    raw: ToolRecord[],
    prepare: (records: ToolRecord[]) => void,
  ): readonly ToolRecord[] {
    const results = snapshot.tools.map((p) => this.#byProvider.get(p.entry));
    const last = this.#last.get(snapshot);
    if (last !== undefined && last.raw.length === raw.length) {
      let i = 0;
      while (i < raw.length && last.raw[i] === raw[i]) i++;
      if (i === raw.length) {
        this.#last.set(snapshot, { ...last, results });
        return last.ordered;
      }
    }
    const ordered = raw.slice();
    prepare(ordered);
    // Not frozen: internal, and a frozen array is slower to read every step.
    this.#last.set(snapshot, { results, raw, ordered });
    return ordered;
  }

  /**
   * Checks one provider's result and appends its records. Unchanged tools
   * (same object, same fields, same provider) cost a comparison when the
   * provider's last result held them at the same places, else a lookup.
   */
  collect(
    provided: unknown,
    provider: { readonly entry: object; readonly where: Where },
    into: ToolRecord[],
  ): void {
    const where = provider.where as Where & { owner: string | undefined };
    const fail = (state: string, tool?: string) =>
      failure(
        "invalid-value",
        "list tools",
        where,
        state,
        tool === undefined ? undefined : { tool },
      );
    if (!Array.isArray(provided)) {
      throw fail(
        `its tool provider returned ${describeValue(provided)}, not an array`,
      );
    }
    const last = this.#byProvider.get(provider.entry);
    // Fast path: the tools of the last result, at their places, unchanged.
    if (last !== undefined && same(last, provided)) {
      for (let i = 0; i < last.records.length; i++) into.push(last.records[i]!);
      return;
    }
    const now: Result = { sources: [], records: [] };
    try {
      const length = provided.length;
      for (let i = 0; i < length; i++) {
        const value: unknown = provided[i];
        const known = typeof value === "object" && value !== null
          ? this.#records.get(value)
          : undefined;
        const record = known !== undefined && known.owner === where.owner &&
            known.layer === where.layer && unchanged(known, value as object)
          ? known
          : this.#record(value, { where, index: i, fail });
        into.push(record);
        now.sources.push(value);
        now.records.push(record);
      }
    } catch (error) {
      // Refused: nothing else will read the promises the array holds.
      ignoreRejections(provided);
      throw error;
    }
    this.#byProvider.set(provider.entry, now);
  }

  #record(
    value: unknown,
    at: {
      where: Where & { owner: string | undefined };
      index: number;
      fail: (state: string, tool?: string) => Error;
    },
  ): ToolRecord {
    const { where, index, fail } = at;
    if (typeof value !== "object" || value === null || isThenable(value)) {
      throw fail(`item ${index} is ${describeValue(value)}, not a tool`);
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
      throw fail(`item ${index} is not a tool with a non-empty name`);
    }
    if (name === TOOL_ORDER_REST) {
      throw fail(
        `tool "${name}" takes the name of the toolOrder rest entry`,
        name,
      );
    }
    if (typeof description !== "string") {
      throw fail(
        `tool "${name}" has ${
          describeValue(description)
        } as description, not a string`,
        name,
      );
    }
    const provenance: Provenance = { owner: where.owner, layer: where.layer };
    const schema = this.#carried(
      this.#schema(
        parameters,
        (state) => fail(`the parameters of tool "${name}" ${state}`, name),
      ),
      provenance,
    );
    // Host fields (an `execute`, say) survive on the copy; its provenance
    // is its schema's, so the copy stays a plain object, quick to spread.
    const copy = Object.freeze(
      { ...own, name, description, parameters: schema } as ToolSchema,
    );
    const hosted = Object.keys(own).filter((key) => !SCHEMA_KEYS.includes(key));
    const record: ToolRecord = {
      name,
      description,
      parameters,
      host: hosted.map((key) => [key, own[key]] as const),
      keys: countKeys(value),
      copy,
      owner: where.owner,
      layer: where.layer,
    };
    this.#records.set(value, record);
    return record;
  }

  /**
   * The schema copy that says who provided a tool: one per schema and
   * provenance, so a tool's copies are found by their `parameters`.
   */
  #carried(schema: JsonSchema, provenance: Provenance): JsonSchema {
    let byPlace = this.#byPlace.get(schema);
    if (byPlace === undefined) this.#byPlace.set(schema, byPlace = new Map());
    const key = JSON.stringify([provenance.owner, provenance.layer]);
    let carried = byPlace.get(key);
    if (carried === undefined) {
      carried = owned({ ...schema }, provenance);
      byPlace.set(key, carried);
      this.#own.add(carried);
    }
    return carried;
  }

  /** Refuses a schema that is not JSON data, unless it is a copy of ours. */
  checkSchema(parameters: unknown, fail: (state: string) => Error): void {
    if (
      typeof parameters === "object" && parameters !== null &&
      this.#own.has(parameters)
    ) return;
    this.#schema(parameters, fail);
  }

  #schema(parameters: unknown, fail: (state: string) => Error): JsonSchema {
    if (
      typeof parameters !== "object" || parameters === null ||
      Array.isArray(parameters)
    ) {
      throw fail(`are ${describeValue(parameters)}, not a JSON Schema object`);
    }
    let schema = this.#schemas.get(parameters);
    if (schema === undefined) {
      const at = { seen: new Set<object>(), path: "parameters", fail };
      schema = frozenJson(parameters, at) as JsonSchema;
      this.#schemas.set(parameters, schema);
      this.#own.add(schema);
    }
    return schema;
  }
}

/**
 * A frozen deep copy of JSON data: plain objects, arrays, strings, finite
 * numbers, booleans and null. Anything else (a cycle, a BigInt, a class
 * instance such as a zod schema) is refused with the path at fault.
 */
function frozenJson(
  value: unknown,
  at: { seen: Set<object>; path: string; fail: (state: string) => Error },
): unknown {
  const { seen, path, fail } = at;
  if (
    value === null || typeof value === "string" || typeof value === "boolean"
  ) return value;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    throw fail(`hold ${value} at ${path}, which JSON cannot carry`);
  }
  if (typeof value !== "object") {
    throw fail(
      `hold ${describeValue(value)} at ${path}; a schema is JSON data`,
    );
  }
  if (seen.has(value)) {
    throw fail(`refer to themselves at ${path}; a schema is JSON data`);
  }
  seen.add(value);
  let copy: unknown;
  if (Array.isArray(value)) {
    copy = value.map((item, i) =>
      frozenJson(item, { seen, path: `${path}[${i}]`, fail })
    );
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw fail(
        `hold a class instance at ${path}; a schema is JSON data (convert it first)`,
      );
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const field = (value as Record<string, unknown>)[key];
      if (field !== undefined) {
        // Defined, not assigned: a `__proto__` key stays an own property.
        Object.defineProperty(out, key, {
          value: frozenJson(field, { seen, path: `${path}.${key}`, fail }),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    copy = out;
  }
  seen.delete(value);
  return Object.freeze(copy);
}
