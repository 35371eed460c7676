/**
 * Why the cache missed, step by step: a 20-step session of two agents (a
 * coder and a reviewer) sent to a simulated Anthropic API
 * (examples/cache_provider.ts), each response's usage recorded in a
 * `CacheLedger`. Three things happen to the cache and each shows up as
 * what it is: the coder pauses for 6 minutes (`ttl-expired`), the MCP
 * server changes a tool's description (`prefix-changed`, the tool and its
 * owner `mcp:docs`), and the session notes are edited (`prefix-changed`,
 * the section and its owner `notes`).
 *
 * Run: `deno run examples/cache_session.ts` prints a line a step and the
 * cost per owner; `--html session.html` writes the inspector page with the
 * session (needs --allow-write).
 *
 * @module
 */

import { writeFile } from "node:fs/promises";
import process from "node:process";
import { type PromptAssembly, SystemPrompt } from "@dsh/system-prompt";
import {
  CacheLedger,
  type CacheReport,
  toAnthropic,
} from "@dsh/system-prompt/adapters";
import { estimateTokens } from "@dsh/system-prompt/inspect";
import { inspectorPage } from "@dsh/system-prompt/page";
import { AnthropicCache, type TrueCause } from "./cache_provider.ts";

/** The model the session's requests go to. */
export const MODEL = "claude-sonnet-4-5";

/** One step of the session: the agent's report and the simulator's truth. */
export interface SessionStep {
  agent: string;
  at: number;
  report: CacheReport;
  truth?: TrueCause;
  /** Tokens the simulated provider wrote. */
  written: number;
}

/** The session's registry: persona, an MCP server's tools, notes, a clock. */
export function sessionPrompt(
  state: { docsDescription: string; notes: string },
): SystemPrompt<{ agent: string; time: string }> {
  const prompt = new SystemPrompt<{ agent: string; time: string }>();
  const loop = prompt.scope("agent-loop");
  loop.section({
    name: "persona",
    order: 0,
    text:
      "You are a careful coding agent. Read before you write; run the tests. "
        .repeat(60),
  });
  loop.section({
    name: "role",
    order: 10,
    text: (c) => `Your role in this session: ${c.agent}.`,
  });
  prompt.scope("mcp:docs").tools(() => [
    {
      name: "docs_search",
      description: state.docsDescription,
      parameters: { type: "object", properties: { query: { type: "string" } } },
    },
    {
      name: "docs_read",
      description: "Reads one documentation page. ".repeat(40),
      parameters: { type: "object", properties: { path: { type: "string" } } },
    },
  ]);
  prompt.scope("notes").section({
    name: "session-notes",
    order: 500,
    stability: "session",
    text: () => state.notes,
  });
  prompt.scope("clock").section({
    name: "clock",
    order: 900,
    stability: "step",
    text: (c) => `It is ${c.time}.`,
  });
  return prompt;
}

/** Runs the session; `step` events come back in order. */
export async function runCacheSession(): Promise<{
  steps: SessionStep[];
  ledger: CacheLedger;
  last: PromptAssembly;
}> {
  const state = {
    docsDescription: "Searches the project documentation. ".repeat(40),
    notes: "Notes: the user prefers small commits. ".repeat(30),
  };
  const prompt = sessionPrompt(state);
  const provider = new AnthropicCache(estimateTokens);
  const ledger = new CacheLedger();
  const steps: SessionStep[] = [];
  let at = Date.UTC(2026, 11, 1, 9, 0, 0);
  let last: PromptAssembly | undefined;
  for (let n = 1; n <= 20; n++) {
    const agent = n % 2 === 1 ? "coder" : "reviewer";
    if (n === 7) at += 6 * 60_000; // the coder pauses: past the 5-minute TTL
    else at += 20_000;
    if (n === 11) {
      state.docsDescription = "Searches the docs, by title first. ".repeat(40);
    }
    if (n === 15) {
      state.notes = "Notes: the user prefers one commit per fix. ".repeat(30);
    }
    const time = new Date(at).toISOString().slice(11, 19);
    // The one-call-per-step path: a RenderedStep, its request from it.
    const step = await prompt.render({ agent, time }, { agent });
    const request = toAnthropic(step, { model: MODEL });
    const sent = provider.send(request, { at, model: MODEL, agent });
    const report = ledger.record(step, {
      request,
      usage: sent.usage,
      at,
      agent,
      model: MODEL,
    });
    steps.push({
      agent,
      at,
      report,
      ...(sent.truth === undefined ? {} : { truth: sent.truth }),
      written: sent.usage.cache_creation_input_tokens,
    });
    last = await prompt.assemble({ agent, time });
  }
  return { steps, ledger, last: last! };
}

/** One line for a step. */
export function stepLine({ report }: SessionStep): string {
  const share = report.read /
    Math.max(1, report.read + report.written + report.uncached);
  const cause = report.cause === undefined ? "hit" : report.cause +
    (report.change
      ? ` (${report.change.kind} ${report.change.name} of ${
        report.change.owner ?? "the root"
      })`
      : "");
  return `${String(report.step).padStart(2)} ${report.agent.padEnd(8)} read ${
    String(report.read).padStart(5)
  } ` +
    `written ${String(report.written).padStart(5)} ${
      (share * 100).toFixed(0).padStart(3)
    }% ${cause}`;
}

/** Prints the session; `--html <file>` also writes the inspector page. */
async function main(args: string[]): Promise<void> {
  const { steps, ledger, last } = await runCacheSession();
  for (const step of steps) console.log(stepLine(step));
  const { owners } = ledger.summary();
  for (const [owner, totals] of Object.entries(owners)) {
    console.log(
      `${owner}: ${totals.misses} misses, ${totals.tokens} tokens written again, $${
        totals.cost.toFixed(4)
      }`,
    );
  }
  const at = args.indexOf("--html");
  if (at >= 0) {
    await writeFile(
      args[at + 1]!,
      inspectorPage(last, {
        session: ledger.summary(),
        title: "Cache session",
      }),
    );
  }
}

if ((import.meta as { main?: boolean }).main) await main(process.argv.slice(2));
