/**
 * render: S sections × V variables of synthetic prose, then the realistic
 * small / medium / large corpora; every renderer checked byte-identical to
 * ours before it is timed. Cold parse cache excluded: each renderer renders
 * once before timing.
 *
 * @module
 */

import { makeCorpus, writeSections } from "./corpus.ts";
import { SCENARIOS } from "./realistic.ts";
import { checkedRenderers } from "./renderers.ts";

const CASES: { sections: number; variables: number; nonLatin1?: boolean }[] =
  [];
for (const sections of [10, 100, 500]) {
  for (const variables of [10, 500]) CASES.push({ sections, variables });
}
CASES.push({ sections: 100, variables: 100, nonLatin1: true });

const groups: {
  group: string;
  texts: string[];
  values: Record<string, string | undefined>;
}[] = [];
for (const options of CASES) {
  const corpus = makeCorpus(options);
  groups.push({
    group: `render S=${options.sections} V=${options.variables}${
      options.nonLatin1 ? " non-Latin-1" : ""
    }`,
    texts: writeSections(corpus, (name) => `{{${name}}}`),
    values: corpus.values,
  });
}
for (const scenario of SCENARIOS) {
  const { texts, values } = scenario.resolved();
  groups.push({ group: `render ${scenario.name}`, texts, values });
}

for (const { group, texts, values: raw } of groups) {
  const { renderers, values } = checkedRenderers(texts, raw);
  for (const { name, render } of renderers) {
    render(values); // warm-up, and the parse cache
    Deno.bench({
      group,
      name,
      baseline: name === "ours",
      fn: () => void render(values),
    });
  }
}
