// BoundedCache, the bounded store behind the parse cache and the caches of
// tool copies and request pieces: at most two generations of entries,
// bounded in entries and in key characters, growing (to a limit) only for a
// working set that is read again.
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
      maxChars: 10,
    });
    cache.set("aaaaaaaa", 1);
    cache.set("bbbbbbbb", 2);
    cache.set("cccccccc", 3);
    assert.equal(cache.get("aaaaaaaa"), undefined);
    assert.equal(cache.get("cccccccc"), 3);
  });

  it("counts a value's weight with its key, and what it is charged after", () => {
    const cache = new BoundedCache<string>(
      { maxEntries: 100, maxChars: 20 },
      (value) => value.length,
    );
    cache.set("a", "12345678"); // 9 characters
    assert.equal(cache.chars, 9);
    cache.charge(10); // the value grew
    assert.equal(cache.chars, 19);
    cache.set("b", "1"); // 2 more would pass 20: the young generation rotates
    assert.equal(cache.get("a"), "12345678");
    cache.set("c", "x".repeat(30));
    cache.set("d", "");
    assert.equal(cache.get("b"), undefined);
    assert.ok(cache.chars <= 2 * 20 + 31);
  });

  it("keeps the characters it accounts for bounded when values keep growing", () => {
    const cache = new BoundedCache<number>({
      maxEntries: 1000,
      maxChars: 1000,
    });
    for (let i = 0; i < 10_000; i++) {
      cache.set(`k${i % 7}`, i);
      cache.charge(50);
      assert.ok(cache.chars <= cache.maxChars + 1000, String(cache.chars));
    }
  });
});

describe("BoundedCache growth", () => {
  const cycle = (cache: BoundedCache<number>, keys: number, rounds: number) => {
    let misses = 0;
    for (let round = 0; round < rounds; round++) {
      misses = 0;
      for (let i = 0; i < keys; i++) {
        if (cache.get(`k${i}`) === undefined) {
          misses++;
          cache.set(`k${i}`, i);
        }
      }
    }
    return misses; // in the last round
  };

  it("grows to keep a working set that outgrows a generation", () => {
    const cache = new BoundedCache<number>({ maxEntries: 100 });
    assert.equal(cycle(cache, 120, 4), 0);
    assert.equal(cache.maxSize, 400);
  });

  it("does not grow for keys that are never read again", () => {
    const cache = new BoundedCache<number>({ maxEntries: 100 });
    for (let step = 0; step < 5000; step++) {
      // 50 keys read every step, one new key every step (a timestamp).
      for (let i = 0; i < 50; i++) {
        if (cache.get(`static${i}`) === undefined) cache.set(`static${i}`, i);
      }
      cache.set(`clock${step}`, step);
      assert.ok(cache.size <= 200);
    }
    assert.equal(cache.maxSize, 200);
  });

  it("stops growing after maxDoublings, and stays bounded", () => {
    const cache = new BoundedCache<number>({ maxEntries: 10, maxDoublings: 2 });
    assert.equal(cycle(cache, 12, 4), 0);
    assert.equal(cycle(cache, 24, 4), 0);
    assert.equal(cache.maxSize, 80);
    cycle(cache, 48, 4); // would need a third doubling
    assert.equal(cache.maxSize, 80);
    assert.ok(cache.size <= 80);
  });

  it("starts at 2,048 entries a generation and may grow to 8 times that", () => {
    const cache = new BoundedCache<number>();
    assert.equal(cache.maxSize, 4096);
    assert.equal(cache.maxChars, 2 * 4_194_304);
  });

  it("grows on key characters as on entries", () => {
    const cache = new BoundedCache<number>({
      maxEntries: 1000,
      maxChars: 1000,
    });
    const key = (i: number) => `${i}`.padEnd(100, "x");
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 12; i++) {
        if (cache.get(key(i)) === undefined) cache.set(key(i), i);
      }
    }
    for (let i = 0; i < 12; i++) assert.equal(cache.get(key(i)), i);
  });
});
