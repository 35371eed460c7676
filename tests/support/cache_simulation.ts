/**
 * A 50-step session on each example host, sent through the adapters, with
 * each provider's documented cache rules applied to the requests: which
 * share of the tools + system tokens of steps 2..50 is read from cache.
 *
 * Only the clock, the git status and the todo list change between steps.
 * "before": those facts are system sections (`stability: "step"`), where
 * the hosts put them. "after": the same facts moved to `assembly.contexts`
 * (the runtime context; simulated here by moving the step-stable sections
 * and list items there, since the registry does not fill `contexts` yet).
 *
 * The cache rules applied (see the profiles' sources):
 * - explicit breakpoints (Anthropic, Bedrock): a request writes an entry at
 *   each breakpoint whose prefix (Anthropic) or increment since the last
 *   written one (Bedrock) reaches the minimum; it reads the longest entry
 *   found at a block boundary within `lookback` blocks before any of its
 *   breakpoints. Steps are under 5 minutes apart: no entry expires.
 * - automatic (OpenAI, Gemini): a request reads the longest prefix it
 *   shares with an earlier request, when that reaches the minimum, in steps
 *   of the profile's granularity. Gemini's implicit cache is best effort:
 *   its figure is the most it can read.
 *
 * Tokens are counted with o200k_base (gpt-tokenizer) for every provider:
 * close for OpenAI, an approximation for Claude and Gemini.
 *
 * @module
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { encode } from "gpt-tokenizer";
import type {
  AssembledSection,
  PromptAssembly,
  SystemPrompt,
  ToolSchema,
} from "@dsh/system-prompt";
import {
  type AdapterOptions,
  ANTHROPIC,
  BEDROCK,
  GEMINI,
  OPENAI,
  planCache,
  type ProviderProfile,
  toAnthropic,
  toBedrock,
  toGemini,
  toOpenAIResponses,
} from "@dsh/system-prompt/adapters";
import { parseConfig } from "../../examples/config.ts";
import { startAgent } from "../../examples/start_agent.ts";
import { newlineHost } from "../../examples/layout_newline_host.ts";
import { listsHost } from "../../examples/layout_lists_host.ts";
import { templateHost } from "../../examples/layout_template_host.ts";
import { repoRoot } from "./repo_root.ts";

/** The tools of a mid-sized coding harness (tests/fixtures/coding_tools.json). */
export const CODING_TOOLS: ToolSchema[] = JSON.parse(
  readFileSync(join(repoRoot(), "tests/fixtures/coding_tools.json"), "utf8"),
);

const AGENTS_MD = `# Shop

A TypeScript monorepo: \`packages/api\` (Hono on Node 20), \`packages/web\`
(React 19, Vite) and \`packages/shared\` (types and zod schemas both use).

## Commands
- Install with \`pnpm install\`; never use npm or yarn here.
- \`pnpm test\` runs every package's Vitest suite; \`pnpm -F api test\` one package.
- \`pnpm lint\` must pass before a commit; it runs ESLint and Prettier --check.
- \`pnpm db:migrate\` applies migrations to the local Postgres in docker compose.

## Conventions
- Every exported function has an explicit return type.
- API handlers validate input with the schemas in \`packages/shared\`; never
  trust a request body.
- Errors are \`AppError\` with a stable \`code\`; the web app maps codes to text.
- Tests sit next to the code as \`*.test.ts\`; name them by behaviour.
- No default exports. No barrel files except \`packages/shared/src/index.ts\`.
- Dates are ISO 8601 strings in UTC on the wire; format them only in the UI.

## Before you finish
- Run the tests of every package you touched, and \`pnpm lint\`.
- Update \`CHANGELOG.md\` under "Unreleased" for any user-visible change.
- Never commit \`.env\` files or anything under \`secrets/\`.
`;

/** What changes between steps: only these three facts. */
interface Facts {
  time: string;
  git: string;
  todos: string;
}

