/**
 * A small plugin host: each plugin gets its own scope of the registry (the
 * analogue of the seed's calling fiber), and unloading it disposes the scope.
 *
 * @module
 */

import type {
  PromptAssembly,
  PromptScope,
  RenderedStep,
  SystemPrompt,
} from "@dsh/system-prompt";
import type { AgentContext } from "./agent.ts";
import type { AgentConfig } from "./config.ts";
import { HostError } from "./host_error.ts";
import type { AgentLoop } from "./plugins/agent_loop.ts";
import type { SubagentProvider } from "./plugins/subagent_backends.ts";
import type { ToolRegistry } from "./tool_registry.ts";

/** What plugins offer each other, by key. */
export interface Services {
  "agent-loop": AgentLoop;
  "subagent-backend": SubagentProvider;
  "tool-registry": ToolRegistry;
}

/** What a plugin gets while it loads. */
export interface PluginContext {
  /** The plugin's own scope: everything registered here is unloaded with it. */
  readonly prompt: PromptScope<AgentContext>;
  /** The config the host was started with. */
  readonly config: AgentConfig;
  /** Assembles the shared registry for one agent (to inspect a step). */
  assemble(context: AgentContext): Promise<PromptAssembly>;
  /**
   * Renders one step for `agent` (a key kept for the agent's lifetime),
   * remembering its last step: what the agent loop sends.
   */
  render(context: AgentContext, agent: object): Promise<RenderedStep>;
  /** Offers a service to plugins loaded later; withdrawn on unload. */
  provide<K extends keyof Services>(key: K, service: Services[K]): void;
  /** A service a plugin loaded earlier offers, or `undefined`. */
  service<K extends keyof Services>(key: K): Services[K] | undefined;
}

/** A plugin: a name and what it registers when it loads. */
export interface Plugin {
  readonly name: string;
  load(context: PluginContext): void;
}

interface Loaded {
  readonly scope: PromptScope<AgentContext>;
  readonly services: (keyof Services)[];
}

/** Loads plugins in order, each into its own scope. */
export class PluginHost {
  readonly prompt: SystemPrompt<AgentContext>;
  readonly config: AgentConfig;
  readonly #loaded = new Map<string, Loaded>();
  readonly #services = new Map<
    keyof Services,
    { plugin: string; service: unknown }
  >();

  constructor(prompt: SystemPrompt<AgentContext>, config: AgentConfig) {
    this.prompt = prompt;
    this.config = config;
  }

  /** Names of the loaded plugins, in load order. */
  get plugins(): string[] {
    return [...this.#loaded.keys()];
  }

  /**
   * Loads one plugin into a new scope. If it throws, whatever it registered
   * is disposed and the error is rethrown as a {@linkcode HostError}.
   */
  load(plugin: Plugin): void {
    if (this.#loaded.has(plugin.name)) {
      throw new HostError(
        `Cannot load plugin "${plugin.name}": it is already loaded`,
        {
          plugin: plugin.name,
        },
      );
    }
    const scope = this.prompt.scope(plugin.name);
    const loaded: Loaded = { scope, services: [] };
    try {
      plugin.load({
        prompt: scope,
        config: this.config,
        assemble: (context) => this.prompt.assemble(context),
        render: (context, agent) => this.prompt.render(context, { agent }),
        provide: (key, service) => {
          const existing = this.#services.get(key);
          if (existing !== undefined) {
            throw new Error(
              `service "${key}" is already provided by "${existing.plugin}"`,
            );
          }
          this.#services.set(key, { plugin: plugin.name, service });
          loaded.services.push(key);
        },
        service: (key) => this.service(key),
      });
    } catch (cause) {
      scope.dispose();
      for (const key of loaded.services) this.#services.delete(key);
      const message = cause instanceof Error ? cause.message : String(cause);
      throw new HostError(`Cannot load plugin "${plugin.name}": ${message}`, {
        plugin: plugin.name,
        cause,
      });
    }
    this.#loaded.set(plugin.name, loaded);
  }

  /** Unloads a plugin: disposes its scope and withdraws its services. */
  unload(name: string): void {
    const loaded = this.#loaded.get(name);
    if (loaded === undefined) return;
    this.#loaded.delete(name);
    loaded.scope.dispose();
    for (const key of loaded.services) this.#services.delete(key);
  }

  /** A service offered by a loaded plugin, or `undefined`. */
  service<K extends keyof Services>(key: K): Services[K] | undefined {
    return this.#services.get(key)?.service as Services[K] | undefined;
  }
}
