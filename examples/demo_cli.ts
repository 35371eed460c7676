/**
 * The demo as a function of its arguments and I/O, so tests can run it in
 * any runtime: load a config, start its plugins, run one agent-loop step and
 * print the system prompt, a table of its sections and the tool names.
 *
 * @module
 */

import { PromptError, renderPrompt } from "../mod.ts";
import { parseConfig } from "./config.ts";
import { HostError } from "./host_error.ts";
import { startAgent } from "./start_agent.ts";

/** The demo's window on the world. */
export interface DemoIo {
  readTextFile(path: string | URL): Promise<string>;
  out(text: string): void;
  err(text: string): void;
}

/** The config the demo loads without `--config`. */
export const DEFAULT_CONFIG: URL = new URL(
  "./personas/default.json",
  import.meta.url,
);

const USAGE = "Usage: deno task demo [--config FILE] [--json]";

/**
 * Runs the demo and returns its exit code: 0 on success, 1 for a
 * `PromptError` or a config or plugin error (its message, no stack trace),
 * 2 for bad arguments.
 */
export async function runDemo(
  args: readonly string[],
  io: DemoIo,
): Promise<number> {
  let configPath: string | URL = DEFAULT_CONFIG;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--json") json = true;
    else if (arg === "--config" && i + 1 < args.length) configPath = args[++i]!;
    else if (arg?.startsWith("--config=")) {
      configPath = arg.slice("--config=".length);
    } else if (arg === "--help" || arg === "-h") {
      io.out(USAGE);
      return 0;
    } else {
      io.err(`Unknown argument ${JSON.stringify(arg)}\n${USAGE}`);
      return 2;
    }
  }
  try {
    const source = String(configPath);
    let text: string;
    try {
      text = await io.readTextFile(configPath);
    } catch (cause) {
      throw new HostError(
        `Cannot read config ${source}: ${(cause as Error).message}`,
        { cause },
      );
    }
    const config = parseConfig(text, source);
    const host = startAgent(config);
    const loop = host.service("agent-loop");
    if (loop === undefined) {
      throw new HostError(
        'Cannot run a step: the config does not load "agent-loop"',
      );
    }
    const { system, tools, assembly } = await loop.step(config.agent);
    if (json) {
      io.out(JSON.stringify(assembly, null, 2));
      return 0;
    }
    io.out(system);
    io.out("");
    io.out(sectionTable(assembly));
    io.out("");
    io.out(`tools: ${tools.map((tool) => tool.name).join(", ")}`);
    return 0;
  } catch (error) {
    if (error instanceof PromptError || error instanceof HostError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
}

/** Name, order, owner and rendered characters of each section. */
function sectionTable(assembly: Parameters<typeof renderPrompt>[0]): string {
  const rows = [["section", "order", "owner", "chars"]];
  for (const section of assembly.sections) {
    const chars = renderPrompt({ ...assembly, sections: [section] }).length;
    rows.push([
      section.name,
      String(section.order),
      section.owner ?? "-",
      String(chars),
    ]);
  }
  const widths = rows[0]!.map((_, column) =>
    Math.max(...rows.map((row) => row[column]!.length))
  );
  return rows.map((row) =>
    row.map((cell, column) =>
      column === 1 || column === 3
        ? cell.padStart(widths[column]!)
        : cell.padEnd(widths[column]!)
    ).join("  ").trimEnd()
  ).join("\n");
}
