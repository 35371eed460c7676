/**
 * scaling: per-section cost from 10 to 10,000 sections, ours and the true
 * floor, from a fair render pool (`_pool.ts`: fresh values every iteration,
 * the same for both), render only (`scaling render`) and whole steps
 * (`scaling step`: ours through `_ours.ts`, the floor calling the same
 * providers), so that a parse-cache cliff shows as a jump in ours but not
 * in the floor; and 1 MB hostile texts against 1 MB of plain text, each
 * iteration's text made new by a counter in front, so that every render
 * parses it afresh (the parse cache is keyed by content).
 *
 * @module
 */

import { addBench } from "./_bench.ts";
import { renderPrompt, SystemPrompt } from "@dsh/system-prompt";
import { assertSame } from "./_check.ts";
import { makeCorpus, writeSections } from "./_corpus.ts";
import { compileTexts, renderPieces, type Values } from "./_floor.ts";
import { oursStep } from "./_ours.ts";
import { cycle, valuePool } from "./_pool.ts";

/** Section counts of the scaling curve. */
export const SCALING_COUNTS: readonly number[] = [
  10,
  100,
  1000,
  2500,
  5000,
  10000,
];

let sink = 0;
/** The value set the providers of the `scaling step` registries return. */
let current: Values = {};

for (const count of SCALING_COUNTS) {
  const corpus = makeCorpus({ sections: count, variables: count });
  const texts = writeSections(corpus, (name) => `{{${name}}}`);
  const pool = valuePool(corpus.values);
  const sections = texts.map((text, i) => ({ name: `s${i}`, order: i, text }));
  const assemblies = pool.map((variables) => ({
    sections,
    tools: [],
    variables,
  }));
  const pieces = compileTexts(texts);
  const names = Object.keys(corpus.values);
  const prompt = new SystemPrompt();
  for (const section of sections) prompt.section(section);
  for (const name of names) prompt.variable(name, () => current[name]);
  const ours = oursStep(prompt);
  // The floor's step: the same providers called, then the floor's render.
  // deno-lint-ignore require-await -- a promise, as ours returns
  const floorStep = async () => {
    const values: Values = Object.create(null);
    for (let i = 0; i < names.length; i++) {
      values[names[i]!] = current[names[i]!];
    }
    return renderPieces(pieces, values);
  };
  for (let k = 0; k < pool.length; k++) {
    const expected = renderPrompt(assemblies[k]!);
    assertSame(
      `scaling S=${count} floor`,
      renderPieces(pieces, pool[k]!),
      expected,
    );
    current = pool[k]!;
    assertSame(
      `scaling S=${count} ours step`,
      (await ours({})).prompt,
      expected,
    );
    assertSame(`scaling S=${count} floor step`, await floorStep(), expected);
  }
  const nextAssembly = cycle(assemblies);
  const nextValues = cycle(pool);
  addBench({
    group: "scaling render",
    name: `ours S=${count}`,
    fn: () => void (sink += renderPrompt(nextAssembly()).length),
  });
  addBench({
    group: "scaling render",
    name: `floor S=${count}`,
    fn: () => void (sink += renderPieces(pieces, nextValues()).length),
  });
  const oursValues = cycle(pool);
  addBench({
    group: "scaling step",
    name: `ours S=${count}`,
    fn: async () => {
      current = oursValues();
      sink += (await ours({})).prompt.length;
    },
  });
  const floorValues = cycle(pool);
  addBench({
    group: "scaling step",
    name: `floor S=${count}`,
    fn: async () => {
      current = floorValues();
      sink += (await floorStep()).length;
    },
  });
}

const MB = 1 << 20;
const fill = (unit: string) =>
  unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
const texts: Record<string, string> = {
  "plain text": fill("the agent reads each file before it edits. "),
  "prose with references": fill(
    "the agent on {{model}} reads each file before it edits. ",
  ),
  "{ flood": fill("{"),
  "} flood": fill("}"),
  "{{ x runs": fill("{{ x"),
  "\\{{ runs": fill("\\{{"),
  "{{ unterminated": "{{ " + fill("x"),
};
// The least any correct renderer does with `\\{{` runs: rewrite every escape.
const escapes = texts["\\{{ runs"]!;
const expected = escapes.replace(/\\\{\{/g, "{{");
addBench({
  group: "hostile 1 MB",
  name: "native rewrite of \\{{ runs",
  fn: () => void (sink += escapes.replace(/\\\{\{/g, "{{").length),
});
const variables = { model: "m-1" };
const render = (text: string) =>
  renderPrompt({
    sections: [{ name: "s", order: 0, text }],
    tools: [],
    variables,
  });
for (const [name, text] of Object.entries(texts)) {
  const rendered = render(text); // must not throw: every text renders
  if (text === escapes && rendered !== expected.trim()) {
    throw new Error("ours and the native rewrite differ on \\{{ runs");
  }
  let n = 0;
  addBench({
    group: "hostile 1 MB",
    name,
    baseline: name === "plain text",
    // A new text every time (the counter in front): parsed afresh.
    fn: () => void (sink += render(`${++n} ${text}`).length),
  });
}

globalThis.addEventListener("unload", () => {
  if (sink === -1) console.log(sink);
});
