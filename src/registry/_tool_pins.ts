/**
 * Tool pins: the `toolPins` option checked once (`invalid-option`), a
 * chain's pins merged (the nearest layer's pin of a name wins), and each
 * step's pinned tools compared with their pins, by fingerprint, computed
 * only for a pinned tool and once per copy.
 *
 * @module
 */

import { describeValue } from "../core/_describe.ts";
import type { PromptError } from "../core/errors.ts";
import { failure } from "../core/_messages.ts";
import { toolFingerprint } from "../core/fingerprint.ts";
import type { ToolSchema } from "../core/types.ts";

/** What a pin check reads of a tool's record (`_tools.ts`), and caches. */
export interface Pinned {
  readonly name: string;
  readonly owner: string | undefined;
  readonly layer: string | undefined;
  readonly copy: ToolSchema;
  fingerprint?: string;
}

/** A chain's pins by tool name. */
export type Pins = ReadonlyMap<string, string>;

const FINGERPRINT = /^[0-9a-f]{64}$/;

/**
 * Checks a `toolPins` option: an object of tool names to fingerprints (64
 * hex characters, kept lowercase). `undefined` for none.
 */
export function toolPins(
  pins: unknown,
  at: { action: string; layer?: string },
): Pins | undefined {
  if (pins === undefined) return undefined;
  const where = at.layer === undefined ? {} : { layer: at.layer };
  const bad = (state: string) =>
    failure({
      code: "invalid-option",
      action: at.action,
      where,
      problem: `toolPins ${state}`,
    });
  if (typeof pins !== "object" || pins === null || Array.isArray(pins)) {
    throw bad(`is ${describeValue(pins)}, not an object of fingerprints`);
  }
  const read = new Map<string, string>();
  for (const name of Object.keys(pins)) {
    const pin: unknown = (pins as Record<string, unknown>)[name];
    const lower = typeof pin === "string" ? pin.toLowerCase() : "";
    if (!FINGERPRINT.test(lower)) {
      const state = `pins tool "${name}" to ${describeValue(pin)}`;
      throw bad(`${state}, not a fingerprint (64 hex characters)`);
    }
    read.set(name, lower);
  }
  return read;
}

/** The pins of a chain, farthest first: a nearer pin of a name wins. */
export function mergePins(
  chain: readonly (Pins | undefined)[],
): Pins | undefined {
  let merged: Map<string, string> | undefined;
  for (const pins of chain) {
    if (pins === undefined) continue;
    merged ??= new Map();
    for (const [name, pin] of pins) merged.set(name, pin);
  }
  return merged;
}

/** The `tool-changed` error of a record whose fingerprint is not its pin. */
function changed(record: Pinned, pinned: string, fingerprint: string) {
  const { owner, layer, name } = record;
  const state = `it changed: its fingerprint is ${fingerprint}, ` +
    `its pin ${pinned}`;
  const place = layer === undefined ? { owner } : { owner, layer };
  return failure({
    code: "tool-changed",
    action: "list",
    where: { tool: name, ...place },
    problem: state,
    fields: { pinned, fingerprint },
  });
}

/**
 * Throws `tool-changed` for the first pinned record whose fingerprint is
 * not its pin; with `onChanged`, reports each such copy there once and
 * goes on.
 */
export function checkPins(
  records: readonly Pinned[],
  pins: Pins,
  report: {
    onChanged: ((error: PromptError) => void) | undefined;
    reported: WeakSet<Pinned>;
  },
): void {
  for (const record of records) {
    const pinned = pins.get(record.name);
    if (pinned === undefined) continue;
    // Cached with the copy: a new copy is a new record.
    const fingerprint = record.fingerprint ??= toolFingerprint(record.copy);
    if (fingerprint === pinned) continue;
    const error = changed(record, pinned, fingerprint);
    if (report.onChanged === undefined) throw error;
    if (report.reported.has(record)) continue;
    report.reported.add(record);
    report.onChanged(error);
  }
}