function facts(step: number): Facts {
  const minute = String(step % 60).padStart(2, "0");
  const changed = ["src/api/orders.ts", "src/api/orders.test.ts", "README.md"]
    .slice(0, 1 + Math.floor(step / 3) % 3);
  const done = Math.min(4, Math.floor(step / 5));
  const tasks = [
    "Read the order handler",
    "Add the refund route",
    "Test it",
    "Update the changelog",
    "Run lint",
  ];
  return {
    time: `2026-12-01T10:${minute}:00Z`,
    git: `On branch refunds\nChanges not staged for commit:\n${
      changed.map((f) => `\tmodified:   ${f}`).join("\n")
    }`,
    todos: tasks.map((t, i) =>
      `- [${i < done ? "x" : i === done ? "~" : " "}] ${t}`
    ).join("\n"),
  };
}

/** A host: its registry, the volatile sections added, and a step's context. */
interface Host {
  name: string;
  assemble(step: number): Promise<PromptAssembly>;
}

/** Adds git status and todos (and a clock where the host has none) as step sections. */
function addVolatile<C>(
  prompt: SystemPrompt<C>,
  current: { facts: Facts },
  clock: boolean,
): void {
  const scope = prompt.scope("session-facts");
  if (clock) {
    scope.section({
      name: "clock",
      order: 900,
      stability: "step",
      text: () => `Current time: ${current.facts.time}`,
    });
  }
  scope.section({
    name: "git-status",
    order: 950,
    stability: "step",
    literal: true,
    text: () => `git status:\n${current.facts.git}`,
  });
  scope.section({
    name: "todos",
    order: 960,
    stability: "step",
    literal: true,
    text: () => `Your task list:\n${current.facts.todos}`,
  });
}

/** The example hosts, each with the coding tools and the three volatile facts. */
export function hosts(): Host[] {
  const current = { facts: facts(1) };
  const at = (step: number) => (current.facts = facts(step));

  const config = parseConfig(
    readFileSync(join(repoRoot(), "examples/personas/default.json"), "utf8"),
    "default.json",
  );
  const plugin = startAgent(config).prompt;
  const own = new Set(["bash", "read", "todo"]);
  plugin.scope("coding-tools").tools(() =>
    CODING_TOOLS.filter((t) => !own.has(t.name))
  );
  addVolatile(plugin, current, true);

  const newline = newlineHost();
  newline.scope("coding-tools").tools(() => CODING_TOOLS);
  addVolatile(newline, current, false);

  const lists = listsHost();
  lists.scope("coding-tools").tools(() => CODING_TOOLS);
  addVolatile(lists, current, false);

  const template = templateHost();
  template.prompt.scope("coding-tools").tools(() => CODING_TOOLS);
  template.load({
    name: "git",
    instructions:
      "Commit in small steps with messages that say why.\nNever rewrite published history.\n",
  }, 1);
  template.load({
    name: "browser",
    instructions:
      "Use the browser tools to check a page after you change it.\nTake a screenshot when the layout matters.\n",
  }, 2);
  addVolatile(template.prompt, current, false);

  return [
    {
      name: "examples/host.ts (default persona)",
      assemble: (
        step,
      ) => (at(step),
        plugin.assemble({ agent: config.agent, time: current.facts.time })),
    },
    {
      name: "examples/layout_newline_host.ts",
      assemble: (step) => (at(step),
        newline.assemble({
          model: "claude-sonnet-5",
          cwd: "/home/ada/shop",
          platform: "linux",
          date: current.facts.time.slice(0, 16),
          gitRepo: true,
          instructionFiles: [{
            path: "/home/ada/shop/AGENTS.md",
            content: AGENTS_MD,
          }],
          skills: [
            { name: "pdf", description: "Fill in and read PDF forms." },
            {
              name: "xlsx",
              description: "Read and edit spreadsheets, keeping formulas.",
            },
          ],
        })),
    },
    {
      name: "examples/layout_lists_host.ts",
      assemble: (step) => (at(step),
        lists.assemble({
          selectedTools: ["read", "bash", "edit", "write"],
          date: current.facts.time.slice(0, 16),
          cwd: "/home/ada/shop",
        })),
    },
    {
      name: "examples/layout_template_host.ts",
      assemble: (
        step,
      ) => (at(step),
        template.prompt.assemble({ date: current.facts.time.slice(0, 16) })),
    },
  ];
}

