// createDisposer(): the undo behind every registration's disposer runs once,
// however often it is called, and with `using`.
import { describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import { disposer as createDisposer } from "../src/registry/_registry.ts";

describe("createDisposer()", () => {
  it("runs the undo once however often it is called or disposed", () => {
    const undo = mock.fn();
    const dispose = createDisposer(undo);
    dispose();
    dispose();
    dispose[Symbol.dispose]();
    assert.equal(undo.mock.callCount(), 1);
  });

  it("is disposed by using", () => {
    const undo = mock.fn();
    {
      using _ = createDisposer(undo);
      assert.equal(undo.mock.callCount(), 0);
    }
    assert.equal(undo.mock.callCount(), 1);
  });
});
