import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { ToolSchema } from "../mod.ts";
import { toolOwner } from "../inspect.ts";
import type { ToolEntry } from "../src/core/_entries.ts";
import { resolveTools } from "../src/core/_resolve_tools.ts";
import { PromptError } from "../src/core/errors.ts";

const RUNS = { numRuns: 3_000, seed: 20261130 };
const TAG = Symbol("tag");

/** The resolution before duplicate checks were remembered: from scratch. */
function reference(
  lists: readonly unknown[][],
  owners: readonly (string | undefined)[],
): { tools: ToolSchema[] } | { code: string; message: string } {
  const seen = new Map<string, string | undefined>();
  const tools: ToolSchema[] = [];
  try {
    for (const [i, list] of lists.entries()) {
      for (const tool of list as ToolSchema[]) {
        if (
          typeof tool !== "object" || tool === null ||
          typeof tool.name !== "string" || tool.name === ""
        ) throw { code: "invalid", i };
        if (seen.has(tool.name)) throw { code: "duplicate", i };
        seen.set(tool.name, owners[i]);
        tools.push({ ...tool });
      }
    }
  } catch (thrown) {
    return thrown as { code: string; message: string };
  }
  return { tools };
}

/** Every own key but the owner's, in order, with its value. */
function shape(tool: object): unknown[] {
  return Reflect.ownKeys(tool).filter((key) =>
    typeof key !== "symbol" ||
    key.description !== "@dsh/system-prompt/tool-owner"
  ).map((key) => [
    String(key),
    (tool as Record<PropertyKey, unknown>)[key],
  ]);
}

type Action =
  | { kind: "same" }
  | { kind: "fresh" }
  | { kind: "push"; pick: number }
  | { kind: "replace"; at: number; pick: number }
  | { kind: "rename"; at: number; name: string }
  | { kind: "pop" };

const NAMES = ["a", "b", "c", "d", "e", ""];
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.constant({ kind: "same" as const }),
  fc.constant({ kind: "fresh" as const }),
  fc.record({ kind: fc.constant("push" as const), pick: fc.nat(20) }),
  fc.record({
    kind: fc.constant("replace" as const),
    at: fc.nat(5),
    pick: fc.nat(20),
  }),
  fc.record({
    kind: fc.constant("rename" as const),
    at: fc.nat(5),
    name: fc.constantFrom(...NAMES),
  }),
  fc.constant({ kind: "pop" as const }),
);

/** A pool of tools of several shapes: plain, extra keys, reordered, symbol. */
function makeTool(pick: number): unknown {
  const name = NAMES[pick % NAMES.length]!;
  switch (pick % 4) {
    case 0:
      return { name, description: "d", parameters: {} };
    case 1:
      return { name, description: "d", parameters: {}, strict: true };
    case 2:
      return { description: "d", name, parameters: {} };
    default:
      return { name, description: "d", parameters: {}, [TAG]: pick };
  }
}

describe("resolveTools()", () => {
  it("matches a from-scratch resolution over any sequence of provider results, mutated arrays included", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(2), action), { minLength: 1, maxLength: 30 }),
        (steps) => {
          const lists: unknown[][] = [[makeTool(0)], [makeTool(5)], []];
          const owners = ["p0", "p1", undefined];
          const entries: ToolEntry<unknown>[] = lists.map((_, i) => ({
            owner: owners[i],
            provider: () => lists[i] as ToolSchema[],
          }));
          for (const [provider, step] of steps) {
            const list = lists[provider]!;
            if (step.kind === "fresh") lists[provider] = [...list];
            else if (step.kind === "push") list.push(makeTool(step.pick));
            else if (step.kind === "pop") list.pop();
            else if (step.kind === "replace" && step.at < list.length) {
              list[step.at] = makeTool(step.pick);
            } else if (step.kind === "rename" && step.at < list.length) {
              (list[step.at] as { name: string }).name = step.name;
            }
            const expected = reference(lists, owners);
            let actual: ToolSchema[] | PromptError;
            try {
              actual = resolveTools(entries, undefined);
            } catch (error) {
              actual = error as PromptError;
            }
            if ("tools" in expected) {
              assert.ok(Array.isArray(actual), String(actual));
              assert.deepEqual(actual.map(shape), expected.tools.map(shape));
              const flat = lists.flatMap((l, i) => l.map(() => owners[i]));
              assert.deepEqual(actual.map(toolOwner), flat);
              for (const [j, tool] of actual.entries()) {
                assert.notEqual(tool, lists.flat()[j], "a copy, not the tool");
                assert.equal(
                  JSON.stringify(tool),
                  JSON.stringify(lists.flat()[j]),
                );
              }
            } else {
              assert.ok(actual instanceof PromptError);
              assert.equal(
                actual.code,
                expected.code === "invalid"
                  ? "invalid-value"
                  : "duplicate-tool",
              );
            }
          }
        },
      ),
      RUNS,
    );
  });
});
