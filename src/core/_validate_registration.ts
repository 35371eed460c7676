/**
 * Checks a registration before the registry stores it. Wrong JS types throw
 * `TypeError`; rule violations throw `PromptError`.
 *
 * @module
 */

import { describeValue } from "./_describe_value.ts";
import { invalidSection, invalidVariableName } from "./_errors.ts";
import type { SectionEntry } from "./_entries.ts";
import { sectionLayout } from "./_validate_layout.ts";
import { STABILITIES } from "./_stabilities.ts";
import { isReferenceName } from "./reference_name.ts";
import type { PromptSection } from "./types.ts";

/**
 * The section's entry: every field read once, so a getter that answers
 * differently the second time cannot slip an unchecked value past.
 */
export function sectionEntry<C>(
  section: PromptSection<C>,
  owner: string | undefined,
): SectionEntry<C> {
  if (typeof section !== "object" || section === null) {
    throw new TypeError(
      `Cannot add section: expected { name, order, text }, got ${
        describeValue(section)
      }`,
    );
  }
  const { name, order, text, stability } = section;
  if (typeof name !== "string") {
    throw new TypeError(
      `Cannot add section: name must be a string, got ${describeValue(name)}`,
    );
  }
  if (name === "") {
    throw invalidSection(name, owner, "name must not be empty");
  }
  if (typeof order !== "number") {
    throw new TypeError(
      `Cannot add section "${name}": order must be a number, got ${
        describeValue(order)
      }`,
    );
  }
  if (!Number.isFinite(order)) {
    throw invalidSection(name, owner, `order must be finite, got ${order}`);
  }
  if (typeof text !== "string" && typeof text !== "function") {
    throw new TypeError(
      `Cannot add section "${name}": text must be a string or a function, got ${
        describeValue(text)
      }`,
    );
  }
  if (stability !== undefined && !STABILITIES.includes(stability)) {
    throw invalidSection(
      name,
      owner,
      `stability must be "static", "session" or "step", got ${
        typeof stability === "string"
          ? JSON.stringify(stability)
          : describeValue(stability)
      }`,
    );
  }
  const layout = sectionLayout(section, name);
  return { name, order, text, owner, stability, layout };
}

/** Throws unless `name` can be spelled in a `{{reference}}`. */
export function requireVariableName(
  name: unknown,
  owner: string | undefined,
): asserts name is string {
  if (typeof name !== "string" || !isReferenceName(name)) {
    throw invalidVariableName(name, owner);
  }
}

/** Throws a `TypeError` unless `value` is a function. */
export function requireFunction(value: unknown, what: string): void {
  if (typeof value !== "function") {
    throw new TypeError(
      `Cannot add ${what}: expected a function, got ${describeValue(value)}`,
    );
  }
}
