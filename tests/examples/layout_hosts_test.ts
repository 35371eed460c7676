// The three layout example hosts: exact bytes, no assemble handler, one
// owner per fact in explainPrompt, and a date change named by comparePrompts.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderPrompt } from "../../mod.ts";
import { comparePrompts, explainPrompt } from "../../inspect.ts";
import {
  type NewlineContext,
  newlineHost,
} from "../../examples/layout_newline_host.ts";
import {
  type ListsContext,
  listsHost,
} from "../../examples/layout_lists_host.ts";
import { templateHost } from "../../examples/layout_template_host.ts";
import {
  formatComparison,
  formatExplanation,
} from "../../examples/demo_report.ts";

const AGENTS_MD = "# Shop\n" +
  "Deploy with ${{ secrets.DEPLOY_TOKEN }}; never print {{cwd}}.\n";

const NEWLINE: NewlineContext = {
  model: "m-1",
  cwd: "/home/ada/shop",
  platform: "linux",
  date: "2026-11-30",
  gitRepo: true,
  instructionFiles: [
    { path: "/home/ada/shop/AGENTS.md", content: AGENTS_MD },
    { path: "/home/ada/.config/AGENTS.md", content: "Use tabs." },
  ],
  skills: [
    { name: "pdf", description: "Fill {{forms}} in PDFs." },
    { name: "xlsx", description: "Edit spreadsheets." },
  ],
};

describe("examples/layout_newline_host.ts: one newline everywhere", () => {
  it("renders the exact bytes, instruction files verbatim", async () => {
    const prompt = newlineHost();
    assert.equal(
      renderPrompt(await prompt.assemble(NEWLINE)),
      "You are m-1, a coding agent in the user's terminal.\n" +
        "Do the work; keep what you say short.\n" +
        "Facts about the machine you run on:\n" +
        "<env>\n" +
        "Working directory: /home/ada/shop\n" +
        "Is a git repository: yes\n" +
        "Platform: linux\n" +
        "Date: 2026-11-30\n" +
        "</env>\n" +
        "Instructions from /home/ada/shop/AGENTS.md:\n" +
        AGENTS_MD +
        "\n" +
        "Instructions from /home/ada/.config/AGENTS.md:\n" +
        "Use tabs.\n" +
        "Skills you can load:\n" +
        "- pdf: Fill {{forms}} in PDFs.\n" +
        "- xlsx: Edit spreadsheets.",
    );
  });

  it("drops the instruction and skill lists, headings included, when there are none", async () => {
    const prompt = newlineHost();
    const text = renderPrompt(
      await prompt.assemble({ ...NEWLINE, instructionFiles: [], skills: [] }),
    );
    assert.ok(text.endsWith("Date: 2026-11-30\n</env>"), text);
  });

  it("has no assemble handler, and each fact keeps its owner", async () => {
    const prompt = newlineHost();
    assert.deepEqual(prompt.registrations().handlers, []);
    const explained = explainPrompt(await prompt.assemble(NEWLINE));
    assert.deepEqual(
      explained.sections.map((
        s,
      ) => [s.name, s.owner, s.items?.map((i) => `${i.name}:${i.owner}`)]),
      [
        ["agent:persona", "agent-loop", undefined],
        ["env", "agent-loop", [
          "cwd:workspace",
          "git:git",
          "platform:agent-loop",
          "date:clock",
          "end:agent-loop",
        ]],
        ["instructions", "instructions", [
          "/home/ada/shop/AGENTS.md:instructions",
          "/home/ada/.config/AGENTS.md:instructions",
        ]],
        ["skills", "skills", ["pdf:skills", "xlsx:skills"]],
      ],
    );
  });

  it("names the date item and its owner when only the date changed", async () => {
    const prompt = newlineHost();
    const comparison = comparePrompts(
      await prompt.assemble(NEWLINE),
      await prompt.assemble({ ...NEWLINE, date: "2026-12-01" }),
    );
    assert.deepEqual(comparison.firstChangedSection, {
      name: "env",
      owner: "agent-loop",
      index: 1,
      change: "changed",
    });
    assert.deepEqual(comparison.firstChangedItem, {
      name: "date",
      owner: "clock",
      list: ["env"],
      index: 3,
      change: "changed",
    });
  });
});

