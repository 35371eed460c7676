/**
 * `SystemPrompt.registrations()`: a fresh description of a snapshot.
 *
 * @module
 */

import type { Snapshot } from "./_registry_store.ts";
import type { PromptRegistrations } from "./registrations.ts";

/** The snapshot's registrations and their owners, in assembly order. */
export function describeRegistrations<C>(
  snapshot: Snapshot<C>,
): PromptRegistrations {
  const owned = <T extends object>(value: T, owner: string | undefined) =>
    owner === undefined ? value : { ...value, owner };
  return {
    sections: snapshot.sections.map((s) =>
      owned(
        s.layout?.list === undefined
          ? { name: s.name, order: s.order }
          : { name: s.name, order: s.order, list: true as const },
        s.owner,
      )
    ),
    variables: snapshot.variables.map((v) => owned({ name: v.name }, v.owner)),
    toolProviders: snapshot.tools.map((t) => owned({}, t.owner)),
    handlers: snapshot.handlers.labels.map((l) =>
      owned({ handler: l.handler }, l.owner)
    ),
    items: snapshot.items.map((i) =>
      owned({ list: i.list, name: i.name }, i.owner)
    ),
    itemProviders: snapshot.itemProviders.map((p) =>
      owned({ list: p.list }, p.owner)
    ),
  };
}
