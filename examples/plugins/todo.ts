/**
 * The todo tool: no section; its description carries the whole contract.
 *
 * @module
 */

import type { ToolSchema } from "@dsh/system-prompt";
import type { Plugin } from "../host.ts";

/** The todo tool's schema. */
export const TODO_TOOL: ToolSchema = {
  name: "todo",
  description: "Replaces this session's task list and returns it. Send the " +
    "whole list every time: it replaces, it does not append. Keep exactly one " +
    "task in_progress while you work; mark a task completed as soon as it is " +
    "done, never before. Use it for work of three or more steps.",
  parameters: {
    type: "object",
    properties: {
      todos: {
        type: "array",
        items: {
          type: "object",
          properties: {
            content: { type: "string" },
            status: { enum: ["pending", "in_progress", "completed"] },
          },
          required: ["content", "status"],
        },
      },
    },
    required: ["todos"],
    additionalProperties: false,
  },
};

/** Registers the todo tool. */
export const todoPlugin: Plugin = {
  name: "todo",
  load({ prompt }) {
    prompt.tools(() => [TODO_TOOL]);
  },
};
