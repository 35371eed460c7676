/**
 * Realistic corpora for whole agent steps: small (8 sections, 6 variables,
 * 20 tools), medium (40 / 30 / 60) and large (500 / 500 / 100). Sections
 * look like prompt sections (headings, prose, references at the start, the
 * middle, the end, or alone, blank lines at the edges as template literals
 * leave them); a quarter are functions that build a FRESH string every call
 * (a concatenation, as real section functions do), some variables do too;
 * tools carry real-sized JSON schemas from providers of five, half of which
 * return a fresh array each step. One variable (`turn`) follows
 * `context.turn` and one section (`clock`) follows `context.clock`, so a
 * step can change nothing, one variable or one section; `context.fresh`
 * (when not 0) makes every variable return a value of other content, taken
 * from a pool of {@linkcode FRESH_POOL} variants, so that a step can also
 * change every value.
 *
 * @module
 */

import type {
  PromptAssembly,
  SystemPrompt,
  ToolSchema,
} from "@dsh/system-prompt";
import { random } from "./_random.ts";
import { FRESH_POOL, variant } from "./_pool.ts";

/** What a step passes to assemble. */
export interface Context {
  turn: number;
  clock: number;
  /** 0: every variable as usual; n > 0: the n-th variant of every value. */
  fresh: number;
}

/** One section as registered: a string, or a function of the context. */
export interface SectionDef {
  name: string;
  order: number;
  text: string | ((context: Context) => string);
}

/** A whole scenario, as both ours and the floors register it. */
export interface Scenario {
  name: "small" | "medium" | "large";
  /**
   * Whether every tool is deep frozen (the arrays holding them are not): an
   * object that can never change, which the registry may know by identity,
   * as the memoizing floors know every tool.
   */
  frozenSchemas: boolean;
  sections: SectionDef[];
  variables: [string, (context: Context) => string][];
  toolProviders: (() => ToolSchema[])[];
  /** The one assemble handler: drops a tool, as a read-only mode would. */
  handler: (assembly: PromptAssembly) => void;
  /**
   * Ours: registers everything through a scope of `prompt`, as a host
   * would, with the assemble handler unless `handler` is false. (A
   * parameter, so that this module never loads ours: the cold start bench
   * times that.)
   */
  register(
    prompt: SystemPrompt<Context>,
    handler?: boolean,
  ): SystemPrompt<Context>;
  /** Section texts and values resolved for {@linkcode BASE_CONTEXT}. */
  resolved(): { texts: string[]; values: Record<string, string> };
}

/** The context of a step where nothing changed. */
export const BASE_CONTEXT: Context = { turn: 1, clock: 0, fresh: 0 };

const WORDS = (
  "the agent reads each file before it edits and checks every exit code " +
  "keep changes small verify the result report what you saw not what you " +
  "hoped tools run in the working directory output may be truncated after " +
  "limits prefer the project's own scripts never commit secrets ask before " +
  "deleting anything outside the repository"
).split(" ");

function prose(next: () => number, chars: number): string {
  let text = "";
  let sentence = 0;
  while (text.length < chars) {
    const word = WORDS[Math.floor(next() * WORDS.length)]!;
    text += sentence === 0 ? word[0]!.toUpperCase() + word.slice(1) : word;
    sentence++;
    if (sentence > 8 && next() < 0.2) {
      text += next() < 0.3 ? ".\n" : ". ";
      sentence = 0;
    } else text += " ";
  }
  return text.trimEnd() + ".";
}

/** A fresh string with `text`'s content on every call: a concatenation. */
function fresh(text: string): () => string {
  const half = text.length >> 1;
  const head = text.slice(0, half);
  const tail = text.slice(half);
  return () => head + tail;
}

function tool(next: () => number, name: string): ToolSchema {
  const properties: Record<string, unknown> = {};
  const count = 3 + Math.floor(next() * 4);
  for (let p = 0; p < count; p++) {
    const type = ["string", "number", "boolean"][p % 3]!;
    properties[`param_${p}`] = {
      type,
      description: prose(next, 40 + Math.floor(next() * 80)),
      ...(type === "string" && p === 0
        ? { enum: ["read", "write", "list"] }
        : {}),
    };
  }
  return {
    name,
    description: prose(next, 150 + Math.floor(next() * 350)),
    parameters: {
      type: "object",
      properties,
      required: ["param_0", "param_1"],
      additionalProperties: false,
    },
  };
}

