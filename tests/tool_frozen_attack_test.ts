// Attacks on tools known by identity when deep frozen, and on the compare
// walk's shapes: whatever is frozen, proxied, polluted or edited, every
// step's tools are what a fresh registry lists for the same provider.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { SystemPrompt, type ToolSchema } from "../mod.ts";
import { canonical } from "./support/canonical_json.ts";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const field of Object.values(value)) deepFreeze(field);
    Object.freeze(value);
  }
  return value;
}

function registry(provider: () => readonly unknown[]): SystemPrompt {
  const prompt = new SystemPrompt();
  prompt.scope("fs").tools(provider as () => readonly ToolSchema[]);
  return prompt;
}

/** The step's tools as JSON, or the error's message. */
async function listed(
  prompt: SystemPrompt,
  how: "render" | "assemble" = "render",
): Promise<string> {
  try {
    const { tools } = how === "render"
      ? await prompt.render({}, { agent: "a" })
      : await prompt.assemble({});
    return canonical(tools);
  } catch (error) {
    const code = (error as { code?: string }).code;
    return `error (${code}): ${(error as Error).message}`;
  }
}

/**
 * What two answers must agree on: the tools, or the refusal's code (the
 * walk meets the faults in the last copy's key order, so which fault a
 * message names may differ from a fresh registry's).
 */
const gist = (answer: string) =>
  answer.startsWith("error") ? answer.slice(0, answer.indexOf(":")) : answer;

/** A step of `ours` and of a fresh registry over the same provider agree. */
async function agrees(
  ours: SystemPrompt,
  provider: () => readonly unknown[],
): Promise<string> {
  const got = await listed(ours);
  const fresh = await listed(registry(provider));
  assert.equal(gist(got), gist(fresh), "a fresh registry");
  assert.equal(await listed(ours, "assemble"), got, "assemble()");
  assert.equal(await listed(ours), got, "render() again");
  return got;
}

const schema = () => ({
  type: "object",
  properties: { path: { type: "string" } },
});

/** Sets an enumerable field of a prototype for one test, then removes it. */
async function polluted(
  proto: object,
  key: string,
  value: unknown,
  run: () => Promise<void>,
): Promise<void> {
  Object.defineProperty(proto, key, {
    value,
    enumerable: true,
    configurable: true,
    writable: true,
  });
  try {
    await run();
  } finally {
    delete (proto as Record<string, unknown>)[key];
  }
}

