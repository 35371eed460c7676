/**
 * render: S sections × V variables of synthetic prose, then the realistic
 * small / medium / large corpora, from a fair render pool (`_pool.ts`):
 * every iteration renders the next of {@linkcode FRESH_POOL} value sets,
 * each value of other content than in every other set, and every
 * candidate gets the same sets in the same order, so that no candidate
 * times a memo hit. Every renderer is checked byte-identical to ours on
 * every set before it is timed. At the realistic sizes, `ours, same
 * assembly` renders one assembly again and again, for comparison: that is
 * what a bench that repeats one assembly measures.
 *
 * Before anything is timed, the realistic scenarios are registered in a
 * registry of this process and stepped, through `render()` and through
 * `assemble()` + `renderPrompt()`: every host has registered its prompt
 * before it renders, so the checks the renderer shares with registration
 * have seen registration's objects too. Each candidate iterates in a
 * closure compiled for it alone (`ownSite`).
 *
 * @module
 */

import { addBench, ownSite } from "./_bench.ts";
import {
  type PromptAssembly,
  renderPrompt,
  SystemPrompt,
} from "@dsh/system-prompt";
import type { Values } from "./_floor.ts";
import { makeCorpus, writeSections } from "./_corpus.ts";
import { cycle, FRESH_POOL, valuePool } from "./_pool.ts";
import { BASE_CONTEXT, type Context, SCENARIOS } from "./_realistic.ts";
import { checkedRenderers, FAST_PEERS } from "./_renderers.ts";

const CASES: { sections: number; variables: number; nonLatin1?: boolean }[] =
  [];
for (const sections of [10, 100, 500]) {
  for (const variables of [10, 500]) CASES.push({ sections, variables });
}
CASES.push({ sections: 100, variables: 100, nonLatin1: true });

const groups: {
  group: string;
  texts: string[];
  values: Record<string, string>;
  again: boolean;
}[] = [];
for (const options of CASES) {
  const corpus = makeCorpus(options);
  groups.push({
    group: `render S=${options.sections} V=${options.variables}${
      options.nonLatin1 ? " non-Latin-1" : ""
    }`,
    texts: writeSections(corpus, (name) => `{{${name}}}`),
    values: corpus.values,
    again: false,
  });
}
for (const scenario of SCENARIOS) {
  const { texts, values } = scenario.resolved();
  groups.push({
    group: `render ${scenario.name}`,
    texts,
    values,
    again: true,
  });
}

// A host's registry, registered and stepped in this process.
for (const scenario of SCENARIOS) {
  const prompt = scenario.register(new SystemPrompt<Context>(), false);
  const withHandler = scenario.register(new SystemPrompt<Context>(), true);
  for (let turn = 1; turn <= 3; turn++) {
    const context = { ...BASE_CONTEXT, turn };
    await prompt.render(context, { agent: "host" });
    renderPrompt(await withHandler.assemble(context));
  }
}

/** The candidates timed at the synthetic sizes. */
const TIMED = ["ours", "floor", ...Object.keys(FAST_PEERS)];

/** One iteration: the next value set of the pool, rendered. */
const iteration =
  (render: (values: Values) => string, next: () => Values) => () =>
    render(next()).length;

for (const { group, texts, values, again } of groups) {
  const pool = valuePool(values, FRESH_POOL);
  const renderers = checkedRenderers(texts, pool);
  for (const { name, render } of renderers) {
    // The synthetic sizes time ours, the floor and the fast peers only
    // (every engine is still checked byte-identical): the report's time.
    if (!again && !TIMED.includes(name)) continue;
    const next = cycle(pool);
    addBench({
      group,
      name,
      baseline: name === "ours",
      fn: ownSite(iteration, render, next),
    });
  }
  if (again) {
    const sections = texts.map((text, i) => ({
      name: `s${i}`,
      order: i,
      text,
    }));
    const assembly = { sections, tools: [], variables: pool[0]! };
    addBench({
      group,
      name: "ours, same assembly",
      fn: ownSite(
        (render: typeof renderPrompt, assembly: PromptAssembly) => () =>
          render(assembly).length,
        renderPrompt,
        assembly,
      ),
    });
  }
}
