/**
 * end to end: one agent step, `renderPrompt(await assemble(context))`, with
 * 500 sections (a fifth of them functions), 500 variables, 20 tool providers
 * of 5 tools each and two handlers (one sync, one async); against a
 * hand-written floor that calls the same providers and handlers and joins the
 * same pre-split parts. Both outputs are checked equal first.
 *
 * @module
 */

import {
  type PromptAssembly,
  renderPrompt,
  SystemPrompt,
  type ToolSchema,
} from "../mod.ts";
import { makeCorpus, writeSections } from "./corpus.ts";

interface Context {
  step: number;
}

const corpus = makeCorpus({ sections: 500, variables: 500 });
const texts = writeSections(corpus, (name) => `{{${name}}}`);
const textFns = texts.map((text) => () => text);
const isFunction = (i: number) => i % 5 === 0;
const variableFns = Object.entries(corpus.values).map(([name, value]) =>
  [name, () => value] as const
);
const toolFns = Array.from({ length: 20 }, (_, p) => {
  const tools: ToolSchema[] = Array.from({ length: 5 }, (_, t) => ({
    name: `tool_${p}_${t}`,
    description: `Tool ${t} of provider ${p}.`,
    parameters: { type: "object", properties: {} },
  }));
  return () => tools;
});
const dropOneTool = (assembly: PromptAssembly) => {
  assembly.tools = assembly.tools.filter((tool) => tool.name !== "tool_0_0");
};
const addStep = async (assembly: PromptAssembly, context: Context) => {
  await undefined;
  assembly.variables.step = String(context.step);
};

// Ours: a registry with everything registered through scopes, as a host would.
const prompt = new SystemPrompt<Context>();
const plugin = prompt.scope("bench");
texts.forEach((text, i) =>
  plugin.section({
    name: `s${String(i).padStart(3, "0")}`,
    order: i,
    text: isFunction(i) ? textFns[i]! : text,
  })
);
for (const [name, provider] of variableFns) plugin.variable(name, provider);
for (const provider of toolFns) plugin.tools(provider);
plugin.on("system-prompt/assemble", dropOneTool);
plugin.on("system-prompt/assemble", addStep);

async function ours(
  context: Context,
  audit = false,
): Promise<{ prompt: string; tools: ToolSchema[] }> {
  const assembly = await prompt.assemble(context, { audit });
  return { prompt: renderPrompt(assembly), tools: assembly.tools };
}

// The floor: the same calls, no registry, texts pre-split once.
const split = corpus.sections.map(({ parts }) => parts);
async function floor(
  context: Context,
): Promise<{ prompt: string; tools: ToolSchema[] }> {
  for (let i = 0; i < textFns.length; i++) if (isFunction(i)) textFns[i]!();
  const variables: Record<string, string | undefined> = Object.create(null);
  for (let i = 0; i < variableFns.length; i++) {
    variables[variableFns[i]![0]] = variableFns[i]![1]();
  }
  const tools: ToolSchema[] = [];
  for (let i = 0; i < toolFns.length; i++) tools.push(...toolFns[i]!());
  const assembly: PromptAssembly = { sections: [], tools, variables };
  dropOneTool(assembly);
  await addStep(assembly, context);
  let text = "";
  for (let i = 0; i < split.length; i++) {
    const parts = split[i]!;
    let section = parts[0]!;
    for (let k = 1; k < parts.length; k += 2) {
      section += variables[parts[k]!]! + parts[k + 1]!;
    }
    section = section.trim();
    if (section !== "") text = text === "" ? section : text + "\n\n" + section;
  }
  return { prompt: text, tools: assembly.tools };
}

const context = { step: 1 };
const [a, b] = [await ours(context), await floor(context)];
if (
  a.prompt !== b.prompt || JSON.stringify(a.tools) !== JSON.stringify(b.tools)
) {
  throw new Error("end to end: the floor's prompt or tools differ from ours");
}
Deno.bench({
  group: "end to end",
  name: "ours",
  baseline: true,
  fn: async () => void (await ours(context)),
});
// The opt-in waterfall audit, to show what it costs.
Deno.bench({
  group: "end to end",
  name: "ours, audit on",
  fn: async () => void (await ours(context, true)),
});
Deno.bench({
  group: "end to end",
  name: "floor",
  fn: async () => void (await floor(context)),
});
