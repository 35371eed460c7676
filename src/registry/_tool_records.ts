/**
 * A tool's record, what the registry keeps of each tool it copied: its
 * frozen copy, its host fields, where it came from, and what it may be
 * known by without a walk; and the comparisons that tell whether what a
 * provider returned is still a record's tool. Covered by
 * tests/tool_copies_test.ts and tests/tool_frozen_test.ts.
 *
 * @module
 */

import type { ToolSchema } from "../core/types.ts";
import type { ToolProvenance } from "../core/_provenance.ts";
import { copyJson, countKeys, deepFrozen, sameJson } from "./_tool_json.ts";

/** A host field of a tool as its record keeps it. */
export interface HostField {
  readonly key: string;
  /** The field's value: a frozen copy of JSON data, else as given. */
  readonly value: unknown;
  /** Whether `value` is a copy of JSON data (compared deep), not as given. */
  readonly deep: boolean;
}

/** A tool as the registry keeps it: the fields it read and its frozen copy. */
export interface ToolRecord extends ToolProvenance {
  readonly name: string;
  /**
   * Host fields as copied: JSON data deep-copied and frozen (`deep`),
   * anything else (an `execute`) as given; and how many keys the tool had.
   */
  readonly host: readonly HostField[];
  readonly keys: number;
  readonly copy: ToolSchema;
  /** Its fingerprint, once a pin asked for it. */
  fingerprint?: string;
  /**
   * What it was copied from, where that can never change (deep frozen): the
   * tool object itself, or its `parameters` (a fresh wrapper around a
   * frozen schema). The same object again is the same tool, without a walk.
   */
  frozen?: { readonly tool?: object; readonly parameters?: object };
}

/** The fields every tool has, copied by the registry itself. */
export const SCHEMA_KEYS: readonly string[] = [
  "name",
  "description",
  "parameters",
];

/**
 * Whether a tool holds a record's name and description, `parameters`, its
 * host fields and `keys` keys, each by identity: for a spread of a copy.
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
    if (tool[host[i]!.key] !== host[i]!.value) return false;
  }
  return expected.keys === countKeys(tool);
}

/**
 * Whether `value` is the tool a record was copied from, as it was: name,
 * description and host fields, `parameters` compared deep. Allocates
 * nothing and never throws (a read that throws is a change).
 */
export function unchanged(known: ToolRecord, value: unknown): boolean {
  try {
    if (typeof value !== "object" || value === null) return false;
    const frozen = known.frozen;
    if (frozen !== undefined && value === frozen.tool) return true;
    const tool = value as Record<string, unknown>;
    const copy = known.copy;
    if (tool.name !== known.name || tool.description !== copy.description) {
      return false;
    }
    const parameters = tool.parameters;
    const walked = frozen === undefined || parameters !== frozen.parameters;
    if (walked && !sameJson(parameters, copy.parameters)) return false;
    const host = known.host;
    for (let i = 0; i < host.length; i++) {
      const { key, value: kept, deep } = host[i]!;
      const field = tool[key];
      if (deep ? !sameJson(field, kept) : field !== kept) return false;
    }
    if (known.keys !== countKeys(tool)) return false;
    // A deep-frozen tool replaced by an equal one, deep frozen too (an MCP
    // server's listing again): known by the new one from now on, not
    // walked each step. Only for a record known by a frozen source, so
    // that a tool never frozen pays nothing more.
    if (walked && frozen !== undefined && Object.isFrozen(parameters)) {
      known.frozen = frozenSources(value, parameters).frozen ?? frozen;
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a provider's result holds its last result's tools, unchanged;
 * never throws (a read that throws is a change, which the copy reports).
 */
export function sameRecords(
  records: readonly ToolRecord[],
  provided: unknown,
): boolean {
  try {
    if (!Array.isArray(provided) || records.length !== provided.length) {
      return false;
    }
    for (let i = 0; i < records.length; i++) {
      if (!unchanged(records[i]!, provided[i])) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * The sources a record may be known by identity (see `ToolRecord.frozen`):
 * the schema when it is deep frozen, and the tool too when it is a frozen
 * plain object whose every field is a data property that cannot change (a
 * function counts: the copy holds it by identity), `name`, `description`
 * and `parameters` among them, enumerable or not (the registry reads them
 * even when hidden or inherited).
 */
export function frozenSources(
  tool: object,
  parameters: unknown,
): Pick<ToolRecord, "frozen"> {
  if (!deepFrozen(parameters)) return {};
  const schema = { parameters: parameters as object };
  const fixed = deepFrozen(tool) &&
    SCHEMA_KEYS.every((key) => ownData(tool, key));
  return { frozen: fixed ? { ...schema, tool } : schema };
}

/** Whether `key` is an own data property of `value`; never throws. */
function ownData(value: object, key: string): boolean {
  try {
    const field = Object.getOwnPropertyDescriptor(value, key);
    return field !== undefined && "value" in field;
  } catch {
    return false;
  }
}

export function sameProvenance(
  record: ToolRecord,
  provenance: ToolProvenance,
): boolean {
  return record.owner === provenance.owner &&
    record.layer === provenance.layer &&
    record.stability === provenance.stability;
}

const NOT_JSON: Error = new Error("not JSON data");

/**
 * A host field as the copy carries it: JSON data as a frozen copy (the
 * last one while it holds), anything else (a function, a class instance)
 * as given, compared by identity.
 */
export function hostField(
  value: unknown,
  kept: HostField | undefined,
): Pick<HostField, "value" | "deep"> {
  if (typeof value !== "object" || value === null) {
    return { value, deep: typeof value !== "function" };
  }
  const before = kept?.deep === true ? kept.value : undefined;
  try {
    const refuse = () => NOT_JSON;
    return { value: copyJson(value, before, { root: "", refuse }), deep: true };
  } catch {
    return { value, deep: false };
  }
}
