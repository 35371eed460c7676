/**
 * Builds a registry and loads a config's plugins into it, in order.
 *
 * @module
 */

import { SystemPrompt } from "@dsh/system-prompt";
import type { AgentContext } from "./agent.ts";
import type { AgentConfig } from "./config.ts";
import { PluginHost } from "./host.ts";
import { HostError } from "./host_error.ts";
import { PLUGINS } from "./plugins/catalog.ts";

/**
 * A host with every plugin of `config` loaded in the declared order.
 *
 * @throws {HostError} For an unknown plugin name or a plugin that fails to
 * load.
 */
export function startAgent(config: AgentConfig): PluginHost {
  const host = new PluginHost(new SystemPrompt<AgentContext>(), config);
  for (const name of config.plugins) {
    const plugin = PLUGINS.get(name);
    if (plugin === undefined) {
      throw new HostError(
        `Cannot load plugin "${name}": no such plugin; known plugins are ` +
          [...PLUGINS.keys()].map((known) => `"${known}"`).join(", "),
        { plugin: name },
      );
    }
    host.load(plugin);
  }
  return host;
}
