/**
 * layout: what the options of docs/layout.md cost when they are used. The same
 * 100-section corpus rendered with the default layout (the baseline), with
 * a prompt-wide separator, with a separator on every section, as literal
 * sections, and as 10 lists of 10 items, each from a fair render pool
 * (`_pool.ts`: fresh values every iteration, so no render is a memo hit);
 * and `assemble()` of 100 sections against 10 lists of 10 items (half with
 * a context-dependent order).
 *
 * @module
 */

import { addBench } from "./_bench.ts";
import {
  type AssembledSection,
  type PromptAssembly,
  renderPrompt,
  SystemPrompt,
} from "@dsh/system-prompt";
import { makeCorpus, writeSections } from "./_corpus.ts";
import { cycle, valuePool } from "./_pool.ts";

const corpus = makeCorpus({ sections: 100, variables: 100 });
const texts = writeSections(corpus, (name) => `{{${name}}}`);
const pool = valuePool(corpus.values);
const variables = pool[0]!;

const plain: AssembledSection[] = texts.map((text, i) => ({
  name: `s${i}`,
  order: i,
  text,
}));
const lists: AssembledSection[] = Array.from({ length: 10 }, (_, l) => ({
  name: `l${l}`,
  order: l,
  text: `Heading ${l}:`,
  list: { separator: "\n" },
  items: plain.slice(l * 10, l * 10 + 10).map((s, i) => ({
    name: s.name,
    order: i,
    text: s.text,
  })),
}));
const cases: [string, PromptAssembly][] = [
  ["default layout", { sections: plain, tools: [], variables }],
  ["prompt separator", {
    sections: plain,
    tools: [],
    variables,
    separator: "\n",
  }],
  ["separator on every section", {
    sections: plain.map((s) => ({ ...s, separator: "\n" })),
    tools: [],
    variables,
  }],
  ["literal sections", {
    sections: plain.map((s) => ({ ...s, literal: true })),
    tools: [],
    variables,
  }],
  ["10 lists of 10 items", { sections: lists, tools: [], variables }],
];
let sink = 0;
for (const [name, assembly] of cases) {
  const assemblies = pool.map((variables) => ({ ...assembly, variables }));
  for (const each of assemblies) renderPrompt(each); // a check that it renders
  const next = cycle(assemblies);
  addBench({
    group: "layout render S=100",
    name,
    baseline: name === "default layout",
    fn: () => void (sink += renderPrompt(next()).length),
  });
}

interface Context {
  picked: number[];
}
const sectionsRegistry = new SystemPrompt<Context>();
for (const s of plain) sectionsRegistry.section({ ...s });
const listsRegistry = new SystemPrompt<Context>();
for (const list of lists) {
  listsRegistry.section({
    name: list.name,
    order: list.order,
    text: list.text,
    list: {},
  });
  for (const [i, item] of list.items!.entries()) {
    listsRegistry.scope(`p${i}`).item(list.name, {
      name: item.name,
      order: i % 2 === 0 ? i : (context) => context.picked.indexOf(i),
      text: item.text,
    });
  }
}
const context: Context = { picked: [9, 7, 5, 3, 1] };
for (
  const [name, registry] of [
    ["100 sections", sectionsRegistry],
    ["10 lists of 10 items", listsRegistry],
  ] as const
) {
  await registry.assemble(context); // warm-up
  addBench({
    group: "layout assemble",
    name,
    baseline: name === "100 sections",
    fn: async () => void await registry.assemble(context),
  });
}

globalThis.addEventListener("unload", () => {
  if (sink === -1) console.log(sink);
});
