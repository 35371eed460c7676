// The compare walk asks an object its prototype once per place of a copy
// and keeps the answer while the same object is there. Whatever takes a
// place (a fresh plain object, a class instance with the same fields, a
// null-prototype object, a Proxy, a node shared with another place, with
// another tool or with another registry), every step of every registry is
// what a fresh registry lists for the same provider.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { SystemPrompt, type ToolSchema } from "../mod.ts";
import { canonical } from "./support/canonical_json.ts";

function registry(provider: () => readonly unknown[]): SystemPrompt {
  const prompt = new SystemPrompt();
  prompt.scope("fs").tools(provider as () => readonly ToolSchema[]);
  return prompt;
}

/** The step's tools as JSON, or the refusal's code. */
async function listed(prompt: SystemPrompt): Promise<string> {
  try {
    return canonical((await prompt.render({}, { agent: "a" })).tools);
  } catch (error) {
    return `error (${(error as { code?: string }).code})`;
  }
}

class Node {
  constructor(fields: object) {
    Object.assign(this, fields);
  }
}

type Place = Record<string, unknown>;

describe("the compare walk's kept prototype answers", () => {
  it("answers every step of every registry as a fresh registry does", async () => {
    const leaf = fc.oneof(
      fc.string({ maxLength: 2 }),
      fc.integer({ min: -2, max: 2 }),
      fc.constantFrom(true, null),
    );
    const key = fc.constantFrom("a", "b", "type");
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.array(tie("tree"), { maxLength: 3 }),
        fc.dictionary(key, tie("tree"), { maxKeys: 3 }),
      ),
    }));
    const edit = fc.record({
      node: fc.nat(),
      other: fc.nat(),
      kind: fc.constantFrom(
        "fresh-plain",
        "class",
        "null-proto",
        "proxy",
        "share",
        "set",
        "copy-of-step",
      ),
      value: leaf,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(key, tree, { minKeys: 1, maxKeys: 3 }),
        fc.array(edit, { maxLength: 8 }),
        fc.boolean(),
        async (start, edits, shared) => {
          // Two tools (the second shares the first's schema, or a clone).
          let parameters = structuredClone(start) as Place;
          let second = shared ? parameters : structuredClone(start) as Place;
          const provider = () => [
            { name: "t", description: "T.", parameters },
            { name: "u", description: "U.", parameters: second },
          ];
          // Two registries over the same objects; a third fed the first's
          // copies.
          const ours = registry(provider);
          const theirs = registry(provider);
          let copies: readonly unknown[] = [];
          const fed = registry(() => copies);
          const check = async () => {
            const fresh = await listed(registry(provider));
            assert.equal(await listed(ours), fresh, "ours");
            assert.equal(await listed(theirs), fresh, "theirs");
            try {
              copies = (await ours.render({}, { agent: "a" })).tools;
              const step = await listed(fed);
              assert.equal(step, await listed(registry(() => copies)), "fed");
            } catch { /* refused: compared above */ }
          };
          await check();
          for (const { node, other, kind, value } of edits) {
            const places: { holder: Place; key: string }[] = [];
            const all: object[] = [];
            const collect = (v: unknown, depth: number) => {
              if (typeof v !== "object" || v === null || depth > 12) return;
              all.push(v);
              for (const k of Object.keys(v)) {
                places.push({ holder: v as Place, key: k });
                collect((v as Place)[k], depth + 1);
              }
            };
            collect(parameters, 0);
            collect(second, 0);
            if (places.length === 0) continue;
            const { holder, key } = places[node % places.length]!;
            const was = holder[key];
            // A registry's copy is frozen: only the caller's own places.
            if (Object.isFrozen(holder) && kind !== "copy-of-step") continue;
            const isObject = typeof was === "object" && was !== null &&
              !Array.isArray(was);
            if (kind === "fresh-plain" && isObject) {
              holder[key] = { ...was };
            } else if (kind === "class" && isObject) {
              holder[key] = new Node(was);
            } else if (kind === "null-proto" && isObject) {
              holder[key] = Object.assign(Object.create(null), was);
            } else if (kind === "proxy" && typeof was === "object" && was) {
              holder[key] = new Proxy(was, {});
            } else if (kind === "share") {
              const target = all[other % all.length]!;
              // Not an ancestor of the place: no cycle.
              let cycle = target === holder;
              const within = (v: unknown, depth: number): void => {
                if (cycle || typeof v !== "object" || v === null) return;
                if (v === holder) cycle = true;
                if (depth > 12) return;
                for (const k of Object.keys(v)) {
                  within((v as Place)[k], depth + 1);
                }
              };
              within(target, 0);
              if (!cycle) holder[key] = target;
            } else if (kind === "set") {
              holder[key] = value;
            } else if (kind === "copy-of-step") {
              // A copy the registry listed, put back where it came from.
              try {
                const step = await ours.render({}, { agent: "a" });
                parameters = step.tools[0]!.parameters as Place;
              } catch { /* refused */ }
            }
            if (kind !== "copy-of-step" && node % 5 === 0) {
              second = shared ? parameters : second;
            }
            await check();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("the compare walk's kept prototype answers: the gap", () => {
  it("keeps the copy of a Proxy whose getPrototypeOf trap answers otherwise later, as of Object.setPrototypeOf", async () => {
    // The trap is the prototype of that very object changing: asked when
    // the walk first meets it at a place, not again while it stays there.
    let proto: object = Object.prototype;
    let asked = 0;
    const path = new Proxy({ type: "string" }, {
      getPrototypeOf: () => (asked++, proto),
    });
    const parameters = { type: "object", properties: { path } };
    const prompt = registry(
      () => [{ name: "read", description: "", parameters }],
    );
    const first = await prompt.render({}, { agent: "a" });
    const before = asked;
    proto = Node.prototype;
    assert.equal(await prompt.render({}, { agent: "a" }), first);
    // for-in asks it too (an inherited enumerable field is a difference),
    // and sees no enumerable field on a class's prototype.
    assert.ok(asked > before);
    await assert.rejects(
      registry(() => [{ name: "read", description: "", parameters }])
        .render({}, { agent: "a" }),
      /class instance at parameters\.properties\.path/,
    );
  });
});
