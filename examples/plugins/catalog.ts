/**
 * The plugins a config can name.
 *
 * @module
 */

import type { Plugin } from "../host.ts";
import { agentLoopPlugin } from "./agent_loop.ts";
import { bashPlugin } from "./bash.ts";
import { clockPlugin } from "./clock.ts";
import { readPlugin } from "./read.ts";
import { subagentPlugin } from "./subagent.ts";
import { acpPlugin, forkPlugin, spawnPlugin } from "./subagent_backends.ts";
import { todoPlugin } from "./todo.ts";
import { toolRegistryPlugin } from "../tool_registry.ts";

/** Every example plugin, by the name a config lists it under. */
export const PLUGINS: ReadonlyMap<string, Plugin> = new Map(
  [
    agentLoopPlugin,
    clockPlugin,
    bashPlugin,
    readPlugin,
    todoPlugin,
    spawnPlugin,
    acpPlugin,
    forkPlugin,
    subagentPlugin,
    toolRegistryPlugin,
  ]
    .map((plugin) => [plugin.name, plugin]),
);
