/**
 * The agent config: persona words, the agent's facts and the plugin list.
 * Every deployment-authored word of the prompt comes from here, not code.
 *
 * @module
 */

import type { Agent } from "./agent.ts";
import { HostError } from "./host_error.ts";

/** A parsed, validated config file. */
export interface AgentConfig {
  /** The agent the demo assembles for. */
  agent: Agent;
  /** Identity and behaviour: the persona section's words. */
  persona: { identity: string; behaviour: string };
  /** Plugin names, in load order. */
  plugins: string[];
}

/**
 * Parses and validates a config file's text.
 *
 * @param source Names the file in errors.
 * @throws {HostError} If the text is not JSON or a field is missing or of
 * the wrong type.
 */
export function parseConfig(text: string, source: string): AgentConfig {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    throw new HostError(`Cannot read config ${source}: it is not valid JSON`, {
      cause,
    });
  }
  const config = data as AgentConfig;
  const fail = (field: string, expected: string): never => {
    throw new HostError(
      `Cannot read config ${source}: "${field}" must be ${expected}`,
    );
  };
  if (typeof data !== "object" || data === null) fail("(root)", "an object");
  if (typeof config.agent?.model !== "string") fail("agent.model", "a string");
  if (typeof config.agent?.cwd !== "string") fail("agent.cwd", "a string");
  if (typeof config.persona?.identity !== "string") {
    fail("persona.identity", "a string");
  }
  if (typeof config.persona?.behaviour !== "string") {
    fail("persona.behaviour", "a string");
  }
  if (
    !Array.isArray(config.plugins) ||
    !config.plugins.every((p) => typeof p === "string")
  ) {
    fail("plugins", "an array of plugin names");
  }
  return config;
}
