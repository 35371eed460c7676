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
    assert.match(out, /\ntools: bash, read, todo, subagent$/);
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
      "todo",
      "subagent",
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
      'Cannot render section "agent:persona": {{modle}} at 1:29 names variable "modle", ' +
      'which is not registered; did you mean "model"?',
    ]);
  });

  it("exits 1 with a message for a missing config file", async () => {
    const io = recordingIo();
    assert.equal(await runDemo(["--config", fixture("nope.json")], io), 1);
    assert.match(io.stderr[0]!, /^Cannot read config .*nope\.json: /);
    assert.doesNotMatch(io.stderr[0]!, /\n\s+at /);
  });

  it("exits 2 with the usage for an unknown argument", async () => {
    const io = recordingIo();
    assert.equal(await runDemo(["--verbose"], io), 2);
    assert.match(io.stderr[0]!, /Unknown argument "--verbose"\nUsage: /);
  });
});