/**
 * "after": every step-stable section, and every step-stable item of a
 * list, moved to the runtime context.
 */
export function withContexts(assembly: PromptAssembly): PromptAssembly {
  const sections: AssembledSection[] = [];
  const contexts: AssembledSection[] = [];
  for (const section of assembly.sections) {
    if (section.stability === "step") {
      contexts.push(section);
      continue;
    }
    const moved = section.items?.filter((item) => item.stability === "step") ??
      [];
    if (moved.length === 0) {
      sections.push(section);
      continue;
    }
    sections.push({
      ...section,
      items: section.items!.filter((item) => item.stability !== "step"),
    });
    for (const item of moved) {
      const context: AssembledSection = {
        name: `${section.name}/${item.name}`,
        order: section.order,
        text: item.text,
      };
      if (item.literal !== undefined) context.literal = item.literal;
      contexts.push(context);
    }
  }
  return { ...assembly, sections, contexts } as PromptAssembly;
}

/** One block of a request's cached prefix, in the provider's order. */
interface Block {
  text: string;
  tokens: number[];
  breakpoint: boolean;
}

/** A provider: its profile, a model, and its request as blocks. */
export interface Provider {
  name: string;
  profile: ProviderProfile;
  model: string;
  blocks(assembly: PromptAssembly): Block[];
}

const block = (text: string, breakpoint = false): Block => ({
  text,
  tokens: encode(text),
  breakpoint,
});

function ordered(
  profile: ProviderProfile,
  tools: Block[],
  system: Block[],
): Block[] {
  return profile.order.flatMap((part) =>
    part === "tools" ? tools : part === "system" ? system : []
  );
}

/** The providers, with the adapters' requests as the blocks they cache. */
export function providers(): Provider[] {
  const anthropic = { profile: ANTHROPIC, model: "claude-sonnet-5" };
  const bedrock = { profile: BEDROCK, model: "anthropic.claude-sonnet-5" };
  const openai = { profile: OPENAI, model: "gpt-5" };
  const gemini = { profile: GEMINI, model: "gemini-2.5-flash" };
  const options = (
    p: { profile: ProviderProfile; model: string },
  ): AdapterOptions => ({ model: p.model, profile: p.profile });
  return [
    {
      name: "Anthropic (claude-sonnet-5)",
      ...anthropic,
      blocks(a) {
        const { system, tools } = toAnthropic(a, options(anthropic));
        return ordered(
          ANTHROPIC,
          tools.map(({ cache_control, ...tool }) =>
            block(JSON.stringify(tool), cache_control !== undefined)
          ),
          system.map((b) => block(b.text, b.cache_control !== undefined)),
        );
      },
    },
    {
      name: "Bedrock Converse (claude-sonnet-5)",
      ...bedrock,
      blocks(a) {
        const { system, toolConfig } = toBedrock(a, options(bedrock));
        const marked = (items: object[], text: (item: object) => string) => {
          const out: Block[] = [];
          for (const item of items) {
            if ("cachePoint" in item) out.at(-1)!.breakpoint = true;
            else out.push(block(text(item)));
          }
          return out;
        };
        return ordered(
          BEDROCK,
          marked(toolConfig?.tools ?? [], (t) => JSON.stringify(t)),
          marked(system, (b) => (b as { text: string }).text),
        );
      },
    },
    {
      name: "OpenAI Responses (gpt-5)",
      ...openai,
      blocks(a) {
        const { instructions, tools } = toOpenAIResponses(a, options(openai));
        return ordered(OPENAI, tools.map((t) => block(JSON.stringify(t))), [
          block(instructions),
        ]);
      },
    },
    {
      name: "Gemini (gemini-2.5-flash)",
      ...gemini,
      blocks(a) {
        const { systemInstruction, tools } = toGemini(a, options(gemini));
        const declarations = tools.flatMap((t) => t.functionDeclarations);
        return ordered(
          GEMINI,
          declarations.map((d) => block(JSON.stringify(d))),
          systemInstruction.parts.map((p) => block(p.text)),
        );
      },
    },
  ];
}