const LISTS: ListsContext = {
  selectedTools: ["edit", "read", "bash", "write"],
  date: "2026-11-30",
  cwd: "/repo",
};

describe("examples/layout_lists_host.ts: lists under headings", () => {
  it("renders the exact bytes: tools in the user's order, a deduplicated guideline", async () => {
    const prompt = listsHost();
    assert.equal(
      renderPrompt(await prompt.assemble(LISTS)),
      "You are a coding assistant. You read files, run commands and edit code for the user.\n" +
        "\n" +
        "Available tools:\n" +
        "- edit: replace exact text in a file\n" +
        "- read: read a file's contents\n" +
        "- bash: run a shell command\n" +
        "- write: create or overwrite a file\n" +
        "\n" +
        "Guidelines:\n" +
        "- Be concise\n" +
        "- Check the exit code of every command\n" +
        "- Name the files you changed\n" +
        "- Read a file before you change it\n" +
        "- Use read to see the exact text before you edit it\n" +
        "\n" +
        "Current date: 2026-11-30\n" +
        "Current working directory: /repo",
    );
  });

  it("follows the selection: order, the two-tool guideline, and (none)", async () => {
    const prompt = listsHost();
    assert.equal(
      renderPrompt(
        await prompt.assemble({ ...LISTS, selectedTools: ["bash", "edit"] }),
      ),
      "You are a coding assistant. You read files, run commands and edit code for the user.\n" +
        "\n" +
        "Available tools:\n" +
        "- bash: run a shell command\n" +
        "- edit: replace exact text in a file\n" +
        "\n" +
        "Guidelines:\n" +
        "- Be concise\n" +
        "- Check the exit code of every command\n" +
        "- Name the files you changed\n" +
        "\n" +
        "Current date: 2026-11-30\n" +
        "Current working directory: /repo",
    );
    assert.equal(
      renderPrompt(await prompt.assemble({ ...LISTS, selectedTools: [] })),
      "You are a coding assistant. You read files, run commands and edit code for the user.\n" +
        "\n" +
        "Available tools: (none)\n" +
        "\n" +
        "Guidelines:\n" +
        "- Be concise\n" +
        "\n" +
        "Current date: 2026-11-30\n" +
        "Current working directory: /repo",
    );
  });

  it("has no assemble handler, and each line keeps its owner", async () => {
    const prompt = listsHost();
    assert.deepEqual(prompt.registrations().handlers, []);
    const explained = explainPrompt(await prompt.assemble(LISTS));
    const owners = (name: string) =>
      explained.sections.find((s) => s.name === name)!.items!.map((i) =>
        i.owner
      );
    assert.deepEqual(owners("tools"), ["edit", "read", "bash", "write"]);
    assert.deepEqual(owners("guidelines"), [
      "agent-loop",
      "bash",
      "edit",
      "read",
      "edit",
    ]);
    assert.deepEqual(
      explained.sections.slice(-2).map((s) => [s.name, s.owner]),
      [["date", "clock"], ["cwd", "workspace"]],
    );
  });

  it("names the date section and its owner when only the date changed", async () => {
    const prompt = listsHost();
    const comparison = comparePrompts(
      await prompt.assemble(LISTS),
      await prompt.assemble({ ...LISTS, date: "2026-12-01" }),
    );
    assert.deepEqual(comparison.firstChangedSection, {
      name: "date",
      owner: "clock",
      index: 3,
      change: "changed",
    });
    assert.equal(comparison.firstChangedItem, undefined);
  });
});

