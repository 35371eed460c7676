/**
 * Deep-freezing tool schemas, once per distinct object.
 *
 * @module
 */

/** Every object this module froze with everything under it; shared by all registries. */
const deepFrozen = new WeakSet<object>();

/**
 * Freezes `value` and every object under its data properties, so that a
 * handler cannot edit a schema that every later assembly shares. An object
 * seen before costs one WeakSet lookup, so a provider that returns the same
 * schema each step pays for the walk once (bench/registry_bench.ts).
 * Accessors are not called; cycles are fine.
 *
 * @throws {TypeError} When an object cannot be frozen (a typed array with
 * elements, a proxy whose trap throws): a schema is plain JSON data.
 */
export function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null || deepFrozen.has(value)) {
    return;
  }
  // Marked first, so a cycle ends here; unmarked again if freezing fails.
  deepFrozen.add(value);
  try {
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
      if (descriptor !== undefined && "value" in descriptor) {
        deepFreeze(descriptor.value);
      }
    }
    Object.freeze(value);
  } catch (error) {
    deepFrozen.delete(value);
    throw error;
  }
}
