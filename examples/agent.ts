/**
 * What the example agent loop passes to `assemble()`.
 *
 * The seed's `dsh-agent` adds `agent?: Agent` to `AssembleContext` by
 * declaration merging; these examples use the generic form instead
 * (`SystemPrompt<AgentContext>`), which a JSR package can publish.
 *
 * @module
 */

/** One running agent: the facts the agent loop owns. */
export interface Agent {
  /** The model the agent runs on. */
  model: string;
  /** The agent's working directory. */
  cwd: string;
}

/** The assemble context of the examples. Fields are optional: `{}` is valid. */
export interface AgentContext {
  agent?: Agent;
  /** When this step runs, as an ISO 8601 timestamp. */
  time?: string;
}
