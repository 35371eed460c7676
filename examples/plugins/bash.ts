/**
 * The bash tool: per-tool semantics in its description; its section carries
 * only the cross-call habit of checking exit codes.
 *
 * @module
 */

import type { ToolSchema } from "@dsh/system-prompt";
import type { Plugin } from "../host.ts";

/** The bash tool's schema. */
export const BASH_TOOL: ToolSchema = {
  name: "bash",
  description:
    "Runs one command in a non-interactive bash shell in the working " +
    "directory and returns its stdout, stderr and exit code. Each call is a new " +
    "shell: cd and exported variables do not carry over, so chain dependent " +
    "commands with &&. Commands that wait for input fail; output beyond 30,000 " +
    "characters is truncated; a command is stopped after 120 seconds.",
  parameters: {
    type: "object",
    properties: {
      command: { type: "string", description: "The command line to run." },
    },
    required: ["command"],
    additionalProperties: false,
  },
};

/** Registers the bash tool and its `tool:bash` habit at order 105. */
export const bashPlugin: Plugin = {
  name: "bash",
  load({ prompt }) {
    prompt.tools(() => [BASH_TOOL]);
    prompt.section({
      name: "tool:bash",
      order: 105,
      text:
        "After every bash command, check its exit code before you rely on " +
        "its output: a non-zero exit means the step failed, even when the " +
        "output looks plausible.",
    });
  },
};