/** A provider's prompt cache over a session, by its profile's rules. */
export class PromptCache {
  readonly #profile: ProviderProfile;
  readonly #minTokens: number;
  readonly #entries = new Set<string>();
  readonly #seen: number[][] = [];

  constructor(profile: ProviderProfile, minTokens: number) {
    this.#profile = profile;
    this.#minTokens = minTokens;
  }

  /** Sends one request; returns how many of its prefix tokens were read from cache. */
  send(blocks: Block[]): number {
    return this.#profile.breakpoints === 0
      ? this.#automatic(blocks)
      : this.#explicit(blocks);
  }

  #explicit(blocks: Block[]): number {
    const keys: string[] = [];
    const sums: number[] = [];
    let key = "";
    let sum = 0;
    for (const b of blocks) {
      key += b.text + "\u0000";
      sum += b.tokens.length;
      keys.push(key);
      sums.push(sum);
    }
    let read = 0;
    blocks.forEach((b, k) => {
      if (!b.breakpoint) return;
      for (let j = k; j >= 0 && j > k - this.#profile.lookback; j--) {
        if (this.#entries.has(keys[j]!)) {
          read = Math.max(read, sums[j]!);
          break;
        }
      }
    });
    let previous = 0;
    blocks.forEach((b, k) => {
      if (!b.breakpoint) return;
      const size = this.#profile.minimum === "increment"
        ? sums[k]! - previous
        : sums[k]!;
      if (size < this.#minTokens) return;
      this.#entries.add(keys[k]!);
      previous = sums[k]!;
    });
    return read;
  }

  #automatic(blocks: Block[]): number {
    const tokens = blocks.flatMap((b) => b.tokens);
    let shared = 0;
    for (const earlier of this.#seen) {
      let n = 0;
      while (
        n < tokens.length && n < earlier.length && tokens[n] === earlier[n]
      ) n++;
      shared = Math.max(shared, n);
    }
    this.#seen.push(tokens);
    if (shared < this.#minTokens) return 0;
    const step = this.#profile.granularity;
    return this.#minTokens +
      Math.floor((shared - this.#minTokens) / step) * step;
  }
}

/** The share of tools + system tokens read from cache on steps 2..steps. */
export interface SessionShare {
  host: string;
  provider: string;
  /** Tools + system tokens of step 1. */
  prefixTokens: number;
  before: number;
  after: number;
}

/** Runs every host through every provider for `steps` steps, before and after. */
export async function simulate(steps = 50): Promise<SessionShare[]> {
  const shares: SessionShare[] = [];
  for (const host of hosts()) {
    const assemblies: PromptAssembly[] = [];
    for (let step = 1; step <= steps; step++) {
      assemblies.push(await host.assemble(step));
    }
    for (const provider of providers()) {
      const share = (variant: (a: PromptAssembly) => PromptAssembly) => {
        const { minTokens } = planCache(assemblies[0]!, provider.profile, {
          model: provider.model,
        });
        const cache = new PromptCache(provider.profile, minTokens);
        let read = 0;
        let total = 0;
        assemblies.forEach((a, i) => {
          const blocks = provider.blocks(variant(a));
          const cached = cache.send(blocks);
          if (i === 0) return;
          read += cached;
          total += blocks.reduce((n, b) => n + b.tokens.length, 0);
        });
        return read / total;
      };
      shares.push({
        host: host.name,
        provider: provider.name,
        prefixTokens: provider.blocks(assemblies[0]!).reduce(
          (n, b) => n + b.tokens.length,
          0,
        ),
        before: share((a) => a),
        after: share(withContexts),
      });
    }
  }
  return shares;
}
