/**
 * A listing's JSON, kept: a deep-frozen copy of what a server sent, made
 * once per listing. The registry knows a deep-frozen schema by identity
 * (no walk of it on later steps), and the client's own objects stay as
 * they were. Only plain JSON data is copied; anything else comes back as
 * `undefined`, so that the caller keeps the original and the registry
 * refuses it with the path at fault, as it refuses any tool's.
 *
 * @module
 */

/** As deep as the registry lets a schema nest. */
const MAX_DEPTH = 1000;

/** Not plain JSON data: the copy gives up. */
const NOT_JSON: unique symbol = Symbol("not JSON data");

/**
 * A deep-frozen copy of `value` if it is plain JSON data (plain objects and
 * arrays whose own fields are data properties, strings, finite numbers,
 * booleans, null; no hole, no `undefined`, no cycle, at most 1,000 levels),
 * else `undefined`. Never throws: a read that throws gives up too.
 */
export function frozenJson(value: unknown): unknown {
  const copy = (value: unknown, depth: number): unknown => {
    if (value === null || typeof value === "string") return value;
    if (typeof value === "boolean") return value;
    if (typeof value === "number") {
      if (Number.isFinite(value)) return value;
      throw NOT_JSON;
    }
    if (typeof value !== "object" || depth >= MAX_DEPTH) throw NOT_JSON;
    const proto = Object.getPrototypeOf(value);
    if (Array.isArray(value)) {
      if (proto !== Array.prototype) throw NOT_JSON;
      const items: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        items.push(copy(field(value, String(i)), depth + 1));
      }
      return Object.freeze(items);
    }
    if (proto !== Object.prototype && proto !== null) throw NOT_JSON;
    const entries: [string, unknown][] = [];
    for (const key of Object.keys(value)) {
      entries.push([key, copy(field(value, key), depth + 1)]);
    }
    // Entries, not assignments: a `__proto__` key stays an own field.
    return Object.freeze(Object.fromEntries(entries));
  };
  try {
    return copy(value, 0);
  } catch {
    return undefined;
  }
}

/**
 * An own data property's value, read as `JSON.stringify` and the registry
 * read it (a Proxy's `get` trap may answer otherwise than its target's
 * descriptor); a getter, or none (a hole), gives up.
 */
function field(value: object, key: string): unknown {
  const found = Object.getOwnPropertyDescriptor(value, key);
  if (found === undefined || !("value" in found)) throw NOT_JSON;
  const read = (value as Record<string, unknown>)[key];
  if (read === undefined) throw NOT_JSON;
  return read;
}
