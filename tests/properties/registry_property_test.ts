// fast-check properties of the registry under random interleavings of
// registrations, disposals and assemblies: every assembly equals what was
// live when it started, and concurrent assemblies with different contexts
// stay apart.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type Disposer,
  type PromptAssembly,
  PromptError,
  type PromptScope,
  SystemPrompt,
} from "../../mod.ts";

const RUNS = { numRuns: 10_000, seed: 20261130 };
const NAMES = ["a", "b", "c", "d"];
const OWNERS = ["p0", "p1", "p2"];

type Op =
  | { op: "section"; name: string; order: number; owner: number }
  | { op: "variable"; name: string; owner: number }
  | { op: "tools"; name: string; owner: number }
  | { op: "dispose"; pick: number }
  | { op: "disposeScope"; owner: number }
  | { op: "assemble" };

// owner -1 is the root registry.
const owner = fc.integer({ min: -1, max: OWNERS.length - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant("section" as const),
    name: fc.constantFrom(...NAMES),
    order: fc.integer({ min: -1, max: 2 }),
    owner,
  }),
  fc.record({
    op: fc.constant("variable" as const),
    name: fc.constantFrom(...NAMES),
    owner,
  }),
  fc.record({
    op: fc.constant("tools" as const),
    name: fc.constantFrom(...NAMES),
    owner,
  }),
  fc.record({ op: fc.constant("dispose" as const), pick: fc.nat() }),
  fc.record({
    op: fc.constant("disposeScope" as const),
    owner: fc.nat({ max: OWNERS.length - 1 }),
  }),
  fc.constant({ op: "assemble" as const }),
);

interface Live {
  kind: "section" | "variable" | "tools";
  name: string;
  order: number;
  owner: string | undefined;
  scope: number; // -1 for the root
}

/** What an assembly started now must hold, computed from the model. */
function expected(
  live: Live[],
):
  | { sections: string[]; variables: string[]; tools: string[] }
  | "duplicate-tool" {
  const tools = live.filter((l) => l.kind === "tools").map((l) => l.name);
  if (new Set(tools).size !== tools.length) return "duplicate-tool";
  return {
    sections: live.filter((l) => l.kind === "section")
      .sort((x, y) => x.order - y.order || (x.name < y.name ? -1 : 1))
      .map((l) => `${l.name}@${l.owner ?? "root"}`),
    variables: live.filter((l) => l.kind === "variable").map((l) => l.name)
      .sort(),
    // Canonical order: by name, whatever the registration order.
    tools: [...tools].sort(),
  };
}

function observed(assembly: PromptAssembly) {
  return {
    sections: assembly.sections.map((s) => `${s.name}@${s.owner ?? "root"}`),
    variables: Object.keys(assembly.variables).sort(),
    tools: assembly.tools.map((t) => t.name),
  };
}

describe("SystemPrompt under random interleavings", () => {
  it("keeps every assembly equal to what was live when it started", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        const prompt = new SystemPrompt();
        const scopes: PromptScope[] = OWNERS.map((o) => prompt.scope(o));
        let live: Live[] = [];
        const registrations: { disposer: Disposer; entry: Live }[] = [];
        const pending: {
          promise: Promise<PromptAssembly>;
          expect: ReturnType<typeof expected>;
        }[] = [];
        // A handler that yields, so later operations run while assemblies are in flight.
        prompt.on("system-prompt/assemble", async () => {
          await Promise.resolve();
        });
        for (const step of ops) {
          if (step.op === "assemble") {
            pending.push({
              promise: prompt.assemble(),
              expect: expected(live),
            });
          } else if (step.op === "dispose") {
            if (registrations.length === 0) continue;
            const { disposer, entry } =
              registrations[step.pick % registrations.length]!;
            disposer(); // idempotent: a second call, or one after its scope went, does nothing
            live = live.filter((l) => l !== entry);
          } else if (step.op === "disposeScope") {
            scopes[step.owner]!.dispose();
            live = live.filter((l) => l.scope !== step.owner);
            scopes[step.owner] = prompt.scope(OWNERS[step.owner]!);
          } else {
            const registrar = step.owner === -1 ? prompt : scopes[step.owner]!;
            const entry: Live = {
              kind: step.op,
              name: step.name,
              order: step.op === "section" ? step.order : 0,
              owner: step.owner === -1 ? undefined : OWNERS[step.owner],
              scope: step.owner,
            };
            const clash = step.op !== "tools" &&
              live.find((l) => l.kind === step.op && l.name === step.name);
            try {
              const disposer = step.op === "section"
                ? registrar.section({
                  name: step.name,
                  order: step.order,
                  text: step.name,
                })
                : step.op === "variable"
                ? registrar.variable(step.name, () => step.name)
                : registrar.tools(
                  () => [{ name: step.name, description: "", parameters: {} }],
                );
              assert.ok(
                !clash,
                `registered a second live ${step.op} "${step.name}"`,
              );
              live.push(entry);
              registrations.push({ disposer, entry });
            } catch (error) {
              assert.ok(clash, `unexpected ${error}`);
              assert.ok(error instanceof PromptError);
              assert.equal(error.code, `duplicate-${step.op}`);
              assert.equal(error.owner, clash.owner);
            }
          }
        }
        for (const { promise, expect } of pending) {
          if (expect === "duplicate-tool") {
            await assert.rejects(promise, { code: "duplicate-tool" });
          } else {
            const assembly = await promise;
            assert.deepEqual(observed(assembly), expect);
            assert.equal(
              new Set(assembly.sections.map((s) => s.name)).size,
              assembly.sections.length,
            );
          }
        }
      }),
      RUNS,
    );
  });

  it("keeps concurrent assemblies with different contexts independent", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            id: fc.string({ maxLength: 4 }),
            ticks: fc.nat({ max: 5 }),
          }),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        async (contexts) => {
          const prompt = new SystemPrompt<{ id: string; ticks: number }>();
          prompt.variable("id", (context) => context.id);
          prompt.section({
            name: "who",
            order: 0,
            text: (context) => `agent ${context.id}`,
          });
          prompt.on("system-prompt/assemble", async (assembly, context) => {
            for (let i = 0; i < context.ticks; i++) await Promise.resolve();
            assembly.variables.seen = context.id;
          });
          const assemblies = await Promise.all(
            contexts.map((context) => prompt.assemble(context)),
          );
          for (const [i, assembly] of assemblies.entries()) {
            const { id } = contexts[i]!;
            assert.equal(assembly.variables.id, id);
            assert.equal(assembly.variables.seen, id);
            assert.equal(assembly.sections[0]?.text, `agent ${id}`);
          }
        },
      ),
      RUNS,
    );
  });
});
