/**
 * The renderer against itself at another commit, for work on its speed:
 * `renderPrompt`, `renderContext` and `explainPrompt` of this checkout and
 * of `<commit>` (extracted into `.tmp/render_before/`) get the same random
 * assemblies (every layout, fields of the wrong type, texts that are
 * equal copies of the ones rendered before, parts and variables behind
 * Proxies that log every read and may throw) and must give the same
 * results: the same text or the same error (class, code, message, cause),
 * after the same reads in the same order. Each assembly is rendered three
 * times, so that the caches and the chains between templates are hit too.
 *
 * Usage: deno run --allow-read --allow-write=.tmp/ --allow-run
 * scripts/bench/render_differential.ts <commit> [runs]
 *
 * @module
 */

import fc from "fast-check";
import * as after from "../../mod.ts";
import * as afterInspect from "../../inspect.ts";
import { PART_FIELDS } from "../../src/core/_fields.ts";
import type { PromptAssembly } from "../../mod.ts";
import { layouts } from "../../tests/support/layout_arbitrary.ts";

const [commit, runs = "2000"] = Deno.args;
if (commit === undefined) {
  throw new Error("Cannot compare: no commit given (usage: <commit> [runs])");
}
const ROOT = new URL("../../", import.meta.url);
const dir = new URL(".tmp/render_before/", ROOT).pathname;
await Deno.mkdir(dir, { recursive: true });
const extracted = await new Deno.Command("sh", {
  args: [
    "-c",
    `git archive ${commit} mod.ts inspect.ts src | tar -x -C "${dir}"`,
  ],
  cwd: ROOT,
}).output();
if (!extracted.success) throw new Error(`Cannot extract ${commit}`);
const before: typeof after = await import(`${dir}mod.ts`);
const beforeInspect: typeof afterInspect = await import(`${dir}inspect.ts`);

/** What a call gave: its result, or its error's observable parts. */
function outcome(call: () => unknown): unknown {
  try {
    return { result: call() };
  } catch (error) {
    if (!(error instanceof Error)) return { thrown: error };
    const { name, message } = error;
    const code = (error as { code?: unknown }).code;
    const cause = error.cause instanceof Error
      ? `${error.cause.name}: ${error.cause.message}`
      : error.cause;
    return { name, message, code, cause };
  }
}

/** The same object seen through a Proxy that logs reads, one may throw. */
function watched<T extends object>(
  value: T,
  log: string[],
  label: string,
  throwAt: string | undefined,
): T {
  return new Proxy(value, {
    get(target, key, receiver) {
      log.push(`${label}.${String(key)}`);
      if (key === throwAt) throw new Error(`${label}.${String(key)} throws`);
      return Reflect.get(target, key, receiver);
    },
  });
}

const WRONG: readonly unknown[] = [
  undefined,
  null,
  0,
  NaN,
  Infinity,
  "",
  "x",
  true,
  [],
  {},
  () => "x",
  "volatile",
];

/** A deep copy of the plain data of `assembly`, texts copied (equal, not identical). */
function copied(value: unknown): unknown {
  if (typeof value === "string") {
    return (" " + value).slice(1).split("").join("");
  }
  if (Array.isArray(value)) return value.map(copied);
  if (typeof value === "object" && value !== null) {
    const copy = Object.create(Object.getPrototypeOf(value));
    for (const [k, v] of Object.entries(value)) copy[k] = copied(v);
    return copy;
  }
  return value;
}

/** The mutation that a case applies to its assembly. */
interface Mutation {
  /** Which part (by index over sections, then contexts, then items). */
  at: number;
  field: string;
  value: unknown;
  proxy: "none" | "part" | "variables";
  throws: boolean;
  copyTexts: boolean;
}

// The field table's, a section's `complete`, an assembled list's `items`,
// and one field no table knows.
const FIELDS = [...PART_FIELDS, "complete", "items", "keep"];

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(12),
  field: fc.constantFrom(...FIELDS),
  value: fc.constantFrom(...WRONG),
  proxy: fc.constantFrom("none", "none", "part", "variables"),
  throws: fc.boolean(),
  copyTexts: fc.boolean(),
});

/** Every part of the assembly, depth first. */
function partsOf(assembly: PromptAssembly): Record<string, unknown>[] {
  const all: Record<string, unknown>[] = [];
  const visit = (parts: readonly unknown[] | undefined) => {
    for (const part of parts ?? []) {
      all.push(part as Record<string, unknown>);
      visit((part as { items?: unknown[] }).items);
    }
  };
  visit(assembly.sections);
  visit(assembly.contexts);
  return all;
}

/** The case's assembly, built afresh (so both sides get equal, separate objects). */
function build(base: PromptAssembly, m: Mutation, log: string[]) {
  const assembly = (m.copyTexts ? copied(base) : structuredLike(base)) as
    & PromptAssembly
    & Record<string, unknown>;
  const parts = partsOf(assembly);
  const target = parts[m.at % Math.max(1, parts.length)];
  if (target !== undefined && m.field !== "keep" && m.proxy === "none") {
    target[m.field] = m.value;
  }
  if (m.proxy === "variables") {
    assembly.variables = watched(
      assembly.variables,
      log,
      "variables",
      m.throws ? "x" : undefined,
    );
  } else if (m.proxy === "part" && target !== undefined) {
    const proxy = watched(target, log, "part", m.throws ? m.field : undefined);
    for (const list of [assembly.sections, assembly.contexts]) {
      const i = list?.indexOf(target as never) ?? -1;
      if (i !== -1) list![i] = proxy as never;
    }
  }
  return assembly;
}

/** A copy of the plain data with the texts themselves (the same strings). */
function structuredLike(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(structuredLike);
  if (typeof value === "object" && value !== null) {
    const copy = Object.create(Object.getPrototypeOf(value));
    for (const [k, v] of Object.entries(value)) copy[k] = structuredLike(v);
    return copy;
  }
  return value;
}

function side(
  library: typeof after,
  inspect: typeof afterInspect,
  base: PromptAssembly,
  m: Mutation,
) {
  const results: unknown[] = [];
  for (let round = 0; round < 3; round++) {
    const log: string[] = [];
    const assembly = build(base, {
      ...m,
      copyTexts: m.copyTexts && round === 1,
    }, log);
    results.push(
      outcome(() => library.renderPrompt(assembly)),
      outcome(() => library.renderContext(assembly)),
      outcome(() => JSON.stringify(inspect.explainPrompt(assembly))),
      log,
    );
  }
  return results;
}

fc.assert(
  fc.property(layouts, mutation, (base, m) => {
    const expected = side(before, beforeInspect, base, m);
    const actual = side(after, afterInspect, base, m);
    const a = JSON.stringify(actual);
    const b = JSON.stringify(expected);
    if (a !== b) throw new Error(`differs:\nbefore ${b}\nafter  ${a}`);
  }),
  { numRuns: Number(runs) },
);
console.log(
  `renderPrompt, renderContext and explainPrompt: the same results and reads as ${commit} on ${runs} random assemblies (3 renders each)`,
);
