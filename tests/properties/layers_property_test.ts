// Layers (one registry, many agents): for random registrations spread over
// random layer chains, assembling for a layer equals assembling a registry
// that holds only the effective registrations; tool order is a pure
// function of the names and `toolOrder`.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type PromptRegistrar,
  renderPrompt,
  SystemPrompt,
  TOOL_ORDER_REST,
} from "../../mod.ts";

const RUNS = { numRuns: 500, seed: 20261201 };
const NAMES = ["a", "b", "c", "d"];
type Reg =
  | { kind: "section"; name: string; order: number; at: number }
  | { kind: "variable"; name: string; at: number }
  | { kind: "item"; name: string; order: number; at: number }
  | { kind: "tools"; name: string; at: number };

// `at`: 0 global, 1 layer "p" (on global), 2 layer "c" (parent "p").
const reg: fc.Arbitrary<Reg> = fc.oneof(
  fc.record({
    kind: fc.constant("section" as const),
    name: fc.constantFrom(...NAMES),
    order: fc.integer({ min: 0, max: 3 }),
    at: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({
    kind: fc.constant("variable" as const),
    name: fc.constantFrom(...NAMES),
    at: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({
    kind: fc.constant("item" as const),
    name: fc.constantFrom(...NAMES),
    order: fc.integer({ min: 0, max: 3 }),
    at: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({
    kind: fc.constant("tools" as const),
    name: fc.constantFrom("t1", "t2", "t3", "t4", "t5", "t6"),
    at: fc.integer({ min: 0, max: 2 }),
  }),
);

const key = (r: Reg) => `${r.kind}:${r.name}`;

function register(to: PromptRegistrar, r: Reg, tag: string): void {
  if (r.kind === "section") {
    to.section({
      name: `s-${r.name}`,
      order: r.order,
      text: `${tag} {{v.${r.name}}}`,
    });
  } else if (r.kind === "variable") to.variable(`v.${r.name}`, () => tag);
  else if (r.kind === "item") {
    to.item("list", { name: r.name, order: r.order, text: `- ${tag}` });
  } else {to.tools(
      () => [{ name: `${r.name}-${tag}`, description: tag, parameters: {} }],
    );}
}

describe("layers (property)", () => {
  it("assemble(ctx, { layer }) equals a registry holding only the effective registrations", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(reg, { maxLength: 25 }),
        fc.integer({ min: 0, max: 2 }),
        async (regs, target) => {
          // One registration per key and place: duplicates within a layer throw.
          const seen = new Set<string>();
          const unique = regs.filter((r) => {
            const k = `${key(r)}@${r.at}`;
            if (seen.has(k)) return false;
            seen.add(k);
            return true;
          });
          const layered = new SystemPrompt();
          const places: PromptRegistrar[] = [
            layered,
            layered.layer("p"),
            layered.layer("c", { parent: "p" }),
          ];
          layered.section({ name: "list", order: 9, text: "List:", list: {} });
          for (const v of NAMES) {
            const global = unique.some((r) =>
              r.kind === "variable" && r.name === v && r.at === 0
            );
            if (!global) layered.variable(`v.${v}`, () => "none");
          }
          const flat = new SystemPrompt();
          flat.section({ name: "list", order: 9, text: "List:", list: {} });
          for (const r of unique) register(places[r.at]!, r, `L${r.at}`);
          // Effective: for shadowing kinds, the nearest place within the chain.
          const chain = [0, 1, 2].slice(0, target + 1);
          const effective = new Map<string, Reg>();
          const tools: Reg[] = [];
          for (const at of chain) {
            for (const r of unique.filter((r) => r.at === at)) {
              if (r.kind === "tools") tools.push(r);
              else effective.set(key(r), r);
            }
          }
          for (const v of NAMES) {
            if (!effective.has(`variable:${v}`)) {
              flat.variable(
                `v.${v}`,
                () => "none",
              );
            }
          }
          for (const r of [...effective.values(), ...tools]) {
            register(
              flat,
              r,
              `L${r.at}`,
            );
          }
          const layer = target === 0 ? undefined : target === 1 ? "p" : "c";
          const got = await layered.assemble(
            {},
            layer === undefined ? {} : { layer },
          ).then(
            (a) => ({
              prompt: renderPrompt(a),
              tools: a.tools.map((t) => t.name),
              vars: { ...a.variables },
            }),
            (e) => ({ error: (e as { code: string }).code }),
          );
          const want = await flat.assemble().then(
            (a) => ({
              prompt: renderPrompt(a),
              tools: a.tools.map((t) => t.name),
              vars: { ...a.variables },
            }),
            (e) => ({ error: (e as { code: string }).code }),
          );
          assert.deepEqual(got, want);
        },
      ),
      RUNS,
    );
  });

  it("tool order is a pure function of the tool names and toolOrder, whatever the registration order", async () => {
    const names = fc.uniqueArray(
      fc.constantFrom(
        "bash",
        "read",
        "grep",
        "edit",
        "todo",
        "web",
        "\uD800x",
        "\uE000",
      ),
      { minLength: 1 },
    );
    await fc.assert(
      fc.asyncProperty(
        names,
        fc.uniqueArray(fc.constantFrom("bash", "read", "todo", "nope"), {
          maxLength: 3,
        }),
        fc.nat(),
        async (tools, listed, split) => {
          const toolOrder: string[] = [...listed];
          toolOrder.splice(split % (listed.length + 1), 0, TOOL_ORDER_REST);
          const order = async (registration: string[]) => {
            const prompt = new SystemPrompt({ toolOrder });
            for (const name of registration) {
              prompt.tools(
                () => [{ name, description: "", parameters: {} }],
              );
            }
            return (await prompt.assemble()).tools.map((t) => t.name);
          };
          const forward = await order(tools);
          assert.deepEqual(await order([...tools].reverse()), forward);
          // Listed names take their listed place; the rest sit at the rest entry, by code point.
          const rest = tools.filter((t) => !(listed as string[]).includes(t))
            .sort((a, b) =>
              (a.codePointAt(0)! - b.codePointAt(0)!) || (a < b ? -1 : 1)
            );
          const expected = toolOrder.flatMap((n) =>
            n === TOOL_ORDER_REST
              ? rest
              : (tools as string[]).includes(n)
              ? [n]
              : []
          );
          assert.deepEqual(forward, expected);
        },
      ),
      RUNS,
    );
  });
});
