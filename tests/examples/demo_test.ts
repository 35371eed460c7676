// The demo CLI (examples/demo_cli.ts): what it prints and its exit codes for
// each flag (--config, --json, --explain, --check, --help) and for bad
// input.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { runDemo } from "../../examples/demo_cli.ts";
import { fixture, persona, recordingIo } from "./io.ts";

describe("runDemo()", () => {
  it("prints the prompt, a section table and the tool names, and exits 0", async () => {
    const io = recordingIo();
    assert.equal(await runDemo([], io), 0);
    const out = io.stdout.join("\n");
    assert.match(
      out,
      /^You are Dash, a software engineering agent running on claude-sonnet-4-5\./,
    );
    assert.match(
      out,
      /\nsection +order +owner +chars\nagent:persona +0 +agent-loop +\d+\n/,
    );
    assert.match(out, /\ntool:bash +105 +bash +153\n/);
    assert.match(out, /\ntools: bash, read, subagent, todo$/);
    assert.deepEqual(io.stderr, []);
  });

  it("picks another persona with --config", async () => {
    const io = recordingIo();
    assert.equal(await runDemo(["--config", persona("acp.json")], io), 0);
    assert.match(io.stdout[0]!, /rooted at \/workspace\/service\./);
  });

  it("prints the assembly as JSON with --json", async () => {
    const io = recordingIo();
    assert.equal(
      await runDemo(["--json", `--config=${persona("fork.json")}`], io),
      0,
    );
    const assembly = JSON.parse(io.stdout.join("\n"));
    assert.equal(assembly.sections[0].name, "agent:persona");
    assert.equal(assembly.variables.model, "claude-sonnet-4-5");
    assert.deepEqual(assembly.tools.map((t: { name: string }) => t.name), [
      "read",
      "subagent",
      "todo",
    ]);
  });

  it("prints a PromptError's did-you-mean message without a stack and exits 1", async () => {
    const io = recordingIo();
    assert.equal(
      await runDemo(["--config", fixture("typo_persona.json")], io),
      1,
    );
    assert.deepEqual(io.stdout, []);
    assert.deepEqual(io.stderr, [
      'Cannot render section "agent:persona" of "agent-loop": {{modle}} at 1:29 names variable "modle", ' +
      'which is not registered; did you mean "model"?',
    ]);
  });

  it("exits 1 with a message for a missing config file", async () => {
    const io = recordingIo();
    assert.equal(await runDemo(["--config", fixture("nope.json")], io), 1);
    assert.match(io.stderr[0]!, /^Cannot read config .*nope\.json: /);
    assert.doesNotMatch(io.stderr[0]!, /\n\s+at /);
  });

  it("exits 2 with the usage for an unknown argument, suggesting a flag", async () => {
    const io = recordingIo();
    assert.equal(await runDemo(["--verbose"], io), 2);
    assert.match(io.stderr[0]!, /^Unknown argument "--verbose"\n\nUsage: /);
    const typo = recordingIo();
    assert.equal(await runDemo(["--explian"], typo), 2);
    assert.match(
      typo.stderr[0]!,
      /^Unknown argument "--explian"; did you mean --explain\?\n/,
    );
  });

  it("documents its exit codes in --help", async () => {
    const io = recordingIo();
    assert.equal(await runDemo(["--help"], io), 0);
    assert.match(
      io.stdout[0]!,
      /Exit codes: 0 success; 1 .*; 2 bad arguments\./s,
    );
  });

  it("explains who owns each span with --explain", async () => {
    const io = recordingIo();
    assert.equal(await runDemo(["--explain"], io), 0);
    const out = io.stdout.join("\n");
    assert.match(
      out,
      /\nagent:persona +agent-loop +0 +\[0, 369\) +369 +82 +model, cwd\n/,
    );
    assert.match(out, /\ntool:bash +bash +105 +\[371, 524\) +153/);
    // The JSON of name, description and parameters, as the cache plan counts.
    assert.match(out, /\nsubagent +subagent +344 +153 +119\n/);
    assert.match(
      out,
      /\ntotal: 667 characters, ~151 tokens in 3 sections; 4 tools/,
    );
  });

  it("reports diagnostics with --check and exits 1 only on an error", async () => {
    const clean = recordingIo();
    assert.equal(
      await runDemo(["--check", "--config", persona("acp.json")], clean),
      0,
    );
    assert.deepEqual(clean.stdout, ["check: no findings"]);

    for (
      const name of ["default.json", "acp.json", "fork.json", "dated.json"]
    ) {
      const own = recordingIo();
      assert.equal(
        await runDemo(["--check", "--config", persona(name)], own),
        0,
      );
      assert.deepEqual(own.stdout, ["check: no findings"], name);
    }

    const failing = recordingIo();
    assert.equal(
      await runDemo(
        ["--check", "--config", fixture("typo_persona.json")],
        failing,
      ),
      1,
    );
    assert.match(
      failing.stdout[0]!,
      /^error unknown-variable \[agent-loop\]: .*did you mean "model"\?/,
    );
  });

  it("shows with --two-step how a {{date}} in the persona breaks the cache prefix", async () => {
    const io = recordingIo();
    assert.equal(await runDemo(["--two-step"], io), 0);
    const out = io.stdout.join("\n");
    assert.match(out, /The current time is 2026-11-30 09:00 UTC\./);
    assert.match(
      out,
      /step 2 prompt: differs from step 1 at character 108, first in section "agent:persona" of "agent-loop"/,
    );
    assert.match(out, /\nchanged variables: date\n/);
    assert.match(
      out,
      /cache: The change to section "agent:persona" of "agent-loop" invalidates the provider's prefix cache for the 2 sections \(298 characters\) after it/,
    );
  });

  it("reports an unchanged prompt with --two-step on a persona without a clock", async () => {
    const io = recordingIo();
    assert.equal(
      await runDemo(["--two-step", "--config", persona("default.json")], io),
      0,
    );
    assert.equal(
      io.stdout.at(-1),
      "step 2 prompt: identical to step 1 (the provider's prompt cache hits in full)",
    );
  });

  it("exits 2 naming the conflict when two modes or two configs are given", async () => {
    const io = recordingIo();
    assert.equal(await runDemo(["--json", "--explain"], io), 2);
    assert.match(
      io.stderr[0]!,
      /^--json and --explain cannot be combined: pick one of --json, --explain, --check, --two-step\n/,
    );
    const twice = recordingIo();
    assert.equal(await runDemo(["--check", "--check"], twice), 2);
    assert.match(twice.stderr[0]!, /^--check is given twice\n/);
    const configs = recordingIo();
    assert.equal(
      await runDemo(["--config", "a.json", "--config=b.json"], configs),
      2,
    );
    assert.match(configs.stderr[0]!, /^--config is given twice\n/);
    const missing = recordingIo();
    assert.equal(await runDemo(["--config"], missing), 2);
    assert.match(missing.stderr[0]!, /^--config needs a file/);
  });

  it("says where a config file is wrong: JSON line and column, field path, unknown key", async () => {
    const cases: [string, RegExp][] = [
      [
        "bad_json.txt",
        /^Invalid JSON in config .*bad_json\.txt at line 5, column 3: Expected ',' or '}' after property value$/,
      ],
      [
        "wrong_type.json",
        /^Invalid config .*wrong_type\.json: "agent\.cwd" must be a string, not a number$/,
      ],
      [
        "unknown_key.json",
        /^Invalid config .*unknown_key\.json: unknown key "persnoa" in the top level; did you mean "persona"\?$/,
      ],
    ];
    for (const [name, message] of cases) {
      const io = recordingIo();
      assert.equal(await runDemo(["--config", fixture(name)], io), 1, name);
      assert.deepEqual(io.stdout, []);
      assert.match(io.stderr[0]!, message);
    }
  });
});
