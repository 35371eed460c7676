/**
 * scaling: per-section cost from 10 to 10,000 sections, ours and the true
 * floor, render only and assemble + render (a parse-cache cliff shows here
 * as a jump in ours but not in the floor), ours building every section
 * again (`full_render.ts`: no reuse of the last render); and 1 MB hostile
 * texts against 1 MB of plain text. The parsed-text cache is cleared before
 * every hostile render, so each one pays for a full parse.
 *
 * @module
 */

import { renderPrompt, SystemPrompt } from "../mod.ts";
import { renderFull } from "./full_render.ts";
import { BoundedCache } from "../src/render/_bounded_cache.ts";
import { useTemplateCache } from "../src/render/_template.ts";
import { makeCorpus, writeSections } from "./corpus.ts";
import { compileTexts, renderPieces, type Values } from "./floor.ts";
import { assertSame } from "./renderers.ts";

/** Section counts of the scaling curve. */
export const SCALING_COUNTS: readonly number[] = [
  10,
  100,
  1000,
  2500,
  5000,
  10000,
];

for (const count of SCALING_COUNTS) {
  const corpus = makeCorpus({ sections: count, variables: count });
  const texts = writeSections(corpus, (name) => `{{${name}}}`);
  const prompt = new SystemPrompt();
  texts.forEach((text, i) => prompt.section({ name: `s${i}`, order: i, text }));
  const providers = Object.entries(corpus.values).map(([name, value]) =>
    [name, () => value] as const
  );
  for (const [name, provider] of providers) prompt.variable(name, provider);
  const assembly = await prompt.assemble();
  const pieces = compileTexts(texts);
  // The floor's step: the same providers called, then the floor's render.
  // deno-lint-ignore require-await -- a promise, as ours returns
  const floorStep = async () => {
    const values: Values = Object.create(null);
    for (let i = 0; i < providers.length; i++) {
      values[providers[i]![0]] = providers[i]![1]();
    }
    return renderPieces(pieces, values);
  };
  const expected = renderPrompt(assembly);
  assertSame(`scaling S=${count} floor`, await floorStep(), expected);
  const values = assembly.variables;
  Deno.bench({
    group: "scaling render",
    name: `ours S=${count}`,
    fn: () => void renderFull(assembly),
  });
  Deno.bench({
    group: "scaling render",
    name: `floor S=${count}`,
    fn: () => void renderPieces(pieces, values),
  });
  Deno.bench({
    group: "scaling assemble+render",
    name: `ours S=${count}`,
    fn: async () => void renderFull(await prompt.assemble()),
  });
  Deno.bench({
    group: "scaling assemble+render",
    name: `floor S=${count}`,
    fn: async () => void (await floorStep()),
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
Deno.bench({
  group: "hostile 1 MB",
  name: "native rewrite of \\{{ runs",
  fn: () => void escapes.replace(/\\\{\{/g, "{{"),
});
for (const [name, text] of Object.entries(texts)) {
  const assembly = {
    sections: [{ name: "s", order: 0, text }],
    tools: [],
    variables: { model: "m-1" },
  };
  const rendered = renderPrompt(assembly); // must not throw: every text renders
  if (text === escapes && rendered !== expected.trim()) {
    throw new Error("ours and the native rewrite differ on \\{{ runs");
  }
  Deno.bench({
    group: "hostile 1 MB",
    name,
    baseline: name === "plain text",
    fn: () => {
      useTemplateCache(new BoundedCache()); // every text parsed afresh
      renderPrompt(assembly);
    },
  });
}