/** Freezes `value` and everything it holds. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const field of Object.values(value)) deepFreeze(field);
    Object.freeze(value);
  }
  return value;
}

function makeScenario(
  name: Scenario["name"],
  sectionCount: number,
  variableCount: number,
  toolCount: number,
  options: { frozenSchemas?: boolean } = {},
): Scenario {
  const next = random(sectionCount * 7919 + variableCount * 31 + toolCount);
  const variables: [string, (context: Context) => string][] = [
    [
      "turn",
      (context) =>
        context.fresh === 0
          ? `turn ${context.turn}`
          : `turn ${context.turn} #${context.fresh}`,
    ],
  ];
  for (let v = 1; v < variableCount; v++) {
    const value = v % 4 === 0
      ? `\n${prose(next, 200 + Math.floor(next() * 300))}\n` // a file's text
      : v % 4 === 1
      ? `/home/user/project-${v}`
      : `value-${v}-${prose(next, 8)}`;
    const usual = v % 3 === 0 ? fresh(value) : () => value;
    const variants = Array.from(
      { length: FRESH_POOL },
      (_, k) => variant(value, k + 1),
    );
    variables.push([
      `var_${v}`,
      (context) =>
        context.fresh === 0
          ? usual()
          : variants[(context.fresh - 1) % FRESH_POOL]!,
    ]);
  }
  let reference = 0;
  const ref = () => `{{${variables[reference++ % variables.length]![0]}}}`;
  const sections: SectionDef[] = [];
  for (let s = 0; s < sectionCount; s++) {
    const body = () => prose(next, 150 + Math.floor(next() * 700));
    let text: string;
    switch (s % 8) {
      case 0:
        text = `${ref()} is the assistant here. ${body()}\n`;
        break;
      case 1:
        text = `\n## Section ${s}\n\n${body()}\n`;
        break;
      case 2:
        text =
          `## Section ${s}\n${body()} Use ${ref()} and ${ref()}. ${body()}\n`;
        break;
      case 4:
        text = `${body()}\nWorking directory: ${ref()}`;
        break;
      case 6:
        text = `  ${ref()}\n`;
        break;
      case 7:
        text = `  \n${body()} ${ref()}, ${ref()}; ${body()} (${ref()})\n\n`;
        break;
      default:
        text = `\n${body()} See ${ref()}.\n`;
    }
    sections.push({
      name: `section_${String(s).padStart(3, "0")}`,
      order: s * 10,
      text: s % 4 === 3 ? fresh(text) : text,
    });
  }
  // The section that changes with the clock, referencing the turn.
  sections[1] = {
    name: "clock",
    order: 10,
    text: (context) =>
      `\nCurrent time: ${context.clock} ms since the session began; {{turn}}.\n`,
  };
  const toolProviders: (() => ToolSchema[])[] = [];
  for (let p = 0; p * 5 < toolCount; p++) {
    const tools = Array.from(
      { length: Math.min(5, toolCount - p * 5) },
      // Zero-padded: the registry's order (by name) is registration order,
      // so every floor can concatenate the providers' lists as they come.
      (_, t) => tool(next, `tool_${String(p).padStart(3, "0")}_${t}`),
    );
    if (options.frozenSchemas) tools.forEach(deepFreeze);
    toolProviders.push(p % 2 === 0 ? () => tools : () => tools.slice());
  }
  const handler = (assembly: PromptAssembly) => {
    assembly.tools = assembly.tools.filter((t) => t.name !== "tool_000_0");
  };
  return {
    name,
    frozenSchemas: options.frozenSchemas ?? false,
    sections,
    variables,
    toolProviders,
    handler,
    register(prompt, withHandler = true) {
      const plugin = prompt.scope("bench");
      for (const section of sections) plugin.section(section);
      for (const [name, provider] of variables) plugin.variable(name, provider);
      for (const provider of toolProviders) plugin.tools(provider);
      if (withHandler) plugin.on("system-prompt/assemble", handler);
      return prompt;
    },
    resolved() {
      const texts = sections.map(({ text }) =>
        typeof text === "string" ? text : text(BASE_CONTEXT)
      );
      const byName: Record<string, string> = {};
      for (const [name, provider] of variables) {
        byName[name] = provider(BASE_CONTEXT);
      }
      return { texts, values: byName };
    },
  };
}

/** small, medium and large, in that order. */
export const SCENARIOS: readonly Scenario[] = [
  makeScenario("small", 8, 6, 20),
  makeScenario("medium", 40, 30, 60),
  makeScenario("large", 500, 500, 100),
];

/**
 * The medium scenario with deep-frozen tools: the same content, but tools a
 * host froze (as a constant module of schemas would), so that comparing
 * them by identity, as the memoizing floors do, is exact.
 */
export const FROZEN_MEDIUM: Scenario = makeScenario("medium", 40, 30, 60, {
  frozenSchemas: true,
});
