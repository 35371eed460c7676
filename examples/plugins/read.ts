/**
 * The read tool: its description says what it does; its section carries
 * only the "this is not a shell" nudge.
 *
 * @module
 */

import type { ToolSchema } from "@dsh/system-prompt";
import type { Plugin } from "../host.ts";

/** The read tool's schema. */
export const READ_TOOL: ToolSchema = {
  name: "read",
  description:
    "Reads a UTF-8 text file and returns its lines, numbered from 1. " +
    "`path` is one file, absolute or relative to the working directory; " +
    "`offset` and `limit` select a range of lines in a large file. It does " +
    "not list directories.",
  parameters: {
    type: "object",
    properties: {
      path: { type: "string", description: "The file to read." },
      offset: {
        type: "integer",
        minimum: 1,
        description: "First line to return.",
      },
      limit: {
        type: "integer",
        minimum: 1,
        description: "How many lines to return.",
      },
    },
    required: ["path"],
    additionalProperties: false,
  },
};

/** Registers the read tool and its `tool:read` nudge at order 110. */
export const readPlugin: Plugin = {
  name: "read",
  load({ prompt }) {
    prompt.tools(() => [READ_TOOL]);
    prompt.section({
      name: "tool:read",
      order: 110,
      text: "read is not a shell: give it one path, with no globs, pipes or " +
        "quotes. To look at a file, use read rather than cat, head or sed " +
        "through bash.",
    });
  },
};
