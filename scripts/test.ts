/**
 * `deno task test` (and `deno task check`): runs the gate's stages one after
 * the other with the running Deno, prints one line a stage and, for a
 * failing stage, the part of its output that says what failed (the whole
 * output is kept under `.tmp/test-logs/`), and closes with one line
 * `N passed, M failed`: the tests each stage counted (a stage that counts
 * none, such as fmt, is one), summed.
 *
 * `deno run … scripts/test.ts fmt lint` runs only the stages named.
 * The browser stage is skipped with its reason when /usr/bin/chromium is
 * absent, unless `CI` is set: there it is required.
 *
 * @module
 */

import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { CHROMIUM_PATH } from "./chromium.ts";
import { ROOT } from "./node_toolchain.ts";
import {
  consumerCounts,
  type Counts,
  denoTestCounts,
  failureExcerpt,
  nodeTestCounts,
} from "./test_summary.ts";

/** One stage: a Deno command and how to read its output. */
interface Stage {
  /** What `scripts/test.ts <id>` selects it by. */
  id: string;
  /** What its line says. */
  title: string;
  /** The arguments of the Deno command. */
  args: string[];
  /** The tests it counted; a stage without counts is one check. */
  counts?: (output: string) => Counts | undefined;
  /** A reason to skip it, or `undefined` to run it. */
  skip?: () => string | undefined;
}

const RUN = ["--allow-read", "--allow-write", "--allow-run", "--allow-env"];

/** The stages of `deno task test`, in order. */
const STAGES: Stage[] = [
  { id: "fmt", title: "deno fmt --check", args: ["fmt", "--check"] },
  { id: "lint", title: "deno lint", args: ["lint"] },
  {
    id: "types",
    title: "deno check",
    args: ["check", "--lock=deno.lock", "."],
  },
  {
    id: "doc-lint",
    title: "deno doc --lint",
    args: [
      "doc",
      "--lint",
      "mod.ts",
      "inspect.ts",
      "adapters.ts",
      "page.ts",
      "mcp.ts",
    ],
  },
  {
    id: "tests",
    title: "tests and doc examples in Deno",
    args: [
      "test",
      "--lock=deno.lock",
      "--allow-read",
      "--allow-sys=hostname",
      // @ai-sdk/anthropic reads its environment when it is imported.
      "--allow-env",
      "--doc",
      "tests/",
      "mod.ts",
      "inspect.ts",
      "adapters.ts",
      "page.ts",
      "mcp.ts",
      "src/",
      "README.md",
      "docs/",
      "scripts/doc_blocks.ts",
      "scripts/readme_links.ts",
      "scripts/release.ts",
      "scripts/test_summary.ts",
    ],
    counts: denoTestCounts,
  },
  {
    id: "io",
    // Named `*_io.ts` so that `deno test tests/` does not pick them up.
    title: "tests that start processes and write files",
    args: [
      "test",
      "--lock=deno.lock",
      "--allow-read",
      "--allow-sys=hostname",
      ...RUN.slice(1),
      "tests/async_late_rejections_io.ts",
      "tests/examples/agents_md_io.ts",
      "tests/examples/git_status_io.ts",
      "tests/mcp_tools_io.ts",
      // The heap over 100,000 steps, measured with the collector exposed.
      "--v8-flags=--expose-gc",
      "tests/render_memory_test.ts",
    ],
    counts: denoTestCounts,
  },
  {
    id: "node",
    title: "the suite compiled, on Node.js",
    args: ["run", ...RUN, "scripts/test_node.ts"],
    counts: nodeTestCounts,
  },
  {
    id: "consumer",
    title: "npm consumer (docs/install.md)",
    args: ["run", ...RUN, "scripts/test_consumer.ts"],
    counts: consumerCounts,
  },
  {
    id: "docs",
    title: "README and docs/ commands on a clean checkout",
    args: [
      "test",
      "--lock=deno.lock",
      "--allow-all",
      "scripts/docs_commands_test.ts",
      "scripts/docs_generated_test.ts",
    ],
    counts: denoTestCounts,
  },
  {
    id: "demo",
    title: "the demo on a fresh machine",
    args: ["test", ...RUN, "scripts/demo_cache_test.ts"],
    counts: denoTestCounts,
  },
  {
    id: "browser",
    title: "the inspector page in headless Chromium",
    args: [
      "test",
      "--lock=deno.lock",
      "--allow-all",
      "scripts/page_browser_test.ts",
    ],
    counts: denoTestCounts,
    skip: () =>
      existsSync(CHROMIUM_PATH) || process.env.CI
        ? undefined
        : `no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium); required in CI`,
  },
  {
    id: "publish",
    title: "deno publish --dry-run",
    args: ["publish", "--dry-run", "--allow-dirty"],
  },
];

