/**
 * Subagent backends. Each declares whether its subagent inherits the
 * parent's context, so the subagent tool can describe it truthfully.
 *
 * @module
 */

import type { Plugin } from "../host.ts";

/** A way to run a subagent, as the subagent tool needs to know it. */
export interface SubagentProvider {
  /** The backend's name. */
  readonly name: string;
  /** How it runs the subagent, in a few words for the tool description. */
  readonly runs: string;
  /** Whether the subagent starts with a copy of the parent's conversation. */
  readonly inheritsParentContext: boolean;
}

/** A new local agent process with an empty context. */
export const SPAWN: SubagentProvider = {
  name: "spawn",
  runs: "a new local agent process",
  inheritsParentContext: false,
};

/** An agent reached over the Agent Client Protocol, with an empty context. */
export const ACP: SubagentProvider = {
  name: "acp",
  runs: "an agent reached over the Agent Client Protocol",
  inheritsParentContext: false,
};

/** A fork of this agent that starts with a copy of its conversation. */
export const FORK: SubagentProvider = {
  name: "fork",
  runs: "a fork of this agent",
  inheritsParentContext: true,
};

function backendPlugin(provider: SubagentProvider): Plugin {
  return {
    name: provider.name,
    load({ provide }) {
      provide("subagent-backend", provider);
    },
  };
}

/** Offers the `spawn` backend. */
export const spawnPlugin: Plugin = backendPlugin(SPAWN);
/** Offers the `acp` backend. */
export const acpPlugin: Plugin = backendPlugin(ACP);
/** Offers the `fork` backend. */
export const forkPlugin: Plugin = backendPlugin(FORK);
