// Texts that change every step must not grow memory: the parse cache is
// bounded in entries and in characters. The heap figure needs a collector the
// test can call: run
// `deno test --allow-read --v8-flags=--expose-gc tests/render_memory_test.ts`
// (node: `--expose-gc`); without it that test is skipped and the bound is
// checked on the cache's own accounting only.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { memoryUsage } from "node:process";
import type { PromptAssembly } from "../src/core/types.ts";
import type { BoundedCache } from "../src/render/_bounded_cache.ts";
import {
  type Template,
  templateCache,
  templateOf,
  TEMPLATES,
} from "../src/render/_template.ts";
import { renderAssembly } from "../src/render/_walk.ts";
import { renderPrompt } from "../src/render/render.ts";

const KB10 = "x".repeat(10_240);

/** Step `i`: a text that changes every step, interpolating a 10 kB value. */
function step(i: number, repeat = 1): PromptAssembly {
  const n = Math.floor(i / repeat);
  return {
    sections: [
      { name: "rules", order: 0, text: "Be brief. {{model}}" },
      { name: "clock", order: 1, text: `Step ${n}: {{big}} at {{model}}` },
    ],
    tools: [],
    variables: Object.assign(Object.create(null), {
      model: "m-1",
      big: KB10 + i, // a fresh 10 kB string every step
    }),
  };
}

function renderWith(cache: BoundedCache<Template>, a: PromptAssembly): string {
  return renderAssembly(a, { kind: "section", cache });
}

describe("renderPrompt() memory", () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  it(
    "retains within 2× the heap of the first 1,000 steps over 100,000 steps (needs --expose-gc)",
    { skip: gc === undefined },
    () => {
      const heap = () => {
        gc!();
        gc!();
        return memoryUsage().heapUsed;
      };
      const start = heap();
      for (const repeat of [1, 3]) {
        let i = 0;
        for (; i < 1_000; i++) renderPrompt(step(i, repeat));
        const first = heap();
        for (; i < 100_000; i++) renderPrompt(step(i, repeat));
        const last = heap();
        assert.ok(
          last <= 2 * first,
          `repeat ${repeat}: ${
            (first / 1e6).toFixed(1)
          } MB after 1,000 steps, ${(last / 1e6).toFixed(1)} MB after 100,000`,
        );
        console.log(
          `repeat ${repeat}: heap ${(start / 1e6).toFixed(1)} MB before, ${
            (first / 1e6).toFixed(1)
          } MB after 1,000 steps, ${(last / 1e6).toFixed(1)} MB after 100,000`,
        );
      }
    },
  );

  it("keeps the cache within its bounds over 100,000 steps whose text changes every step", () => {
    const cache = templateCache();
    let most = 0;
    for (let i = 0; i < 100_000; i++) {
      const text = renderWith(cache, step(i));
      if (i === 0) assert.ok(text.endsWith("0 at m-1"));
      most = Math.max(most, cache.chars);
      assert.ok(cache.size <= cache.maxSize);
    }
    assert.equal(cache.maxSize, 4096); // never grew
    assert.ok(most <= cache.maxChars, `${most} characters accounted`);
  });

  it("grows to hold what one render reads: a prompt of 5,000 texts is parsed once", () => {
    const cache = templateCache();
    const sections = Array.from({ length: 5_000 }, (_, i) => ({
      name: `s${i}`,
      order: i,
      text: `Section ${i} uses {{v}}.`,
    }));
    const render = (v: string) =>
      renderWith(cache, { sections, tools: [], variables: { v } });
    for (let i = 0; i < 3; i++) render(`${i}`);
    const parsed = sections.map((s) => templateOf(s.text, cache));
    assert.ok(render("x").endsWith("Section 4999 uses x."));
    assert.ok(
      sections.every((s, i) => templateOf(s.text, cache) === parsed[i]),
    );
    assert.ok(cache.size <= cache.maxSize);
  });

  it("keeps the shared cache within its bounds through renderPrompt", () => {
    for (let i = 0; i < 20_000; i++) renderPrompt(step(i, 2));
    assert.ok(TEMPLATES.chars <= TEMPLATES.maxChars + 10_300);
    assert.ok(TEMPLATES.size <= TEMPLATES.maxSize);
  });
});
