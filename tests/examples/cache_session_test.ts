// examples/cache_session.ts: the cache ledger names the cause of every miss
// of a simulated Anthropic cache, with the part and owner at fault, and
// prices each owner.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { inspectorPage } from "@dsh/system-prompt/page";
import { runCacheSession } from "../../examples/cache_session.ts";

const TRUTH_TO_CAUSE = { evicted: "unexplained" } as Record<string, string>;

describe("examples/cache_session.ts: a two-agent session against a simulated Anthropic cache", () => {
  it("names the cause of every miss as the simulator's ground truth, and no cause where none was missed", async () => {
    const { steps } = await runCacheSession();
    assert.equal(steps.length, 20);
    for (const { report, truth } of steps) {
      const want = truth === undefined
        ? undefined
        : TRUTH_TO_CAUSE[truth] ?? truth;
      assert.equal(report.cause, want, `step ${report.step}: ${report.detail}`);
    }
  });

  it("shows the TTL lapse, the MCP tool change and the notes edit as what they are, with the part and its owner", async () => {
    const { steps } = await runCacheSession();
    const at = (n: number) => steps[n - 1]!.report;
    assert.equal(at(7).cause, "ttl-expired");
    assert.equal(at(8).cause, "ttl-expired");
    for (const n of [11, 12]) {
      assert.equal(at(n).cause, "prefix-changed");
      assert.deepEqual(
        [at(n).change?.kind, at(n).change?.name, at(n).change?.owner],
        ["tool", "docs_search", "mcp:docs"],
      );
    }
    for (const n of [15, 16]) {
      assert.equal(at(n).cause, "prefix-changed");
      assert.deepEqual(
        [at(n).change?.kind, at(n).change?.name, at(n).change?.owner],
        ["section", "session-notes", "notes"],
      );
    }
    assert.deepEqual(
      steps.filter((s) => s.report.cause === "first-request").map((s) =>
        s.report.step
      ),
      [1, 2],
    );
  });

  it("puts the tokens invalidated by each miss within 10% of what the provider wrote", async () => {
    const { steps } = await runCacheSession();
    for (const { report, written } of steps) {
      if (report.cause === undefined) continue;
      assert.ok(
        Math.abs(report.invalidated - written) <= 0.1 * written,
        `step ${report.step}: invalidated ${report.invalidated}, written ${written}`,
      );
    }
  });

  it("prices each owner's misses in the summary and shows them on the inspector page", async () => {
    const { ledger, last } = await runCacheSession();
    const summary = ledger.summary();
    assert.deepEqual(Object.keys(summary.owners).sort(), ["mcp:docs", "notes"]);
    assert.equal(summary.owners["mcp:docs"]!.misses, 2);
    assert.ok(summary.owners["mcp:docs"]!.cost > summary.owners["notes"]!.cost);
    assert.deepEqual(JSON.parse(JSON.stringify(summary)), summary);
    const html = inspectorPage(last, { session: ledger });
    assert.match(html, /<section id="session">/);
    assert.equal(html.match(/<li data-step=/g)?.length, 20);
    assert.match(html, /data-cause="prefix-changed" data-owner="mcp:docs"/);
  });
});
