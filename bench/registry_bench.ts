/**
 * Reliability costs: what isolating tool schemas from handlers
 * costs per step, and registering / disposing many handlers.
 *
 * Schema isolation options, each on 100 tools of a realistic schema (a
 * dozen properties, nested objects and arrays), per step:
 * - `shallow copy`: the tool copy alone (the baseline, what shipped before);
 * - `freeze once`: deep-freeze each distinct `parameters` the first time it
 *   is seen, then one WeakSet lookup per tool per step;
 * - `freeze fresh`: the same when the provider builds new schemas every step;
 * - `structuredClone`: a deep copy of every `parameters` every step.
 *
 * @module
 */

import { addBench } from "./_bench.ts";
import {
  renderPrompt,
  SystemPrompt,
  type ToolSchema,
} from "@dsh/system-prompt";
import { checkPrompt } from "@dsh/system-prompt/inspect";

function schema(i: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let p = 0; p < 12; p++) {
    properties[`field_${p}`] = p % 3 === 0
      ? { type: "array", items: { type: "string", enum: ["a", "b", "c"] } }
      : { type: "string", description: `Field ${p} of tool ${i}.` };
  }
  return {
    type: "object",
    properties,
    required: ["field_0", "field_1"],
    additionalProperties: false,
  };
}

const TOOLS = 100;
const stable: ToolSchema[] = Array.from({ length: TOOLS }, (_, i) => ({
  name: `tool_${i}`,
  description: `Tool ${i}.`,
  parameters: schema(i),
}));
const fresh = () =>
  Array.from({ length: TOOLS }, (_, i) => ({
    name: `tool_${i}`,
    description: `Tool ${i}.`,
    parameters: schema(i),
  }));

const frozen = new WeakSet<object>();
function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null || frozen.has(value)) return;
  frozen.add(value);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
    if (descriptor !== undefined && "value" in descriptor) {
      deepFreeze(descriptor.value);
    }
  }
  Object.freeze(value);
}

function copyAll(tools: readonly ToolSchema[]): ToolSchema[] {
  return tools.map((t) => ({ ...t }));
}

let sink = 0;

addBench({
  group: "schemas",
  name: "shallow copy (stable schemas)",
  baseline: true,
  fn: () => void (sink += copyAll(stable).length),
});
addBench({
  group: "schemas",
  name: "freeze once (stable schemas)",
  fn: () => {
    for (const tool of stable) deepFreeze(tool.parameters);
    sink += copyAll(stable).length;
  },
});
addBench({
  group: "schemas",
  name: "shallow copy (fresh schemas)",
  fn: () => void (sink += copyAll(fresh()).length),
});
addBench({
  group: "schemas",
  name: "freeze fresh (fresh schemas)",
  fn: () => {
    const tools = fresh();
    for (const tool of tools) deepFreeze(tool.parameters);
    sink += copyAll(tools).length;
  },
});
addBench({
  group: "schemas",
  name: "structuredClone (stable schemas)",
  fn: () => {
    sink +=
      stable.map((t) => ({ ...t, parameters: structuredClone(t.parameters) }))
        .length;
  },
});

// The registry's own step with 100 stable tools, for scale.
const prompt = new SystemPrompt();
prompt.tools(() => stable);
addBench({
  group: "step",
  name: "assemble() with 100 stable tools",
  fn: async () => void (sink += (await prompt.assemble()).tools.length),
});

for (const n of [2_000, 20_000]) {
  addBench({
    group: "handlers",
    name: `register and dispose ${n} handlers`,
    fn: () => {
      const registry = new SystemPrompt();
      const offs = Array.from(
        { length: n },
        () => registry.on("system-prompt/assemble", () => {}),
      );
      for (const off of offs) off();
    },
  });
}

// "Did you mean": one unknown-variable error among 10,000 names of 300
// characters; check() with 100 unknown references against 1,000 variables.
const longNames: Record<string, string> = Object.create(null);
for (let i = 0; i < 10_000; i++) {
  longNames[`${"n".repeat(295)}${String(i).padStart(5, "0")}`] = "v";
}
const unknownLong = {
  sections: [{ name: "s", order: 0, text: `{{${"m".repeat(300)}}}` }],
  tools: [],
  variables: longNames,
};
addBench({
  group: "suggestions",
  name: "unknown-variable among 10,000 names of 300 chars",
  fn: () => {
    try {
      renderPrompt(unknownLong);
    } catch {
      sink++;
    }
  },
});
const checked = new SystemPrompt();
for (let i = 0; i < 1_000; i++) {
  checked.variable(`variable_${i}`, () => "v");
}
checked.section({
  name: "s",
  order: 0,
  text: Array.from({ length: 100 }, (_, i) => `{{missing_${i}}}`).join(" "),
});
addBench({
  group: "suggestions",
  name: "check() with 100 unknown references, 1,000 variables",
  fn: async () => void (sink += (await checkPrompt(checked)).length),
});

globalThis.addEventListener("unload", () => {
  if (sink === -1) console.log(sink);
});
