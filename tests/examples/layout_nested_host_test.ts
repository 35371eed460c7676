// examples/layout_nested_host.ts: lists that open, close and nest, rendered
// byte for byte without a handler, with every nested file's owner in
// explainPrompt and a change of one memory file named by comparePrompts.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderPrompt } from "@dsh/system-prompt";
import { comparePrompts, explainPrompt } from "@dsh/system-prompt/inspect";
import {
  type NestedContext,
  nestedHost,
} from "../../examples/layout_nested_host.ts";

const CONTEXT: NestedContext = {
  globalInstructions: {
    path: "~/.agent/AGENTS.md",
    content: "Answer in English.",
  },
  projectInstructions: [
    { path: "AGENTS.md", content: "Use tabs." },
    { path: "docs/AGENTS.md", content: "Docs are Markdown." },
  ],
  skills: [{ name: "pdf", description: "reads PDFs" }],
  servers: 1,
  memory: {
    global: [{ path: "~/.agent/memory.md", content: "The user is Ada." }],
    project: [
      { path: ".agent/memory.md", content: "Tests run with deno." },
      { path: ".agent/todo.md", content: "Finish the parser." },
    ],
  },
  planMode: true,
  readOnlyTools: ["read", "grep"],
};

const EXPECTED = `You are a coding agent.

<INSTRUCTIONS>
Answer in English.

--- project-doc ---

Use tabs.

Docs are Markdown.
</INSTRUCTIONS>

<available_skills>
- pdf: reads PDFs
</available_skills>

<loaded_context>
## Global memory
~/.agent/memory.md:
The user is Ada.

## Project memory
.agent/memory.md:
Tests run with deno.
.agent/todo.md:
Finish the parser.
</loaded_context>

Plan mode is on. You may use only read, grep; every other tool waits until the user approves the plan.`;

describe("examples/layout_nested_host.ts: lists that open, close and nest", () => {
  it("renders the four shapes byte for byte, with no handler", async () => {
    const prompt = nestedHost();
    assert.equal(prompt.registrations().handlers.length, 0);
    assert.equal(renderPrompt(await prompt.assemble(CONTEXT)), EXPECTED);
  });

  it("puts the project-doc divider only after a global file, and shows the skills line while nothing is connected", async () => {
    const prompt = nestedHost();
    const { globalInstructions: _global, ...noGlobal } = CONTEXT;
    const text = renderPrompt(
      await prompt.assemble({ ...noGlobal, skills: [], planMode: false }),
    );
    assert.match(
      text,
      /<INSTRUCTIONS>\nUse tabs\.\n\nDocs are Markdown\.\n<\/INSTRUCTIONS>/,
    );
    assert.doesNotMatch(text, /project-doc/);
    assert.match(text, /\n\nSkills: servers configured, none connected\.\n\n/);
    assert.doesNotMatch(text, /Plan mode/);
    const none = renderPrompt(
      await prompt.assemble({
        ...noGlobal,
        skills: [],
        servers: 0,
        planMode: false,
      }),
    );
    assert.doesNotMatch(none, /available_skills|Skills:/);
  });

  it("reports a change to one memory file of one tier as that item and its owner", async () => {
    const prompt = nestedHost();
    const before = await prompt.assemble(CONTEXT);
    const after = await prompt.assemble({
      ...CONTEXT,
      memory: {
        ...CONTEXT.memory,
        project: [CONTEXT.memory.project[0]!, {
          path: ".agent/todo.md",
          content: "Ship it.",
        }],
      },
    });
    const comparison = comparePrompts(before, after);
    assert.equal(comparison.firstChangedSection?.name, "memory");
    assert.deepEqual(
      [comparison.firstChangedItem?.name, comparison.firstChangedItem?.owner],
      [".agent/todo.md", "memory:project"],
    );
  });

  it("explains every nested file with its own owner, and the spans tile the prompt", async () => {
    const explanation = explainPrompt(await nestedHost().assemble(CONTEXT));
    const memory = explanation.sections.find((s) => s.name === "memory")!;
    assert.deepEqual(
      memory.items!.map((
        tier,
      ) => [tier.name, tier.owner, tier.items!.map((f) => [f.name, f.owner])]),
      [
        ["global", "memory", [["~/.agent/memory.md", "memory:global"]]],
        ["project", "memory", [
          [".agent/memory.md", "memory:project"],
          [".agent/todo.md", "memory:project"],
        ]],
      ],
    );
    let at = 0;
    for (const section of explanation.sections) {
      assert.equal(section.separatorStart, at);
      at = section.end;
    }
    assert.equal(at, explanation.text.length);
  });
});