describe("examples/layout_template_host.ts: a template's whitespace", () => {
  const GITHUB = {
    name: "github",
    instructions: "Use gh for {{repo}} work.  \n",
  };
  const MEMORY = { name: "memory", instructions: "Remember facts." };

  it("renders the exact bytes with extensions loaded, their instructions verbatim", async () => {
    const host = templateHost();
    host.load(GITHUB, 1);
    host.load(MEMORY, 2);
    assert.equal(
      renderPrompt(await host.prompt.assemble({ date: "2026-11-30" })),
      "You are a general-purpose agent on the user's machine. Extensions give you your tools.\n" +
        "\n\n" +
        "# Extensions\n" +
        "\n" +
        "Each extension below adds tools and says how to use them.\n" +
        "\n" +
        "## github\n" +
        "Use gh for {{repo}} work.  \n" +
        "\n\n" +
        "## memory\n" +
        "Remember facts.\n" +
        "\n\n" +
        "# Response guidelines\n" +
        "- Answer in Markdown.\n" +
        "- Name the files you used.\n" +
        "The current date is 2026-11-30.",
    );
  });

  it("replaces the header with the no-extensions text when none is loaded", async () => {
    const host = templateHost();
    host.load(GITHUB, 1).dispose();
    assert.equal(
      renderPrompt(await host.prompt.assemble({ date: "2026-11-30" })),
      "You are a general-purpose agent on the user's machine. Extensions give you your tools.\n" +
        "\n\n" +
        "No extensions are loaded. If a task needs a tool you lack, tell the user which extension to add.\n" +
        "\n\n" +
        "# Response guidelines\n" +
        "- Answer in Markdown.\n" +
        "- Name the files you used.\n" +
        "The current date is 2026-11-30.",
    );
  });

  it("has no assemble handler; each extension owns its block; the date change names the clock", async () => {
    const host = templateHost();
    host.load(GITHUB, 1);
    host.load(MEMORY, 2);
    assert.deepEqual(host.prompt.registrations().handlers, []);
    const before = await host.prompt.assemble({ date: "2026-11-30" });
    const explained = explainPrompt(before);
    assert.deepEqual(explained.sections[1]!.items!.map((i) => i.owner), [
      "extension:github",
      "extension:memory",
    ]);
    const comparison = comparePrompts(
      before,
      await host.prompt.assemble({ date: "2026-12-01" }),
    );
    assert.deepEqual(comparison.firstChangedSection, {
      name: "date",
      owner: "clock",
      index: 3,
      change: "changed",
    });
  });
});

describe("demo report --explain with a layout", () => {
  it("shows each item under its list, with its own owner and span", async () => {
    const host = templateHost();
    host.load({ name: "memory", instructions: "Remember facts." }, 2);
    const table = formatExplanation(
      explainPrompt(await host.prompt.assemble({ date: "2026-11-30" })),
    );
    const rows = table.split("\n").map((row) => row.split(/ {2,}/));
    const at = rows.findIndex((row) => row[0] === "extensions");
    assert.deepEqual(rows[at + 1]!.slice(0, 4), [
      "",
      "memory",
      "extension:memory",
      "2",
    ]);
    assert.equal(rows[at + 2]![0], "guidelines");
  });

  it("--two-step names the changed item, and a removed section as removed", async () => {
    const prompt = newlineHost();
    const step = await prompt.assemble(NEWLINE);
    assert.match(
      formatComparison(
        comparePrompts(
          step,
          await prompt.assemble({ ...NEWLINE, date: "2026-12-01" }),
        ),
      ),
      /first in section "env" of "agent-loop", item "date" of "clock"/,
    );
    assert.match(
      formatComparison(
        comparePrompts(
          step,
          await prompt.assemble({ ...NEWLINE, instructionFiles: [] }),
        ),
      ),
      /first in section "instructions" of "instructions" \(removed\)/,
    );
  });
});
