// User code of every kind throws (or rejects with) any value at all; only the
// documented PromptError comes out, naming the code at fault, with the value
// as `cause`, and the registry is unchanged.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type PromptAssembly,
  PromptError,
  type PromptScope,
  renderPrompt,
  SystemPrompt,
  type ToolSchema,
} from "../../mod.ts";

const RUNS = { numRuns: 10_000, seed: 20261130 };

/**
 * Values that break naive `String(x)`, `x.message` or property reads, as
 * thunks: fast-check itself cannot hold a revoked proxy.
 */
function hostile(): fc.Arbitrary<() => unknown> {
  const fail = () => {
    throw new Error("hostile");
  };
  return fc.constantFrom<() => unknown>(
    () => Object.create(null),
    () => ({ toString: fail }),
    () => ({ toString: fail, valueOf: fail, [Symbol.toPrimitive]: fail }),
    () => Object.create(Error.prototype, { message: { get: fail } }),
    () => Object.assign(new Error("x"), { name: { toString: fail } }),
    () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    },
    () => new Proxy({}, { get: fail, getPrototypeOf: fail, has: fail }),
    () => Symbol("thrown"),
    () => ({ then: fail }),
  );
}

/** A thunk for the value to throw. */
const thrownValue: fc.Arbitrary<() => unknown> = fc.oneof(
  fc.anything({
    withNullPrototype: true,
    withBoxedValues: true,
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withSparseArray: true,
  }).map((value) => () => value),
  hostile(),
);

const PLACES = [
  "section",
  "variable",
  "tools",
  "tool-name",
  "handler",
  "async-handler",
  "thenable-handler",
  "handler-result",
  "listener",
] as const;
type Place = (typeof PLACES)[number];

/** What each place must produce, and which field names the code at fault. */
const EXPECT: Record<Place, { code: string; field?: string; value?: string }> =
  {
    "section": { code: "provider-failed", field: "section", value: "bad" },
    "variable": { code: "provider-failed", field: "variable", value: "bad" },
    "tools": { code: "provider-failed" },
    "tool-name": { code: "provider-failed" },
    "handler": { code: "handler-failed", field: "handler", value: "faulty" },
    "async-handler": {
      code: "handler-failed",
      field: "handler",
      value: "faulty",
    },
    "thenable-handler": {
      code: "handler-failed",
      field: "handler",
      value: "faulty",
    },
    "handler-result": {
      code: "invalid-value",
      field: "handler",
      value: "faulty",
    },
    "listener": { code: "listener-failed", field: "handler", value: "faulty" },
  };

/** Registers, in `scope`, user code that throws `value` at `place`. */
function install(scope: PromptScope, place: Place, value: unknown): void {
  const raise = (): never => {
    throw value;
  };
  switch (place) {
    case "section":
      scope.section({ name: "bad", order: 5, text: raise });
      return;
    case "variable":
      scope.variable("bad", raise);
      return;
    case "tools":
      scope.tools(raise);
      return;
    case "tool-name":
      scope.tools(() => [{
        get name(): string {
          return raise();
        },
        description: "",
        parameters: {},
      }]);
      return;
    case "handler":
      scope.on("system-prompt/assemble", function faulty() {
        raise();
      });
      return;
    case "async-handler":
      scope.on("system-prompt/assemble", async function faulty() {
        await Promise.resolve();
        raise();
      });
      return;
    case "thenable-handler":
      scope.on("system-prompt/assemble", function faulty() {
        return {
          then(_: unknown, reject: (reason: unknown) => void) {
            reject(value);
          },
        } as PromiseLike<undefined>;
      });
      return;
    case "handler-result":
      scope.on("system-prompt/assemble", function faulty() {
        return {
          get sections(): never {
            return raise();
          },
          tools: [],
          variables: {},
        } as unknown as PromptAssembly;
      });
      return;
    case "listener":
      scope.on("system-prompt/change", function faulty() {
        raise();
      });
      return;
  }
}

function checkError(error: unknown, place: Place, value: unknown): void {
  assert.ok(error instanceof PromptError, `${place}: not a PromptError`);
  const expect = EXPECT[place];
  assert.equal(error.code, expect.code);
  assert.equal(error.owner, "faulty");
  if (expect.field !== undefined) {
    assert.equal(
      (error as unknown as Record<string, unknown>)[expect.field],
      expect.value,
    );
  }
  assert.ok(Object.is(error.cause, value), `${place}: cause is not the value`);
  assert.equal(typeof error.message, "string");
  assert.equal(typeof JSON.stringify(error), "string");
}

describe("any thrown value", () => {
  it("becomes the documented PromptError, with the value as cause, and changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PLACES),
        thrownValue,
        async (place, make) => {
          const value = make();
          const listenerErrors: unknown[] = [];
          const prompt = new SystemPrompt({
            onListenerError: (error) => void listenerErrors.push(error),
          });
          const good = prompt.scope("good");
          good.section({ name: "persona", order: 0, text: "I am {{model}}." });
          good.variable("model", () => "m-1");
          good.tools(() => [{ name: "read", description: "", parameters: {} }]);
          const before = renderPrompt(await prompt.assemble());
          const faulty = prompt.scope("faulty");
          install(faulty, place, value);
          const registered = prompt.registrations();
          if (place === "listener") {
            // Reported, never thrown at the caller; the registration stands.
            const off = good.variable("late", () => "x");
            assert.equal(listenerErrors.length, 1);
            checkError(listenerErrors[0], place, value);
            off();
            listenerErrors.length = 0;
          } else {
            let rejected = false;
            await prompt.assemble().catch((error) => {
              rejected = true;
              checkError(error, place, value);
            });
            assert.ok(rejected, `${place}: assemble() did not reject`);
          }
          // The failure changed nothing; without the faulty plugin, all works.
          assert.deepEqual(prompt.registrations(), registered);
          faulty.dispose();
          assert.equal(renderPrompt(await prompt.assemble()), before);
          if (place === "listener") {
            assert.equal(listenerErrors.length, 0);
          }
        },
      ),
      RUNS,
    );
  });

  it("never throws while describing a value for a message", () => {
    fc.assert(
      fc.property(thrownValue, fc.constantFrom(...PLACES), (make, place) => {
        const value = make();
        const error = new PromptError("handler-failed", place, {
          cause: value,
        });
        assert.deepEqual(Object.keys(error.toJSON()).sort(), [
          "cause",
          "code",
          "message",
          "name",
        ]);
        assert.equal(typeof error.toJSON().cause, "string");
      }),
      RUNS,
    );
  });
});

// Tools whose name getter throws are read once, in a try: a sanity check
// that a tool object with a *working* getter still assembles.
describe("tool getters that work", () => {
  it("are read once", async () => {
    let reads = 0;
    const prompt = new SystemPrompt();
    prompt.tools(() => [{
      get name() {
        reads++;
        return "t";
      },
      description: "",
      parameters: {},
    } as ToolSchema]);
    await prompt.assemble();
    assert.equal(reads, 1);
  });
});
