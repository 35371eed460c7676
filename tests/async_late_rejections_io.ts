// docs/design.md ("Async providers and cancellation"): nothing the library
// receives may become an unhandled rejection — late rejections after an abort,
// promises inside a provider's array, promises a failing step never reached. A
// child process (tests/support/late_rejections_child.ts, under the runtime
// running this test) runs each scenario and records every unhandled rejection;
// a crash or an unfinished run fails here. Needs --allow-run (to start the
// runtime).
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

interface ChildReport {
  done: true;
  results: Record<string, { code: string; unhandled: string[] }>;
  stray: string[];
}

/** The child script beside this file: `.ts` under Deno, compiled `.js` under Node. */
const script = fileURLToPath(
  new URL(
    `./support/late_rejections_child${
      import.meta.url.endsWith(".ts") ? ".ts" : ".js"
    }`,
    import.meta.url,
  ),
);

interface Output {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What this test needs of `Deno` (absent under Node). */
interface DenoRuntime {
  execPath(): string;
  Command: new (command: string, options: {
    args: string[];
    stdin: "null";
    stdout: "piped";
    stderr: "piped";
  }) => {
    output(): Promise<{ code: number; stdout: Uint8Array; stderr: Uint8Array }>;
  };
}

/**
 * Runs the child under the runtime running this test: `Deno.Command` under
 * Deno (only --allow-run), `node:child_process` under Node.
 */
async function runChild(): Promise<Output> {
  const deno = (globalThis as { Deno?: DenoRuntime }).Deno;
  if (deno !== undefined) {
    const output = await new deno.Command(deno.execPath(), {
      args: ["run", "--quiet", "--no-config", script],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder();
    return {
      code: output.code,
      stdout: text.decode(output.stdout),
      stderr: text.decode(output.stderr),
    };
  }
  const { spawn } = await import("node:child_process");
  const process = (await import("node:process")).default;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const EXPECTED: Record<string, string> = {
  "a provider that rejects after the abort": "aborted",
  "providers of every kind that reject after the abort": "aborted",
  "a provider that rejects while an async handler runs when the signal aborts":
    "aborted",
  "an array of rejecting promises that arrives after the abort": "aborted",
  "an array of rejecting promises that arrives after the abort while another provider pends":
    "aborted",
  "an async tool provider's ['a'].map(async …) while another provider pends":
    "invalid-value",
  "an async item provider's ['a'].map(async …) while another provider pends":
    "invalid-value",
  "a tool provider's ['a'].map(async …) while another provider pends":
    "invalid-value",
  "an item provider's ['a'].map(async …) while another provider pends":
    "invalid-value",
  "a handler that leaves promises in tools, sections and variables":
    "invalid-section",
  "a handler that leaves a promise as a variable value": "invalid-value",
  "a tool provider that returns ['a'].map(async …)": "invalid-value",
  "an item provider that returns ['a'].map(async …)": "invalid-value",
  "an async item provider that resolves to ['a'].map(async …)": "invalid-value",
  "a tool provider whose first tool is invalid and whose second is a rejecting promise":
    "invalid-value",
  "an item provider whose first item is invalid and whose second is a rejecting promise":
    "invalid-value",
  "an item provider returning promises after a section that returned the wrong type":
    "invalid-value",
  "a tool provider returning promises before a provider that throws":
    "provider-failed",
  "a variable provider that returns an array of rejecting promises":
    "invalid-value",
  "a provider that rejects before another provider's wrong value":
    "provider-failed",
  "a provider that rejects before a provider that throws": "provider-failed",
  "a provider that never settles, then an already-aborted step": "aborted",
};

describe("unhandled rejections (in a child process)", () => {
  let report: ChildReport;

  before(async () => {
    const { code, stdout, stderr } = await runChild();
    assert.equal(code, 0, `the child exited with ${code}:\n${stderr}`);
    const last = stdout.trim().split("\n").at(-1) ?? "";
    report = JSON.parse(last) as ChildReport;
    assert.equal(report.done, true);
  });

  it("runs every scenario under assemble() and render() to the end", () => {
    assert.deepEqual(
      Object.keys(report.results).sort(),
      Object.keys(EXPECTED).flatMap((label) => [
        `assemble: ${label}`,
        `render: ${label}`,
      ]).sort(),
    );
    assert.deepEqual(report.stray, []);
  });

  for (const [label, code] of Object.entries(EXPECTED)) {
    for (const run of ["assemble", "render"] as const) {
      it(`${run}() rejects with ${code} and leaves no unhandled rejection: ${label}`, () => {
        const result = report.results[`${run}: ${label}`];
        assert.ok(result !== undefined, "the scenario did not run");
        assert.equal(result.code, code);
        assert.deepEqual(result.unhandled, []);
      });
    }
  }
});
