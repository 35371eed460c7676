// The session simulation (tests/support/cache_simulation.ts; the table in
// docs/adapters.md comes from bench/cache_session.ts): with the volatile
// facts in the runtime context, every provider that caches reads at least
// 95% of the tools + system tokens of steps 2..50 from cache.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { simulate } from "./support/cache_simulation.ts";

describe("a 50-step session on the example hosts", () => {
  it("reads ≥ 95% of tools + system from cache after the volatile facts move to the runtime context", async () => {
    const shares = await simulate(50);
    assert.equal(shares.length, 16);
    for (const share of shares) {
      assert.ok(
        share.after >= 0.95,
        `${share.host}, ${share.provider}: ${(share.after * 100).toFixed(1)}%`,
      );
      assert.ok(
        share.after >= share.before,
        `${share.host}, ${share.provider}`,
      );
    }
  });
});
