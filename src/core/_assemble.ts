/**
 * One `assemble()` call: a snapshot of the registry resolved against a
 * context, then the `system-prompt/assemble` waterfall.
 *
 * @module
 */

import type { AssembleHandlers } from "./_assemble_handlers.ts";
import { auditedHandlers } from "./_audit.ts";
import { isThenable } from "./_is_thenable.ts";
import type { Snapshot } from "./_registry_store.ts";
import {
  checkHandledTools,
  resolveSections,
  resolveVariables,
} from "./_resolve_assembly.ts";
import { resolveTools } from "./_resolve_tools.ts";
import type { AuditEntry, PromptAssembly } from "./types.ts";
import { runWaterfall } from "./waterfall.ts";

/**
 * Assembles `snapshot` for `context`. Never throws: a failure is the
 * returned promise's rejection.
 *
 * @param separator The registry's prompt-wide separator, if it has one.
 */
export function assembleSnapshot<C>(
  snapshot: Snapshot<C>,
  context: C,
  audit: boolean,
  separator: string | undefined,
): Promise<PromptAssembly> {
  const { sections, variables, tools, handlers, lists } = snapshot;
  try {
    // Fast path: no handlers, no names to check again afterwards.
    const names = handlers.handlers.length === 0 && !audit ? undefined : [];
    // User code runs in this order: section texts, tools, variables.
    const resolvedSections = resolveSections(sections, context, lists);
    const resolved = resolveTools(tools, context, names);
    const assembly: PromptAssembly = {
      sections: resolvedSections,
      tools: resolved,
      variables: resolveVariables(variables, context),
    };
    if (separator !== undefined) assembly.separator = separator;
    if (names === undefined) return Promise.resolve(assembly);
    if (audit) return assembleAudited(handlers, assembly, context, names);
    const result = runWaterfall(
      handlers.handlers,
      assembly,
      context,
      handlers.options,
    );
    return isThenable(result)
      ? result.then((done) => checkHandledTools(done, resolved, names))
      : Promise.resolve(checkHandledTools(result, resolved, names));
  } catch (error) {
    return Promise.reject(error);
  }
}

async function assembleAudited<C>(
  handlers: AssembleHandlers<C>,
  assembly: PromptAssembly,
  context: C,
  names: readonly string[],
): Promise<PromptAssembly> {
  const log: AuditEntry[] = [];
  const resolved = assembly.tools;
  const audited = auditedHandlers(handlers.handlers, handlers.labels, log);
  const result = checkHandledTools(
    await runWaterfall(audited, assembly, context, handlers.options),
    resolved,
    names,
  );
  result.audit = log;
  return result;
}
