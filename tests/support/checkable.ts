// A hand-built registry for checkPrompt: what assemble() returns and what
// registrations() says, without a SystemPrompt behind them.
import type { PromptAssembly, PromptRegistrations } from "../../mod.ts";
import type { CheckablePrompt } from "../../inspect.ts";

export type Context = Record<string, unknown>;

export function checkable(
  assemble: (context: Context) => PromptAssembly | Promise<PromptAssembly>,
  registrations: Partial<PromptRegistrations> = {},
): CheckablePrompt<Context> {
  return {
    registrations: () => ({
      sections: [],
      contexts: [],
      variables: [],
      toolProviders: [],
      handlers: [],
      items: [],
      itemProviders: [],
      layers: [],
      toolOrder: ["<unlisted-tools>"],
      ...registrations,
    }),
    assemble: async (context = {}) => await assemble(context),
  };
}

/** An assembly of these sections as they are (of any shape), no tools or variables unless given. */
export function rawAssembly(
  sections: unknown[],
  extra: Partial<PromptAssembly> = {},
): PromptAssembly {
  return {
    sections: sections as PromptAssembly["sections"],
    tools: [],
    variables: Object.create(null),
    ...extra,
  };
}
