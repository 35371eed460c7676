// Type-level tests: the AssembleContext augmentation (docs/install.md,
// "Typing the context") and the generic context type drive the types of
// providers and handlers; the `@ts-expect-error` lines fail `deno check` if
// a wrong use compiles.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type AssembleContext,
  type PromptAssembly,
  type PromptChange,
  type PromptRegistrar,
  renderPrompt,
  SystemPrompt,
} from "@dsh/system-prompt";

interface Agent {
  model: string;
  cwd?: string;
}

// The consumer-side augmentation docs/install.md shows ("Typing the context").
declare module "@dsh/system-prompt" {
  interface AssembleContext {
    agent?: Agent;
  }
  interface PromptAssembly {
    budget?: number;
  }
}

describe("AssembleContext augmentation", () => {
  it("types providers by the merged context and accepts a bare assemble()", async () => {
    const prompt = new SystemPrompt();
    prompt.variable("model", (context) => context.agent?.model);
    prompt.on(
      "system-prompt/assemble",
      (assembly: PromptAssembly, context: AssembleContext) => {
        assembly.budget = context.agent === undefined ? 0 : 100;
      },
    );
    prompt.section({ name: "persona", order: 0, text: "You are {{model}}." });
    const assembly = await prompt.assemble({ agent: { model: "m-1" } });
    assert.equal(renderPrompt(assembly), "You are m-1.");
    assert.equal(assembly.budget, 100);
    assert.equal((await prompt.assemble()).budget, 0);
    // @ts-expect-error: the merged context has no field `agnet`
    await prompt.assemble({ agnet: {} });
  });
});

describe("generic context", () => {
  it("types providers by C and requires a context when C has required fields", async () => {
    interface Step {
      cwd: string;
    }
    const prompt = new SystemPrompt<Step>();
    prompt.variable("cwd", (context) => context.cwd);
    const registrar: PromptRegistrar<Step> = prompt.scope("agent-loop");
    registrar.section({
      name: "where",
      order: 0,
      text: (context) => `in ${context.cwd}`,
    });
    assert.equal(
      renderPrompt(await prompt.assemble({ cwd: "/repo" })),
      "in /repo",
    );
    // @ts-expect-error: a required field cannot come from the default `{}`
    await prompt.assemble().catch(() => {});
    // @ts-expect-error: a provider must return a string or undefined
    prompt.variable("n", () => 42);
  });

  it("infers the handler type from the event name", () => {
    const prompt = new SystemPrompt();
    prompt.on("system-prompt/change", (change) => void change.kind);
    const seen: unknown[] = [];
    const wrong = (assembly: PromptAssembly) => void seen.push(assembly.tools);
    // @ts-expect-error: a change listener gets a PromptChange, not an assembly
    prompt.on("system-prompt/change", wrong);
    prompt.variable("x", () => "");
    // What the type error prevents: a change has no tools.
    assert.deepEqual(seen, [undefined]);
  });

  it("rejects a handler for an event name typed as either event", () => {
    const prompt = new SystemPrompt();
    const scope = prompt.scope("p");
    const event = "system-prompt/change" as
      | "system-prompt/assemble"
      | "system-prompt/change";
    const listener = (change: PromptChange) => void change.kind;
    // @ts-expect-error: the listener would be run as a waterfall handler for "system-prompt/assemble"
    const off = prompt.on(event, listener);
    // @ts-expect-error: the same through a scope
    const offScope = scope.on(event, listener);
    const registrar: PromptRegistrar = prompt;
    // @ts-expect-error: and through the registrar interface
    const offRegistrar = registrar.on(event, listener);
    for (const dispose of [off, offScope, offRegistrar]) dispose();
    // A single event name still infers its handler.
    prompt.on("system-prompt/assemble", (assembly) => void assembly.tools);
  });
});
