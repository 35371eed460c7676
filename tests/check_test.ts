import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SystemPrompt } from "../mod.ts";
import { checkPrompt, type PromptDiagnostic } from "../inspect.ts";

const brief = (diagnostics: PromptDiagnostic[]) =>
  diagnostics.map((d) =>
    `${d.severity} ${d.code} ${d.owner ?? "-"} ${
      d.section ?? d.variable ?? d.tool ?? ""
    }`
  );

describe("checkPrompt()", () => {
  it("reports nothing for a clean prompt", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("agent-loop").variable("model", () => "m-1");
    prompt.scope("agent-loop").section({
      name: "agent:persona",
      order: 0,
      text: "I am {{model}}.",
    });
    prompt.scope("bash").section({
      name: "tool:bash",
      order: 105,
      text: "Check exit codes.",
    });
    assert.deepEqual(await checkPrompt(prompt), []);
  });

  it("reports references to unregistered variables, with a suggestion", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("loop").variable("model", () => "m");
    prompt.scope("loop").section({
      name: "p",
      order: 0,
      text: "{{modle}} {{model}} {{nothing_close}}",
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(brief(diagnostics), [
      "error unknown-variable loop p",
      "error unknown-variable loop p",
    ]);
    assert.match(diagnostics[0]!.message, /did you mean "model"\?$/);
    assert.equal(diagnostics[1]!.variable, "nothing_close");
  });

  it("reports valueless references for the given context", async () => {
    const prompt = new SystemPrompt<{ cwd?: string }>();
    prompt.variable("cwd", (context) => context.cwd);
    prompt.section({ name: "where", order: 0, text: "In {{cwd}}." });
    assert.deepEqual(brief(await checkPrompt(prompt)), [
      "error missing-value - where",
    ]);
    assert.deepEqual(await checkPrompt(prompt, { cwd: "/" }), []);
  });

  it("reports malformed references", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("p").section({
      name: "s",
      order: 0,
      text: "Use {{ braces like this }}.",
    });
    assert.deepEqual(brief(await checkPrompt(prompt)), [
      "error malformed-reference p s",
    ]);
  });

  it("reports variables no section references", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("git").variable("git.branch", () => "main");
    prompt.variable("used", () => "u");
    prompt.section({ name: "s", order: 0, text: "{{used}}" });
    assert.deepEqual(brief(await checkPrompt(prompt)), [
      "warning unused-variable git git.branch",
    ]);
  });

  it("reports one sentence under two owners: two sections, or a section and a tool description", async () => {
    const prompt = new SystemPrompt();
    const bash = prompt.scope("bash");
    bash.tools(() => [{
      name: "bash",
      description:
        "Runs a command. Each call starts a fresh shell, so cd does not persist.",
      parameters: {},
    }]);
    bash.section({
      name: "tool:bash",
      order: 105,
      text:
        "Each call starts a fresh shell,   so cd does not persist. Check exit codes.",
    });
    prompt.scope("agent-loop").section({
      name: "agent:persona",
      order: 0,
      text:
        "You are careful. Each call starts a fresh shell, so CD does not persist.",
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(brief(diagnostics), [
      "warning duplicate-sentence bash tool:bash",
      "warning duplicate-sentence bash bash",
    ]);
    assert.match(
      diagnostics[0]!.message,
      /^The sentence "each call starts a fresh shell, so cd does not persist\." appears in section "agent:persona" of "agent-loop" and in section "tool:bash" of "bash": one fact, two owners$/,
    );
  });

  it("does not flag short sentences", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "a", order: 0, text: "Be brief." });
    prompt.section({ name: "b", order: 1, text: "Be brief." });
    assert.deepEqual(await checkPrompt(prompt), []);
  });

  it("reports tool guidance outside 100–199", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("bash").section({ name: "tool:bash", order: 5, text: "x" });
    const read = prompt.scope("read");
    read.tools(() => [{ name: "read", description: "", parameters: {} }]);
    read.section({ name: "reading", order: 300, text: "y" });
    read.section({ name: "reading-ok", order: 110, text: "z" });
    assert.deepEqual(brief(await checkPrompt(prompt)), [
      "warning tool-guidance-band bash tool:bash",
      "warning tool-guidance-band read reading",
    ]);
  });

  it("reports a failing assembly as assemble-failed with its owner", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("flaky").variable("x", () => {
      throw new Error("boom");
    });
    assert.deepEqual(brief(await checkPrompt(prompt)), [
      "error assemble-failed flaky ",
    ]);
  });
});
