/**
 * Layout example 1, one newline everywhere: a host that joins every part of
 * its prompt with `"\n"`. The persona, an `<env>` block whose lines come
 * from four plugins, each instruction file found in the repository
 * included verbatim under its path, and a skills listing. No
 * `system-prompt/assemble` handler: every line keeps its own owner.
 *
 * @module
 */

import { SystemPrompt } from "@dsh/system-prompt";

/** An instruction file found in the repository (`AGENTS.md`, …). */
export interface InstructionFile {
  readonly path: string;
  readonly content: string;
}

/** A skill the agent can load. */
export interface Skill {
  readonly name: string;
  readonly description: string;
}

/** What one step of this host knows. */
export interface NewlineContext {
  model: string;
  cwd: string;
  platform: string;
  date: string;
  gitRepo: boolean;
  instructionFiles: readonly InstructionFile[];
  skills: readonly Skill[];
}

/** The registry of this host, with each plugin in its own scope. */
export function newlineHost(): SystemPrompt<NewlineContext> {
  const prompt = new SystemPrompt<NewlineContext>({ separator: "\n" });

  const loop = prompt.scope("agent-loop");
  loop.variable("model", (context) => context.model);
  loop.variable("platform", (context) => context.platform);
  loop.section({
    name: "agent:persona",
    order: 0,
    text: "You are {{model}}, a coding agent in the user's terminal.\n" +
      "Do the work; keep what you say short.",
  });
  loop.section({
    name: "env",
    order: 10,
    text: "Facts about the machine you run on:\n<env>",
    list: {},
  });
  loop.item("env", {
    name: "platform",
    order: 3,
    text: "Platform: {{platform}}",
  });
  loop.item("env", { name: "end", order: 1_000, text: "</env>" });

  const workspace = prompt.scope("workspace");
  workspace.variable("cwd", (context) => context.cwd);
  workspace.item("env", {
    name: "cwd",
    order: 1,
    text: "Working directory: {{cwd}}",
    stability: "session",
  });

  prompt.scope("git").item("env", {
    name: "git",
    order: 2,
    text: (context) => `Is a git repository: ${context.gitRepo ? "yes" : "no"}`,
    stability: "session",
  });

  const clock = prompt.scope("clock");
  clock.variable("date", (context) => context.date);
  clock.item("env", {
    name: "date",
    order: 4,
    text: "Date: {{date}}",
    stability: "step",
  });

  // Files nobody on the team wrote: literal, and kept byte for byte.
  const instructions = prompt.scope("instructions");
  instructions.section({
    name: "instructions",
    order: 20,
    text: "",
    list: {},
  });
  instructions.items(
    "instructions",
    (context) =>
      context.instructionFiles.map((file, order) => ({
        name: file.path,
        order,
        text: `Instructions from ${file.path}:\n${file.content}`,
        literal: true,
        trim: false,
      })),
  );

  const skills = prompt.scope("skills");
  skills.section({
    name: "skills",
    order: 30,
    text: "Skills you can load:",
    list: {},
  });
  skills.items("skills", (context) =>
    context.skills.map((skill, order) => ({
      name: skill.name,
      order,
      text: `- ${skill.name}: ${skill.description}`,
      literal: true,
    })));

  return prompt;
}
