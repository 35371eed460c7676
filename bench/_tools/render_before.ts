/**
 * `renderPrompt()` now against the code before the layout options of round
 * 2 and asynchronous providers (main f483879, `bench/_before.ts`), on the
 * fair render pool of the realistic scenarios: both render the same fresh
 * value sets, their prompts are compared first, then they are timed in 41
 * interleaved rounds (the first 5 dropped) and the median ratio is printed.
 *
 * Usage: deno run --allow-read --allow-run --allow-write=.tmp/ bench/_tools/render_before.ts [small|medium|large]
 *
 * @module
 */

import * as now from "@dsh/system-prompt";
import { BEFORE_COMMIT, BEFORE_DIR, loadBefore } from "../_before.ts";
import { cycle, FRESH_POOL, valuePool } from "../_pool.ts";
import { SCENARIOS } from "../_realistic.ts";

await Deno.mkdir(BEFORE_DIR, { recursive: true });
const extracted = await new Deno.Command("sh", {
  args: [
    "-c",
    `git archive ${BEFORE_COMMIT} mod.ts src | tar -x -C "${BEFORE_DIR.pathname}"`,
  ],
}).output();
if (!extracted.success) throw new Error(`Cannot extract ${BEFORE_COMMIT}`);
const before = (await loadBefore())!;

const size = Deno.args[0] ?? "medium";
const { texts, values } = SCENARIOS.find((s) => s.name === size)!.resolved();
const pool = valuePool(values, FRESH_POOL);
const sections = texts.map((text, i) => ({ name: `s${i}`, order: i, text }));
const renderer = (render: typeof now.renderPrompt) => {
  const next = cycle(pool);
  return () => render({ sections, tools: [], variables: next() });
};
const ours = renderer(now.renderPrompt);
const old = renderer(before.renderPrompt);
for (let i = 0; i < 2 * FRESH_POOL; i++) {
  if (ours() !== old()) throw new Error("the two prompts differ");
}
const ratios: number[] = [];
let sink = 0;
for (let round = 0; round < 41; round++) {
  let start = performance.now();
  for (let i = 0; i < 3000; i++) sink += ours().length;
  const a = performance.now() - start;
  start = performance.now();
  for (let i = 0; i < 3000; i++) sink += old().length;
  const b = performance.now() - start;
  if (round >= 5) ratios.push(a / b);
}
ratios.sort((x, y) => x - y);
console.log(
  `${size}: renderPrompt now / before (${BEFORE_COMMIT}), median of ${ratios.length} rounds: ${
    ratios[ratios.length >> 1]!.toFixed(2)
  }${sink < 0 ? "" : ""}`,
);
