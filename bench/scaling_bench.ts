/**
 * scaling: per-section cost from 10 to 1,000 sections; and 1 MB hostile
 * texts against 1 MB of plain text. The parsed-text cache is cleared before
 * every hostile render, so each one pays for a full parse.
 *
 * @module
 */

import { renderPrompt, SystemPrompt } from "../mod.ts";
import { BoundedCache } from "../src/render/_bounded_cache.ts";
import { useTemplateCache } from "../src/render/_template.ts";
import { makeCorpus, writeSections } from "./corpus.ts";

for (const count of [10, 100, 1000]) {
  const corpus = makeCorpus({ sections: count, variables: count });
  const prompt = new SystemPrompt();
  writeSections(corpus, (name) => `{{${name}}}`).forEach((text, i) =>
    prompt.section({ name: `s${i}`, order: i, text })
  );
  for (const [name, value] of Object.entries(corpus.values)) {
    prompt.variable(name, () => value);
  }
  const assembly = await prompt.assemble();
  renderPrompt(assembly);
  Deno.bench({
    group: "scaling render",
    name: `S=${count}`,
    baseline: count === 10,
    fn: () => void renderPrompt(assembly),
  });
  Deno.bench({
    group: "scaling assemble+render",
    name: `S=${count}`,
    baseline: count === 10,
    fn: async () => void renderPrompt(await prompt.assemble()),
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
