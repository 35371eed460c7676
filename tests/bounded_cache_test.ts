import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { BoundedCache } from "../src/render/_bounded_cache.ts";

describe("BoundedCache", () => {
  it("returns what was set", () => {
    const cache = new BoundedCache<number>();
    cache.set("a", 1);
    assert.equal(cache.get("a"), 1);
    assert.equal(cache.get("b"), undefined);
  });

  it("never holds more than two generations of entries", () => {
    const cache = new BoundedCache<number>({ maxEntries: 10 });
    for (let i = 0; i < 1000; i++) {
      cache.set(`k${i}`, i);
      assert.ok(cache.size <= cache.maxSize);
    }
    assert.equal(cache.maxSize, 20);
    assert.equal(cache.get("k0"), undefined);
    assert.equal(cache.get("k999"), 999);
  });

  it("keeps an entry that is read while its generation ages", () => {
    const cache = new BoundedCache<number>({ maxEntries: 4 });
    cache.set("hot", 0);
    for (let i = 0; i < 100; i++) {
      cache.set(`cold${i}`, i);
      assert.equal(cache.get("hot"), 0);
    }
  });

  it("rotates when the key characters reach their bound", () => {
    const cache = new BoundedCache<number>({
      maxEntries: 100,
      maxKeyChars: 10,
    });
    cache.set("aaaaaaaa", 1);
    cache.set("bbbbbbbb", 2);
    cache.set("cccccccc", 3);
    assert.equal(cache.get("aaaaaaaa"), undefined);
    assert.equal(cache.get("cccccccc"), 3);
  });

  it("clears", () => {
    const cache = new BoundedCache<number>();
    cache.set("a", 1);
    cache.clear();
    assert.equal(cache.size, 0);
  });
});
