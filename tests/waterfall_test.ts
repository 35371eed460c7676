// deno-lint-ignore-file require-await -- async handlers that never await are the cases under test
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { runWaterfall, type WaterfallHandler } from "../src/core/waterfall.ts";

type H = WaterfallHandler<number[], string>;

describe("runWaterfall()", () => {
  it("returns the input itself when there are no handlers", () => {
    const value = [1];
    assert.equal(runWaterfall([], value, "arg"), value);
  });

  it("runs handlers in order, each on the previous result, with the argument", () => {
    const seen: string[] = [];
    const handlers: H[] = [
      (v, arg) => (seen.push(arg), [...v, 2]),
      (v) => [...v, 3],
    ];
    assert.deepEqual(runWaterfall(handlers, [1], "ctx"), [1, 2, 3]);
    assert.deepEqual(seen, ["ctx"]);
  });

  it("keeps the (mutated) value when a handler returns undefined", () => {
    const handlers: H[] = [(v) => void v.push(2), () => undefined];
    assert.deepEqual(runWaterfall(handlers, [1], ""), [1, 2]);
  });

  it("returns synchronously, creating no promise, while every handler is sync", () => {
    const result = runWaterfall<number[], string>(
      [(v) => v, (v) => v],
      [1],
      "",
    );
    assert.ok(!(result instanceof Promise));
  });

  it("switches to a promise at the first async handler and still runs the rest", async () => {
    const order: string[] = [];
    const handlers: H[] = [
      (v) => (order.push("sync"), [...v, 2]),
      async (v) => (order.push("async"), [...v, 3]),
      (v) => (order.push("sync after"), [...v, 4]),
      async () => void order.push("async undefined"),
    ];
    const result = runWaterfall(handlers, [1], "");
    assert.ok(result instanceof Promise);
    assert.deepEqual(await result, [1, 2, 3, 4]);
    assert.deepEqual(order, ["sync", "async", "sync after", "async undefined"]);
  });

  it("awaits any thenable, not only native promises", async () => {
    const thenable = { then: (resolve: (v: number[]) => void) => resolve([9]) };
    const handler = () => thenable as unknown as PromiseLike<number[]>;
    const result = runWaterfall<number[], string>([handler], [1], "");
    assert.deepEqual(await result, [9]);
  });

  it("maps a sync throw through onError with the handler index", () => {
    const boom = new Error("boom");
    const handlers: H[] = [(v) => v, () => {
      throw boom;
    }];
    assert.throws(
      () =>
        runWaterfall(handlers, [], "", {
          onError: (error, index) => new Error(`#${index}`, { cause: error }),
        }),
      (error: Error) => error.message === "#1" && error.cause === boom,
    );
  });

  it("maps a rejection, and a throw after an async handler, through onError", async () => {
    const boom = new Error("boom");
    const onError = (error: unknown, index: number) => ({ error, index });
    await assert.rejects(
      runWaterfall<number[], string>(
        [async () => {
          throw boom;
        }],
        [],
        "",
        { onError },
      ) as Promise<number[]>,
      (e) => (assert.deepEqual(e, { error: boom, index: 0 }), true),
    );
    await assert.rejects(
      runWaterfall<number[], string>(
        [async () => undefined, () => {
          throw boom;
        }],
        [],
        "",
        { onError },
      ) as Promise<number[]>,
      (e) => (assert.deepEqual(e, { error: boom, index: 1 }), true),
    );
  });

  it("passes returned values through accept, whose errors are thrown as they are", async () => {
    const handlers: H[] = [() => [5], async () => [6]];
    const accepted: number[] = [];
    const result = await runWaterfall(handlers, [], "", {
      accept: (value, index) => (accepted.push(index), value as number[]),
    });
    assert.deepEqual(result, [6]);
    assert.deepEqual(accepted, [0, 1]);
    const refuse = new Error("refused");
    assert.throws(
      () =>
        runWaterfall(handlers, [], "", {
          accept: () => {
            throw refuse;
          },
          onError: () => new Error("wrapped"),
        }),
      (e) => e === refuse,
    );
  });
});
