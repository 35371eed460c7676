/**
 * The opt-in waterfall audit: which handler added, removed or changed which
 * section, tool or variable. It snapshots the assembly around every handler,
 * so it costs a copy of the assembly per handler (bench/end_to_end_bench.ts)
 * and runs only for `assemble(context, { audit: true })`.
 *
 * @module
 */

import type { HandlerLabel } from "./_errors.ts";
import { isAssembly } from "./_is_assembly.ts";
import { isThenable } from "./_is_thenable.ts";
import type { AssembleHandler } from "./events.ts";
import type { AuditEntry, PromptAssembly } from "./types.ts";

interface Snapshot {
  readonly section: Map<string, string>;
  /** Keyed by list and name, as a JSON pair: names may hold any character. */
  readonly item: Map<string, string>;
  readonly tool: Map<string, string>;
  readonly variable: Map<string, string | undefined>;
  /** The prompt-wide separator, under the name `separator`. */
  readonly layout: Map<string, unknown>;
}

/**
 * `handlers`, each wrapped to append what it changed to `log`. The wrappers
 * keep each handler's sync or async nature.
 */
export function auditedHandlers<C>(
  handlers: readonly AssembleHandler<C>[],
  labels: readonly HandlerLabel[],
  log: AuditEntry[],
): AssembleHandler<C>[] {
  return handlers.map((handler, index) => (assembly, context) => {
    const before = snapshot(assembly);
    const result = handler(assembly, context);
    const record = (value: PromptAssembly | undefined | void) => {
      const after = value === undefined ? assembly : value;
      // A non-assembly is the waterfall's to reject, with the right error.
      const now = before && readable(after) ? snapshot(after) : undefined;
      if (before && now) diff(before, now, labels[index]!, log);
      return value;
    };
    if (isThenable(result)) {
      return Promise.resolve(result).then(record);
    }
    return record(result);
  });
}

/** Whether `value` is an assembly that can be read without throwing. */
function readable(value: unknown): value is PromptAssembly {
  try {
    return isAssembly(value);
  } catch {
    return false;
  }
}

/**
 * What `assembly` holds, or `undefined` when reading it throws (a getter, a
 * `null` a handler left): the audit only records, so what it cannot read is
 * left for the waterfall and `renderPrompt` to report, as without the audit.
 */
function snapshot(assembly: PromptAssembly): Snapshot | undefined {
  try {
    const section = new Map<string, string>();
    const item = new Map<string, string>();
    for (const s of assembly.sections) {
      const { name, order, text, stability, separator, trim, literal, list } =
        s;
      section.set(
        name,
        JSON.stringify([
          order,
          text,
          stability,
          separator,
          trim,
          literal,
          list,
        ]),
      );
      if (!Array.isArray(s.items)) continue;
      for (const i of s.items) {
        item.set(
          JSON.stringify([name, String(i?.name)]),
          JSON.stringify([
            i?.order,
            i?.text,
            i?.stability,
            i?.trim,
            i?.literal,
          ]),
        );
      }
    }
    const tool = new Map<string, string>();
    for (const { name, description, parameters } of assembly.tools) {
      tool.set(name, `${description}\0${schemaKey(parameters)}`);
    }
    const variable = new Map<string, string | undefined>();
    for (const name of Object.keys(assembly.variables)) {
      variable.set(name, assembly.variables[name]);
    }
    const layout = new Map<string, unknown>();
    if (assembly.separator !== undefined) {
      layout.set("separator", assembly.separator);
    }
    return { section, item, tool, variable, layout };
  } catch {
    return undefined;
  }
}

/** Identities for schemas JSON cannot spell (a cycle, a BigInt). */
const schemaIds = new WeakMap<object, string>();
let nextSchemaId = 0;

/** Equal for equal JSON; for a schema JSON cannot spell, its identity. */
function schemaKey(parameters: unknown): string {
  try {
    return `json:${JSON.stringify(parameters)}`;
  } catch {
    if (typeof parameters !== "object" || parameters === null) return "?";
    let id = schemaIds.get(parameters);
    if (id === undefined) schemaIds.set(parameters, id = `#${nextSchemaId++}`);
    return `ref:${id}`;
  }
}

const KINDS = ["section", "item", "tool", "variable", "layout"] as const;

function diff(
  before: Snapshot,
  after: Snapshot,
  label: HandlerLabel,
  log: AuditEntry[],
): void {
  for (const kind of KINDS) {
    const was: Map<string, unknown> = before[kind];
    const is: Map<string, unknown> = after[kind];
    const entry = (key: string, change: AuditEntry["change"]): AuditEntry => {
      const found: AuditEntry = {
        handler: label.handler,
        kind,
        name: key,
        change,
      };
      if (label.owner !== undefined) found.owner = label.owner;
      if (kind === "item") {
        [found.list, found.name] = JSON.parse(key) as [string, string];
      }
      return found;
    };
    for (const [name, value] of is) {
      if (!was.has(name)) log.push(entry(name, "added"));
      else if (was.get(name) !== value) log.push(entry(name, "changed"));
    }
    for (const name of was.keys()) {
      if (!is.has(name)) log.push(entry(name, "removed"));
    }
  }
}