/**
 * How many stages run at once by default (`TEST_JOBS` overrides): the
 * stages wait mostly on separate processes (tsc, npm, Chromium), so two
 * overlap well even on two cores.
 */
const JOBS = Math.min(3, navigator.hardwareConcurrency);

/** At most `size` tasks at once, started in the order they were given. */
class Slots {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    this.#free = size;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#free === 0) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else this.#free--;
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next === undefined) this.#free++;
      else next();
    }
  }
}

/** `12.3 s`, or `850 ms`. */
function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

async function runStage(stage: Stage): Promise<Counts & { line: string }> {
  const started = performance.now();
  const output = await new Deno.Command(Deno.execPath(), {
    args: stage.args,
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  const stderr = new TextDecoder().decode(output.stderr);
  const text = stdout + stderr;
  const took = duration(performance.now() - started);
  const counted = stage.counts?.(text);
  const counts: Counts = counted ??
    { passed: output.success ? 1 : 0, failed: 0 };
  // A failing command counts as a failure even when it counted none.
  if (!output.success && counts.failed === 0) counts.failed = 1;
  const numbers = counted === undefined
    ? ""
    : `: ${counts.passed} passed, ${counts.failed} failed` +
      (counts.skipped === undefined ? "" : `, ${counts.skipped} skipped`);
  if (output.success && counts.failed === 0) {
    return { ...counts, line: `ok    ${stage.title}${numbers} (${took})` };
  }
  const logs = join(ROOT, ".tmp", "test-logs");
  await mkdir(logs, { recursive: true });
  const log = join(logs, `${stage.id}.log`);
  await writeFile(log, text);
  // Deno's progress lines on stderr say nothing about the failure.
  const excerpt = failureExcerpt(
    stdout + stderr.replace(/^(Check|Download|Task) .*\n/gm, ""),
  ).split("\n").map((line) => `      ${line}`).join("\n");
  return {
    ...counts,
    line:
      `FAIL  ${stage.title}${numbers} (${took}, exit code ${output.code})\n` +
      `${excerpt}\n      full output: ${log.slice(ROOT.length + 1)}`,
  };
}

if (import.meta.main) {
  const wanted = Deno.args;
  const unknown = wanted.filter((id) =>
    !STAGES.some((stage) => stage.id === id)
  );
  if (unknown.length > 0) {
    console.error(
      `Unknown stage ${unknown.join(", ")}; the stages are ${
        STAGES.map((stage) => stage.id).join(", ")
      }`,
    );
    Deno.exit(2);
  }
  const stages = wanted.length === 0
    ? STAGES
    : STAGES.filter((stage) => wanted.includes(stage.id));
  const started = performance.now();
  const total: Counts = { passed: 0, failed: 0 };
  let ok = 0, skipped = 0, failed = 0;
  // Up to `jobs` stages run at once, started in order; lines print in order.
  const jobs = Math.max(1, Number(Deno.env.get("TEST_JOBS") ?? JOBS));
  const slots = new Slots(jobs);
  const results = stages.map((stage) => {
    const reason = stage.skip?.();
    return reason === undefined
      ? slots.run(() => runStage(stage))
      : Promise.resolve({ reason, stage });
  });
  for (const pending of results) {
    const result = await pending;
    if ("reason" in result) {
      console.log(`skip  ${result.stage.title}: ${result.reason}`);
      skipped++;
      continue;
    }
    console.log(result.line);
    total.passed += result.passed;
    total.failed += result.failed;
    if (result.line.startsWith("ok")) ok++;
    else failed++;
  }
  console.log(
    `${stages.length} stages in ${duration(performance.now() - started)} ` +
      `(${jobs} at a time): ${ok} ok, ${failed} failed, ${skipped} skipped`,
  );
  console.log(`${total.passed} passed, ${total.failed} failed`);
  if (failed > 0 || total.failed > 0) Deno.exit(1);
}
