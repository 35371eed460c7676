// `deno task demo --html FILE`: the demo writes the inspector page of its
// step, or of its two steps, through its I/O.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { runDemo } from "../examples/demo_cli.ts";
import { recordingIo } from "./examples/io.ts";

function writingIo() {
  const files = new Map<string, string>();
  return {
    ...recordingIo(),
    files,
    writeTextFile: (path: string, text: string) => {
      files.set(path, text);
      return Promise.resolve();
    },
  };
}

describe("runDemo() --html", () => {
  it("writes the step's inspector page after the usual output", async () => {
    const io = writingIo();
    assert.equal(await runDemo(["--html", "step.html"], io), 0);
    assert.match(io.stdout[0]!, /^You are Dash/);
    assert.equal(
      io.stdout.at(-1),
      "inspector page: step.html (open it in a browser)",
    );
    const html = io.files.get("step.html")!;
    assert.match(html, /^<!doctype html>/);
    assert.match(html, /<title>One step of the demo agent<\/title>/);
    assert.match(html, /data-owner="bash"/);
    assert.ok(!html.includes('id="changes"'));
  });

  it("writes step 2 marked against step 1 with --two-step", async () => {
    const io = writingIo();
    assert.equal(await runDemo(["--two-step", "--html=two.html"], io), 0);
    const html = io.files.get("two.html")!;
    assert.match(html, /Changed variables: date\./);
    assert.match(
      html,
      /data-section="agent:persona"[^>]*data-change="changed"/,
    );
    assert.match(
      html,
      /Prefix break: The change to section &quot;agent:persona&quot; of &quot;agent-loop&quot; invalidates/,
    );
  });

  it("exits 2 for --html without a file, twice, or with a mode that has no step", async () => {
    for (
      const [args, message] of [
        [["--html"], /^--html needs a file: --html FILE\n/],
        [["--html", "a", "--html", "b"], /^--html is given twice\n/],
        [
          ["--json", "--html", "a"],
          /^--html goes with a step or --two-step, not with --json\n/,
        ],
        [["--htm", "a"], /^Unknown argument "--htm"; did you mean --html\?\n/],
      ] as const
    ) {
      const io = writingIo();
      assert.equal(await runDemo(args, io), 2, args.join(" "));
      assert.match(io.stderr[0]!, message);
      assert.equal(io.files.size, 0);
    }
  });

  it("exits 1 with a message when the file cannot be written", async () => {
    const io = {
      ...recordingIo(),
      writeTextFile: () => Promise.reject(new Error("permission denied")),
    };
    assert.equal(await runDemo(["--html", "/nope/x.html"], io), 1);
    assert.deepEqual(io.stderr, [
      "Cannot write /nope/x.html: permission denied",
    ]);
    const without = recordingIo();
    assert.equal(await runDemo(["--html", "x.html"], without), 1);
    assert.deepEqual(without.stderr, [
      "Cannot write x.html: this demo has no file output",
    ]);
  });
});
