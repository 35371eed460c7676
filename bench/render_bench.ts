/**
 * render: S sections × V variables, every renderer checked byte-identical
 * to ours before it is timed.
 *
 * @module
 */

import { makeCorpus } from "./corpus.ts";
import { checkedRenderers } from "./renderers.ts";

const CASES: { sections: number; variables: number; nonLatin1?: boolean }[] =
  [];
for (const sections of [10, 100, 500]) {
  for (const variables of [10, 100, 500]) CASES.push({ sections, variables });
}
CASES.push({ sections: 100, variables: 100, nonLatin1: true });

for (const options of CASES) {
  const group = `render S=${options.sections} V=${options.variables}${
    options.nonLatin1 ? " non-Latin-1" : ""
  }`;
  const { renderers, values } = checkedRenderers(makeCorpus(options));
  for (const { name, render } of renderers) {
    render(values); // warm-up
    Deno.bench({
      group,
      name,
      baseline: name === "ours",
      fn: () => void render(values),
    });
  }
}
