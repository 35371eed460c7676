/**
 * The agent config: persona words, the agent's facts and the plugin list.
 * Every deployment-authored word of the prompt comes from here, not code.
 *
 * @module
 */

import type { Agent } from "./agent.ts";
import { closestKey } from "./closest_key.ts";
import { HostError } from "./host_error.ts";
import { jsonErrorPosition, jsonErrorReason } from "./json_position.ts";

/** A parsed, validated config file. */
export interface AgentConfig {
  /** The agent the demo assembles for. */
  agent: Agent;
  /** Identity and behaviour: the persona section's words. */
  persona: { identity: string; behaviour: string };
  /** Plugin names, in load order. */
  plugins: string[];
}

type Field = "string" | "string[]" | { [key: string]: Field };

// The shape of AgentConfig, for the checks and the "did you mean" of a key.
const SCHEMA: Field = {
  agent: { model: "string", cwd: "string" },
  persona: { identity: "string", behaviour: "string" },
  plugins: "string[]",
};

/**
 * Parses and validates a config file's text.
 *
 * @param source Names the file in errors.
 * @throws {HostError} If the text is not JSON (with the line and column),
 * or a field is missing, of the wrong type or unknown (with its path).
 */
export function parseConfig(text: string, source: string): AgentConfig {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    const message = (cause as Error).message;
    const { line, column } = jsonErrorPosition(text, message);
    throw new HostError(
      `Invalid JSON in config ${source} at line ${line}, column ${column}: ${
        jsonErrorReason(message)
      }`,
      { cause },
    );
  }
  const problem = check(data, SCHEMA, "");
  if (problem !== undefined) {
    throw new HostError(`Invalid config ${source}: ${problem}`);
  }
  return data as AgentConfig;
}

/** What is wrong with `value` at `path`, or `undefined`. */
function check(value: unknown, field: Field, path: string): string | undefined {
  const where = path === "" ? "the top level" : `"${path}"`;
  if (field === "string") {
    return typeof value === "string"
      ? undefined
      : `${where} must be a string, not ${describe(value)}`;
  }
  if (field === "string[]") {
    return Array.isArray(value) && value.every((v) => typeof v === "string")
      ? undefined
      : `${where} must be an array of plugin names, not ${describe(value)}`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `${where} must be an object, not ${describe(value)}`;
  }
  const known = Object.keys(field);
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      const suggestion = closestKey(key, known);
      return `unknown key "${
        path === "" ? key : `${path}.${key}`
      }" in ${where}` +
        (suggestion === undefined
          ? `; the keys there are ${known.map((k) => `"${k}"`).join(", ")}`
          : `; did you mean "${suggestion}"?`);
    }
  }
  for (const key of known) {
    const childPath = path === "" ? key : `${path}.${key}`;
    if (!(key in value)) {
      return `"${childPath}" is missing`;
    }
    const problem = check(
      (value as Record<string, unknown>)[key],
      field[key]!,
      childPath,
    );
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}
