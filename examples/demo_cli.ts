/**
 * The demo as a function of its arguments and I/O, so tests can run it in
 * any runtime: load a config, start its plugins, run an agent-loop step and
 * print the system prompt with a table of its sections and the tool names;
 * or explain it, check it, or compare two steps; and write the inspector
 * page of the step (or of the two steps).
 *
 * @module
 */

import { type PromptAssembly, PromptError } from "@dsh/system-prompt";
import {
  checkPrompt,
  comparePrompts,
  explainPrompt,
} from "@dsh/system-prompt/inspect";
import { closestKey } from "./closest_key.ts";
import { parseConfig } from "./config.ts";
import {
  formatComparison,
  formatDiagnostics,
  formatExplanation,
  formatSections,
} from "./demo_report.ts";
import { inspectorPage } from "@dsh/system-prompt/page";
import { HostError } from "./host_error.ts";
import { startAgent } from "./start_agent.ts";

/** The demo's window on the world. */
export interface DemoIo {
  readTextFile(path: string | URL): Promise<string>;
  out(text: string): void;
  err(text: string): void;
  /** Writes a file; `--html` needs it. */
  writeTextFile?(path: string, text: string): Promise<void>;
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
  `Usage: deno task demo [--config FILE] [--json | --explain | --check | --two-step] [--html FILE]

  --config FILE  the agent config (default: examples/personas/default.json)
  --json         print the assembly as JSON
  --explain      who owns which span of the prompt, sizes, estimated tokens
  --check        the prompt's diagnostics
  --two-step     two steps five minutes apart and what changed between them
  --html FILE    also write the inspector page of the step (with --two-step:
                 of step 2, marked against step 1) to FILE

Exit codes: 0 success; 1 a prompt, config or plugin error, or an error that
--check found; 2 bad arguments.`;
type Mode = "prompt" | "json" | "explain" | "check" | "two-step";
const MODES: Record<string, Mode> = {
  "--json": "json",
  "--explain": "explain",
  "--check": "check",
  "--two-step": "two-step",
};
const FLAGS = [...Object.keys(MODES), "--config", "--html", "--help"];

/** Exit codes of {@linkcode runDemo}. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

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
  let htmlPath: string | undefined;
  let mode: Mode = "prompt";
  let modeFlag: string | undefined;
  const usage = (problem: string) => {
    io.err(`${problem}\n\n${USAGE}`);
    return EXIT.usage;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg in MODES) {
      if (modeFlag !== undefined) {
        return usage(
          modeFlag === arg
            ? `${arg} is given twice`
            : `${modeFlag} and ${arg} cannot be combined: pick one of ${
              Object.keys(MODES).join(", ")
            }`,
        );
      }
      [mode, modeFlag] = [MODES[arg]!, arg];
    } else if (arg === "--config" || arg.startsWith("--config=")) {
      if (configPath !== undefined) return usage("--config is given twice");
      const value = arg === "--config" ? args[++i] : arg.slice(9);
      if (!value) return usage("--config needs a file: --config FILE");
      configPath = value;
    } else if (arg === "--html" || arg.startsWith("--html=")) {
      if (htmlPath !== undefined) return usage("--html is given twice");
      const value = arg === "--html" ? args[++i] : arg.slice(7);
      if (!value) return usage("--html needs a file: --html FILE");
      htmlPath = value;
    } else if (arg === "--help" || arg === "-h") {
      io.out(USAGE);
      return EXIT.ok;
    } else {
      const suggestion = closestKey(arg, FLAGS);
      return usage(
        `Unknown argument ${JSON.stringify(arg)}` +
          (suggestion === undefined ? "" : `; did you mean ${suggestion}?`),
      );
    }
  }
  if (htmlPath !== undefined && mode !== "prompt" && mode !== "two-step") {
    return usage(
      `--html goes with a step or --two-step, not with ${modeFlag}`,
    );
  }
  configPath ??= mode === "two-step" ? DATED_CONFIG : DEFAULT_CONFIG;
  try {
    return await run(mode, configPath, io, htmlPath);
  } catch (error) {
    if (error instanceof PromptError || error instanceof HostError) {
      io.err(error.message);
      return EXIT.failed;
    }
    throw error;
  }
}

async function run(
  mode: Mode,
  configPath: string | URL,
  io: DemoIo,
  htmlPath: string | undefined,
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
    const diagnostics = await checkPrompt(host.prompt, {
      agent: config.agent,
      time: io.now(),
    });
    io.out(formatDiagnostics(diagnostics));
    return diagnostics.some((d) => d.severity === "error")
      ? EXIT.failed
      : EXIT.ok;
  }
  if (mode === "two-step") {
    const [first, second] = TWO_STEP_TIMES;
    const step1 = await loop.step(config.agent, first);
    const step2 = await loop.step(config.agent, second);
    io.out(`step 1 (${first}):\n\n${step1.system}\n`);
    io.out(formatComparison(comparePrompts(step1.assembly, step2.assembly)));
    if (htmlPath !== undefined) {
      await writePage(io, htmlPath, "Two steps of the demo agent: step 2", {
        assembly: step2.assembly,
        previous: step1.assembly,
      });
    }
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
  if (htmlPath !== undefined) {
    await writePage(io, htmlPath, "One step of the demo agent", { assembly });
  }
  return 0;
}

/** Writes the inspector page of a step (marked against the previous one). */
async function writePage(
  io: DemoIo,
  path: string,
  title: string,
  steps: { assembly: PromptAssembly; previous?: PromptAssembly },
): Promise<void> {
  const html = inspectorPage(
    steps.assembly,
    steps.previous === undefined
      ? { title }
      : { title, previous: steps.previous },
  );
  if (io.writeTextFile === undefined) {
    throw new HostError(`Cannot write ${path}: this demo has no file output`);
  }
  try {
    await io.writeTextFile(path, html);
  } catch (cause) {
    throw new HostError(
      `Cannot write ${path}: ${(cause as Error).message}`,
      { cause },
    );
  }
  io.out(`inspector page: ${path} (open it in a browser)`);
}
