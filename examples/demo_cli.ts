/**
 * The demo as a function of its arguments and I/O, so tests can run it in
 * any runtime: load a config, start its plugins, run an agent-loop step and
 * print the system prompt with a table of its sections and the tool names;
 * or explain it, check it, or compare two steps.
 *
 * @module
 */

import { comparePrompts, explainPrompt, PromptError } from "@dsh/system-prompt";
import { parseConfig } from "./config.ts";
import {
  formatComparison,
  formatDiagnostics,
  formatExplanation,
  formatSections,
} from "./demo_report.ts";
import { HostError } from "./host_error.ts";
import { startAgent } from "./start_agent.ts";

/** The demo's window on the world. */
export interface DemoIo {
  readTextFile(path: string | URL): Promise<string>;
  out(text: string): void;
  err(text: string): void;
  /** The current time, ISO 8601. */
  now(): string;
}

/** The config the demo loads without `--config`. */
export const DEFAULT_CONFIG: URL = new URL(
  "./personas/default.json",
  import.meta.url,
);
/** The config `--two-step` loads without `--config`: a persona with `{{date}}`. */
export const DATED_CONFIG: URL = new URL(
  "./personas/dated.json",
  import.meta.url,
);
/** The two step times of `--two-step`, five minutes apart. */
export const TWO_STEP_TIMES = [
  "2026-11-30T09:00:00Z",
  "2026-11-30T09:05:00Z",
] as const;

const USAGE =
  "Usage: deno task demo [--config FILE] [--json | --explain | --check | --two-step]";
type Mode = "prompt" | "json" | "explain" | "check" | "two-step";
const MODES: Record<string, Mode> = {
  "--json": "json",
  "--explain": "explain",
  "--check": "check",
  "--two-step": "two-step",
};

/**
 * Runs the demo and returns its exit code: 0 on success, 1 for a
 * `PromptError`, a config or plugin error (its message, no stack trace) or
 * an error-severity `--check` finding, 2 for bad arguments.
 */
export async function runDemo(
  args: readonly string[],
  io: DemoIo,
): Promise<number> {
  let configPath: string | URL | undefined;
  let mode: Mode = "prompt";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg in MODES && mode === "prompt") mode = MODES[arg]!;
    else if (arg === "--config" && i + 1 < args.length) configPath = args[++i]!;
    else if (arg.startsWith("--config=")) {
      configPath = arg.slice("--config=".length);
    } else if (arg === "--help" || arg === "-h") {
      io.out(USAGE);
      return 0;
    } else {
      io.err(`Unknown or repeated argument ${JSON.stringify(arg)}\n${USAGE}`);
      return 2;
    }
  }
  configPath ??= mode === "two-step" ? DATED_CONFIG : DEFAULT_CONFIG;
  try {
    return await run(mode, configPath, io);
  } catch (error) {
    if (error instanceof PromptError || error instanceof HostError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
}

async function run(
  mode: Mode,
  configPath: string | URL,
  io: DemoIo,
): Promise<number> {
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
  if (mode === "check") {
    const diagnostics = await host.prompt.check({
      agent: config.agent,
      time: io.now(),
    });
    io.out(formatDiagnostics(diagnostics));
    return diagnostics.some((d) => d.severity === "error") ? 1 : 0;
  }
  if (mode === "two-step") {
    const [first, second] = TWO_STEP_TIMES;
    const step1 = await loop.step(config.agent, first);
    const step2 = await loop.step(config.agent, second);
    io.out(`step 1 (${first}):\n\n${step1.system}\n`);
    io.out(formatComparison(comparePrompts(step1.assembly, step2.assembly)));
    return 0;
  }
  const { system, tools, assembly } = await loop.step(config.agent, io.now());
  if (mode === "json") {
    io.out(JSON.stringify(assembly, null, 2));
    return 0;
  }
  io.out(system);
  io.out("");
  if (mode === "explain") {
    io.out(formatExplanation(explainPrompt(assembly)));
    return 0;
  }
  io.out(formatSections(explainPrompt(assembly)));
  io.out("");
  io.out(`tools: ${tools.map((tool) => tool.name).join(", ")}`);
  return 0;
}
