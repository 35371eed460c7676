/**
 * Layout example 2, lists under headings: "Available tools:" with one line
 * per active tool, owned by its tool plugin and in the order the user
 * selected the tools; "Guidelines:" with lines from several plugins, one
 * that needs two tools, and one that two plugins both contribute, shown
 * once; then the date and the working directory as two lines after a blank
 * line. No `system-prompt/assemble` handler.
 *
 * @module
 */

import { type PromptScope, SystemPrompt } from "@dsh/system-prompt";

/** What one step of this host knows. */
export interface ListsContext {
  /** The tools the user selected, in the order they picked them. */
  selectedTools: readonly string[];
  date: string;
  cwd: string;
}

/** A tool plugin: its one-line summary and the guidelines it owns. */
interface ToolPlugin {
  readonly name: string;
  readonly summary: string;
  readonly guidelines: Readonly<Record<string, string>>;
}

const TOOLS: readonly ToolPlugin[] = [
  {
    name: "read",
    summary: "read a file's contents",
    guidelines: { "read-first": "- Read a file before you change it" },
  },
  {
    name: "bash",
    summary: "run a shell command",
    guidelines: { "exit-codes": "- Check the exit code of every command" },
  },
  {
    name: "edit",
    summary: "replace exact text in a file",
    guidelines: { "show-paths": "- Name the files you changed" },
  },
  {
    name: "write",
    summary: "create or overwrite a file",
    guidelines: { "show-paths": "- Name the files you changed" },
  },
];

const active = (context: ListsContext, tool: string) =>
  context.selectedTools.includes(tool);

function loadTool(scope: PromptScope<ListsContext>, tool: ToolPlugin): void {
  scope.item("tools", {
    name: tool.name,
    order: (context) => context.selectedTools.indexOf(tool.name),
    text: (context) =>
      active(context, tool.name) ? `- ${tool.name}: ${tool.summary}` : "",
  });
  for (const [key, line] of Object.entries(tool.guidelines)) {
    scope.item("guidelines", {
      name: `${tool.name}:${key}`,
      order: 10,
      text: (context) => active(context, tool.name) ? line : "",
    });
  }
}

/** The registry of this host, with each plugin in its own scope. */
export function listsHost(): SystemPrompt<ListsContext> {
  const prompt = new SystemPrompt<ListsContext>();

  const loop = prompt.scope("agent-loop");
  loop.section({
    name: "agent:persona",
    order: 0,
    text: "You are a coding assistant. You read files, run commands and " +
      "edit code for the user.",
  });
  loop.section({
    name: "tools",
    order: 100,
    text: "Available tools:",
    list: { empty: "Available tools: (none)" },
  });
  loop.section({
    name: "guidelines",
    order: 200,
    text: "Guidelines:",
    list: { dedupe: true },
  });
  loop.item("guidelines", {
    name: "concise",
    order: 0,
    text: "- Be concise",
  });

  const scopes = new Map<string, PromptScope<ListsContext>>();
  for (const tool of TOOLS) {
    const scope = prompt.scope(tool.name);
    scopes.set(tool.name, scope);
    loadTool(scope, tool);
  }

  // Needs both tools: owned by the plugin that knows how they combine.
  scopes.get("edit")!.item("guidelines", {
    name: "read-before-edit",
    order: 20,
    text: (context) =>
      active(context, "read") && active(context, "edit")
        ? "- Use read to see the exact text before you edit it"
        : "",
  });

  const clock = prompt.scope("clock");
  clock.variable("date", (context) => context.date);
  clock.section({
    name: "date",
    order: 900,
    text: "Current date: {{date}}",
    stability: "step",
  });

  const workspace = prompt.scope("workspace");
  workspace.variable("cwd", (context) => context.cwd);
  workspace.section({
    name: "cwd",
    order: 901,
    text: "Current working directory: {{cwd}}",
    separator: "\n",
    stability: "session",
  });

  return prompt;
}
