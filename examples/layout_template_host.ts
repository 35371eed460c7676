/**
 * Layout example 3, a template's whitespace: blocks two blank lines apart
 * (three newlines) where the template has them and one newline elsewhere;
 * an extension list whose header appears only when an extension is loaded,
 * replaced otherwise by a "no extensions" text; each extension's
 * instructions included verbatim, owned by the extension. No
 * `system-prompt/assemble` handler.
 *
 * @module
 */

import { type PromptScope, SystemPrompt } from "@dsh/system-prompt";

/** What one step of this host knows. */
export interface TemplateContext {
  date: string;
}

/** An extension: its name and the instructions it ships (not ours). */
export interface Extension {
  readonly name: string;
  readonly instructions: string;
}

const BLOCK = "\n\n\n";

/** The registry of this host, and how extensions join and leave it. */
export interface TemplateHost {
  readonly prompt: SystemPrompt<TemplateContext>;
  /** Loads an extension into its own scope; disposing the scope unloads it. */
  load(extension: Extension, order: number): PromptScope<TemplateContext>;
}

/** Builds the host with no extension loaded. */
export function templateHost(): TemplateHost {
  const prompt = new SystemPrompt<TemplateContext>({ separator: "\n" });

  const loop = prompt.scope("agent-loop");
  loop.section({
    name: "agent:persona",
    order: 0,
    text: "You are a general-purpose agent on the user's machine. " +
      "Extensions give you your tools.",
  });
  loop.section({
    name: "extensions",
    order: 10,
    separator: BLOCK,
    text: "# Extensions\n\n" +
      "Each extension below adds tools and says how to use them.",
    list: {
      separator: "\n\n",
      empty: "No extensions are loaded. If a task needs a tool you lack, " +
        "tell the user which extension to add.",
    },
  });
  loop.section({
    name: "guidelines",
    order: 20,
    separator: BLOCK,
    text:
      "# Response guidelines\n- Answer in Markdown.\n- Name the files you used.",
  });

  const clock = prompt.scope("clock");
  clock.variable("date", (context) => context.date);
  clock.section({
    name: "date",
    order: 30,
    text: "The current date is {{date}}.",
    stability: "step",
  });

  return {
    prompt,
    load(extension, order) {
      const scope = prompt.scope(`extension:${extension.name}`);
      // The instructions are the extension's words, kept byte for byte.
      scope.item("extensions", {
        name: extension.name,
        order,
        text: `## ${extension.name}\n${extension.instructions}`,
        literal: true,
        trim: false,
      });
      return scope;
    },
  };
}