describe("deep-frozen tools under attack", () => {
  it("sees a frozen tool's non-enumerable getter that answers otherwise", async () => {
    for (const key of ["name", "description", "parameters"] as const) {
      let turn = 0;
      const values = {
        name: () => (turn === 0 ? "read" : "write"),
        description: () => (turn === 0 ? "Reads." : "Writes."),
        parameters: () => turn === 0 ? frozenA : frozenB,
      };
      const frozenA = deepFreeze(schema());
      const frozenB = deepFreeze({ type: "object" });
      const fields: PropertyDescriptorMap = {
        name: { value: "read", enumerable: true },
        description: { value: "Reads.", enumerable: true },
        parameters: { value: frozenA, enumerable: true },
      };
      fields[key] = { get: values[key], enumerable: false };
      const tool = Object.freeze(Object.defineProperties({}, fields));
      const provider = () => [tool];
      const prompt = registry(provider);
      await agrees(prompt, provider);
      turn = 1;
      await agrees(prompt, provider);
    }
  });

  it("sees an inherited field a frozen tool is read for when it lacks its own", async () => {
    const tool = Object.freeze({ name: "t", parameters: deepFreeze(schema()) });
    const provider = () => [tool];
    const prompt = registry(provider);
    const proto = Object.prototype as Record<string, unknown>;
    await polluted(proto, "description", "First.", async () => {
      assert.match(await agrees(prompt, provider), /First/);
      proto.description = "Second.";
      assert.match(await agrees(prompt, provider), /Second/);
    });
    // Without it the tool has no description: refused, as a fresh one is.
    assert.match(await agrees(prompt, provider), /^error/);
    // An inherited getter without a setter: whatever happens, as fresh.
    let description = "First.";
    Object.defineProperty(proto, "description", {
      get: () => description,
      configurable: true,
    });
    try {
      await agrees(prompt, provider);
      description = "Second.";
      await agrees(prompt, provider);
    } finally {
      delete proto.description;
    }
    assert.match(await agrees(prompt, provider), /^error/);
  });

  it("reads no symbol-keyed getter of a frozen tool", async () => {
    let reads = 0;
    const tool = Object.freeze(Object.defineProperty(
      { name: "t", description: "T.", parameters: deepFreeze(schema()) },
      Symbol("meta"),
      { get: () => ++reads, enumerable: true },
    ));
    const provider = () => [tool];
    const prompt = registry(provider);
    const first = await agrees(prompt, provider);
    const before = reads;
    await prompt.render({}, { agent: "a" });
    assert.equal(reads, before);
    assert.equal(await agrees(prompt, provider), first);
  });

  it("sees a frozen schema's non-enumerable getter change nothing (JSON skips it)", async () => {
    let turn = 0;
    const parameters = Object.freeze(Object.defineProperty(
      { type: "object" },
      "hidden",
      { get: () => turn, enumerable: false },
    ));
    const provider = () => [{ name: "t", description: "T.", parameters }];
    const prompt = registry(provider);
    await agrees(prompt, provider);
    turn = 1;
    await agrees(prompt, provider);
  });

  it("sees a frozen sparse array read through a prototype's index", async () => {
    // An own field beside the hole, so that it has as many keys as items.
    const items = Object.freeze(Object.assign([1, , 3], { more: true }));
    const parameters = deepFreeze({ type: "object", enum: items });
    const provider = () => [{ name: "t", description: "T.", parameters }];
    const prompt = registry(provider);
    await polluted(Array.prototype, "1", 2, async () => {
      assert.match(await agrees(prompt, provider), /\[1,2,3\]/);
    });
    // The hole is a hole again: refused, as a fresh registry refuses it.
    assert.match(await agrees(prompt, provider), /^error/);
  });

  it("walks a frozen tool whose schema holds an unfrozen object in a frozen array", async () => {
    const inner: Record<string, unknown> = { type: "string" };
    const parameters = Object.freeze({
      type: "object",
      anyOf: Object.freeze([inner]),
    });
    const tool = Object.freeze({ name: "t", description: "T.", parameters });
    const provider = () => [tool];
    const prompt = registry(provider);
    await agrees(prompt, provider);
    inner.minLength = 2;
    assert.match(await agrees(prompt, provider), /minLength/);
    delete inner.type;
    assert.doesNotMatch(await agrees(prompt, provider), /string/);
  });

  it("walks a frozen class instance, or a frozen object of another prototype", async () => {
    class Schema {
      type = "object";
    }
    const proto = {
      get description() {
        return "inherited";
      },
    };
    const parameters = Object.freeze(new Schema());
    const other = Object.freeze(Object.assign(Object.create(proto), {
      name: "u",
      parameters: deepFreeze(schema()),
    }));
    for (const tool of [{ name: "t", description: "T.", parameters }, other]) {
      const provider = () => [Object.freeze(tool)];
      const prompt = registry(provider);
      await agrees(prompt, provider);
      await agrees(prompt, provider);
    }
  });

  it("answers a frozen tool's host field that gains properties as a fresh registry does", async () => {
    const execute = () => "done";
    const tool = Object.freeze({
      name: "t",
      description: "T.",
      parameters: deepFreeze(schema()),
      execute,
    });
    const provider = () => [tool];
    const prompt = registry(provider);
    const before = await prompt.render({}, { agent: "a" });
    (execute as unknown as Record<string, unknown>).extra = 1;
    const after = await prompt.render({}, { agent: "a" });
    const fresh = await registry(provider).render({});
    assert.equal(
      (after.tools[0] as unknown as { execute: unknown }).execute,
      execute,
    );
    assert.equal(JSON.stringify(after.tools), JSON.stringify(fresh.tools));
    assert.equal(before.tools[0], after.tools[0]);
  });

  it("copes with a frozen tool whose host field is a frozen cycle, or nests very deep", async () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    Object.freeze(cycle);
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) deep = Object.freeze({ next: deep });
    for (const meta of [cycle, deep]) {
      const tool = Object.freeze({
        name: "t",
        description: "T.",
        parameters: deepFreeze(schema()),
        meta,
      });
      const provider = () => [tool];
      const prompt = registry(provider);
      const first = await prompt.render({}, { agent: "a" });
      const again = await prompt.render({}, { agent: "a" });
      assert.equal(again.tools, first.tools);
      assert.equal((first.tools[0] as unknown as { meta: unknown }).meta, meta);
    }
  });

  it("counts no read of a proxied deep-frozen tool, and lets no trap lie", async () => {
    let reads = 0;
    const target = Object.freeze({
      name: "t",
      description: "T.",
      parameters: deepFreeze(schema()),
    });
    const tool = new Proxy(target, {
      get(object, key, receiver) {
        reads++;
        return Reflect.get(object, key, receiver);
      },
    });
    const provider = () => [tool];
    const prompt = registry(provider);
    await agrees(prompt, provider);
    const before = reads;
    await prompt.render({}, { agent: "a" });
    await prompt.render({}, { agent: "a" });
    assert.equal(reads, before);
    await agrees(prompt, provider);
    // A trap that lies about a frozen field breaks the proxy invariants:
    // the read throws, and a throwing read is refused with its path.
    const liar = new Proxy(target, { get: () => "other" });
    const lying = () => [liar];
    assert.match(await agrees(registry(lying), lying), /^error/);
  });

  it("treats a proxy of a frozen tool whose traps throw as a read that threw", async () => {
    const target = Object.freeze({
      name: "t",
      description: "T.",
      parameters: deepFreeze(schema()),
    });
    let throwing = false;
    const trap = <T>(fallback: () => T): T => {
      if (throwing) throw new Error("trap");
      return fallback();
    };
    const handler: ProxyHandler<object> = {
      getOwnPropertyDescriptor: (t, k) =>
        trap(() => Reflect.getOwnPropertyDescriptor(t, k)),
      ownKeys: (t) => trap(() => Reflect.ownKeys(t)),
      isExtensible: (t) => trap(() => Reflect.isExtensible(t)),
    };
    const tool = new Proxy(target, handler);
    const parameters = new Proxy(deepFreeze(schema()), handler);
    for (const value of [tool, { ...target, parameters }]) {
      throwing = false;
      const provider = () => [value];
      const prompt = registry(provider);
      await agrees(prompt, provider);
      throwing = true;
      // Known by identity before the trap threw: its data cannot change.
      await prompt.render({}, { agent: "a" });
      throwing = false;
      await agrees(prompt, provider);
    }
  });

  it("keeps a deep-frozen tool's copy after its proxy is revoked", async () => {
    // Its data never changed; a fresh registry, which must read it, refuses
    // the revoked proxy. Known by identity, the copy stands.
    const { proxy, revoke } = Proxy.revocable(
      Object.freeze({
        name: "t",
        description: "T.",
        parameters: deepFreeze(schema()),
      }),
      {},
    );
    const provider = () => [proxy];
    const prompt = registry(provider);
    const before = await agrees(prompt, provider);
    revoke();
    assert.equal(await listed(prompt), before);
    assert.match(await listed(registry(provider)), /revoked/);
  });

  it("refuses Object.setPrototypeOf on the caller's frozen tool, untouched", async () => {
    const tool = Object.freeze({
      name: "t",
      description: "T.",
      parameters: deepFreeze(schema()),
    });
    const provider = () => [tool];
    const prompt = registry(provider);
    await agrees(prompt, provider);
    assert.throws(() => Object.setPrototypeOf(tool, { description: "x" }));
    await agrees(prompt, provider);
    const loose = { name: "t", description: "T.", parameters: schema() };
    const looseProvider = () => [loose];
    const other = registry(looseProvider);
    await agrees(other, looseProvider);
    assert.equal(Object.isFrozen(loose), false);
    assert.equal(Object.isFrozen(loose.parameters), false);
  });

  it("keeps each owner's and layer's record for a frozen tool two providers return", async () => {
    const tool = Object.freeze({
      name: "t",
      description: "T.",
      parameters: deepFreeze(schema()),
    });
    let where = 0;
    const prompt = new SystemPrompt();
    prompt.scope("one").tools(() => (where === 0 ? [tool] : []));
    prompt.scope("two").tools(() => (where === 1 ? [tool] : []));
    prompt.layer("three").tools(() => [tool], { stability: "session" });
    prompt.scope("one").tools(() => (where === 1 ? [tool] : []), {
      stability: "session",
    });
    const fresh = () => {
      const p = new SystemPrompt();
      p.scope("one").tools(() => (where === 0 ? [tool] : []));
      p.scope("two").tools(() => (where === 1 ? [tool] : []));
      p.layer("three").tools(() => [tool], { stability: "session" });
      p.scope("one").tools(() => (where === 1 ? [tool] : []), {
        stability: "session",
      });
      return p;
    };
    for (const turn of [0, 1, 0, 1]) {
      where = turn;
      assert.equal(await listed(prompt), await listed(fresh()));
    }
  });

  it("agrees on a huge frozen schema and an edit beside it", async () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 5_000; i++) {
      properties[`p${i}`] = { type: "string", enum: [`a${i}`, `b${i}`] };
    }
    const frozen = deepFreeze({ type: "object", properties });
    let description = "T.";
    const provider = () => [{ name: "t", description, parameters: frozen }];
    const prompt = registry(provider);
    await agrees(prompt, provider);
    description = "Other.";
    assert.match(await agrees(prompt, provider), /Other/);
  });
});

