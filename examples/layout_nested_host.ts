/**
 * Layout example 4, lists that open, close and nest: the four shapes that
 * flat lists (one level, no opening or closing text) could not write
 * without glue, each with one scope per real owner and no
 * `system-prompt/assemble` handler.
 *
 * - An instructions wrapper: `<INSTRUCTIONS>` and a newline, then the parts
 *   joined by a blank line, with a `--- project-doc ---` line only between a
 *   global instructions file and the project files (`headingSeparator`, an
 *   item's own `separator`).
 * - A skills listing closed by its tag (`footer`), shown as one line while
 *   servers are configured but none is connected (`empty` as a function).
 * - Memory files in tiers, each tier under its own heading, all inside one
 *   XML element: nested lists, every file its own item and owner.
 * - A tool list in the middle of a plan-mode paragraph: heading, items and
 *   footer of one list.
 *
 * @module
 */

import { SystemPrompt } from "@dsh/system-prompt";

/** A file the host read (global or project instructions, memory). */
export interface HostFile {
  readonly path: string;
  readonly content: string;
}

/** What one step of this host knows. */
export interface NestedContext {
  globalInstructions?: HostFile;
  projectInstructions: readonly HostFile[];
  skills: readonly { name: string; description: string }[];
  servers: number;
  memory: { global: readonly HostFile[]; project: readonly HostFile[] };
  planMode: boolean;
  readOnlyTools: readonly string[];
}

/** The registry of this host, each plugin in its own scope. */
export function nestedHost(): SystemPrompt<NestedContext> {
  const prompt = new SystemPrompt<NestedContext>();
  const loop = prompt.scope("agent-loop");
  loop.section({ name: "persona", order: 0, text: "You are a coding agent." });

  // 1. Instructions: the heading takes one newline, parts a blank line, and
  //    the project files a divider only after a global file.
  loop.section({
    name: "instructions",
    order: 10,
    text: "<INSTRUCTIONS>",
    list: {
      headingSeparator: "\n",
      separator: "\n\n",
      footer: "</INSTRUCTIONS>",
      footerSeparator: "\n",
    },
  });
  prompt.scope("global-instructions").items(
    "instructions",
    (context) =>
      context.globalInstructions === undefined ? [] : [{
        name: context.globalInstructions.path,
        order: 0,
        text: context.globalInstructions.content,
        literal: true,
      }],
  );
  prompt.scope("project-instructions").items(
    "instructions",
    (context) =>
      context.projectInstructions.map((file, i) => ({
        name: file.path,
        order: 1 + i,
        text: file.content,
        literal: true,
        ...(i === 0 && context.globalInstructions !== undefined
          ? { separator: "\n\n--- project-doc ---\n\n" }
          : {}),
      })),
  );

  // 2. Skills: closed by their tag; one line while nothing is connected.
  loop.section({
    name: "skills",
    order: 20,
    text: "<available_skills>",
    list: {
      footer: "</available_skills>",
      empty: (context) =>
        context.servers > 0
          ? "Skills: servers configured, none connected."
          : "",
    },
  });
  prompt.scope("skills").items(
    "skills",
    (context) =>
      context.skills.map((skill, order) => ({
        name: skill.name,
        order,
        text: `- ${skill.name}: ${skill.description}`,
        literal: true,
      })),
  );

  // 3. Memory: tiers under their headings, inside one element.
  const memory = prompt.scope("memory");
  memory.section({
    name: "memory",
    order: 30,
    text: "<loaded_context>",
    list: {
      headingSeparator: "\n",
      separator: "\n\n",
      footer: "</loaded_context>",
      footerSeparator: "\n",
    },
  });
  memory.item("memory", {
    name: "global",
    order: 0,
    text: "## Global memory",
    list: {},
  });
  memory.item("memory", {
    name: "project",
    order: 1,
    text: "## Project memory",
    list: {},
  });
  for (const tier of ["global", "project"] as const) {
    prompt.scope(`memory:${tier}`).items(
      ["memory", tier],
      (context) =>
        context.memory[tier].map((file, order) => ({
          name: file.path,
          order,
          text: `${file.path}:\n${file.content}`,
          literal: true,
        })),
    );
  }

  // 4. Plan mode: a tool list inside prose.
  prompt.scope("plan-mode").section({
    name: "plan-mode",
    order: 40,
    text: (context) =>
      context.planMode ? "Plan mode is on. You may use only" : "",
    list: {
      separator: ", ",
      headingSeparator: " ",
      footerSeparator: "; ",
      footer: "every other tool waits until the user approves the plan.",
    },
  });
  prompt.scope("tools").items(
    "plan-mode",
    (context) =>
      context.planMode
        ? context.readOnlyTools.map((name, order) => ({
          name,
          order,
          text: name,
        }))
        : [],
  );
  return prompt;
}