describe("the compare walk's shapes under attack", () => {
  it("sees an own key whose value an inherited enumerable field also holds", async () => {
    let parameters: Record<string, unknown> = {
      type: "object",
      properties: { x: 1 },
    };
    const provider = () => [{ name: "t", description: "T.", parameters }];
    const prompt = registry(provider);
    await polluted(Object.prototype, "polluted", 1, async () => {
      await agrees(prompt, provider);
      parameters = { type: "object", properties: { polluted: 1 } };
      assert.match(await agrees(prompt, provider), /"polluted":1/);
    });
  });

  it("agrees under Object.prototype pollution whatever the walk", async () => {
    const parameters = {
      type: "object",
      properties: { a: { type: "string" } },
    };
    const provider = () => [{ name: "t", description: "T.", parameters }];
    const prompt = registry(provider);
    await agrees(prompt, provider);
    await polluted(Object.prototype, "type", "object", async () => {
      await agrees(prompt, provider);
      delete (parameters.properties.a as Record<string, unknown>).type;
      await agrees(prompt, provider);
    });
    await agrees(prompt, provider);
  });

  it("agrees on own __proto__ keys, key order, undefined fields and -0", async () => {
    const steps: unknown[] = [
      JSON.parse('{"type":"object","__proto__":{"a":1}}'),
      JSON.parse('{"__proto__":{"a":1},"type":"object"}'),
      JSON.parse('{"__proto__":{"a":2},"type":"object"}'),
      { type: "object" },
      { type: "object", extra: undefined },
      { extra: undefined, type: "object", n: 0 },
      { type: "object", n: -0 },
      { type: "object", n: [] },
      { type: "object", n: {} },
      { type: "object", n: { 0: 1 } },
      { type: "object", n: [1] },
      { type: "object", n: [1, , 2] },
      { type: "object", n: NaN },
      { type: "object", n: [[[[[[1]]]]]] },
    ];
    let parameters: unknown;
    const provider = () => [{ name: "t", description: "T.", parameters }];
    const prompt = registry(provider);
    for (const step of steps) {
      parameters = step;
      await agrees(prompt, provider);
    }
  });

  it("agrees on a getter that throws, a revoked proxy and nesting past the bound", async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 1_200; i++) deep = { d: deep };
    const { proxy, revoke } = Proxy.revocable({ type: "string" }, {});
    const steps: (() => unknown)[] = [
      () => ({ type: "object", p: proxy }),
      () => {
        revoke();
        return { type: "object", p: proxy };
      },
      () => ({
        type: "object",
        get p() {
          throw new Error("no");
        },
      }),
      () => ({ type: "object", p: deep }),
      () => ({ type: "object" }),
    ];
    let parameters: unknown;
    const provider = () => [{ name: "t", description: "T.", parameters }];
    const prompt = registry(provider);
    for (const step of steps) {
      parameters = step();
      await agrees(prompt, provider);
    }
  });

  it("answers every step as a fresh registry does: random schemas, freezing, edits", async () => {
    const leaf = fc.oneof(
      fc.string({ maxLength: 2 }),
      fc.integer({ min: -2, max: 2 }),
      fc.constantFrom(true, null, -0, undefined),
    );
    const key = fc.constantFrom("a", "b", "c", "__proto__", "type");
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
      kind: fc.constantFrom(
        "set",
        "delete",
        "reorder",
        "swap-kind",
        "freeze",
        "replace-root",
        "refreeze-tool",
      ),
      key,
      value: tree,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(key, tree, { maxKeys: 3 }),
        fc.array(edit, { maxLength: 8 }),
        fc.constantFrom("frozen-tool", "wrapper", "same-tool"),
        async (start, edits, mode) => {
          let parameters = structuredClone(start) as Record<string, unknown>;
          let tool: object = { name: "t", description: "T.", parameters };
          if (mode === "frozen-tool") Object.freeze(tool);
          const provider = () => [
            mode === "wrapper" ? { ...tool } : tool,
          ];
          const prompt = registry(provider);
          await agrees(prompt, provider);
          for (const { node, kind, key, value } of edits) {
            const nodes: Record<string, unknown>[] = [];
            const collect = (v: unknown, depth: number) => {
              if (typeof v !== "object" || v === null || depth > 20) return;
              nodes.push(v as Record<string, unknown>);
              for (const k of Object.keys(v)) {
                collect((v as Record<string, unknown>)[k], depth + 1);
              }
            };
            collect(parameters, 0);
            const at = nodes[node % nodes.length]!;
            const open = !Object.isFrozen(at);
            if (kind === "set" && open) {
              Object.defineProperty(at, Array.isArray(at) ? "0" : key, {
                value: structuredClone(value),
                enumerable: true,
                writable: true,
                configurable: true,
              });
            } else if (kind === "delete" && open) {
              delete at[Array.isArray(at) ? "0" : key];
            } else if (kind === "reorder" && open && !Array.isArray(at)) {
              const entries = Object.entries(at).reverse();
              for (const [k] of entries) delete at[k];
              for (const [k, v] of entries) {
                Object.defineProperty(at, k, {
                  value: v,
                  enumerable: true,
                  writable: true,
                  configurable: true,
                });
              }
            } else if (kind === "swap-kind" && open) {
              const k = Object.keys(at)[0];
              if (k !== undefined) {
                const v = at[k];
                at[k] = Array.isArray(v)
                  ? Object.assign({}, v)
                  : typeof v === "object" && v !== null
                  ? Object.values(v)
                  : v;
              }
            } else if (kind === "freeze") {
              deepFreeze(at);
            } else if (kind === "replace-root") {
              parameters = structuredClone(value) as Record<string, unknown>;
              if (typeof parameters !== "object" || parameters === null) {
                parameters = { type: "object" };
              }
              tool = { name: "t", description: "T.", parameters };
              if (mode === "frozen-tool") Object.freeze(tool);
            } else if (kind === "refreeze-tool") {
              tool = Object.freeze({ ...tool });
            }
            await agrees(prompt, provider);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
