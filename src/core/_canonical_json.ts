/**
 * Canonical JSON: keys sorted at every depth, so that equal tools write
 * equal text whatever order their keys were added in.
 *
 * @module
 */

/**
 * JSON with the keys of every object sorted (by UTF-16 code units, as
 * `Array.prototype.sort` compares strings), arrays in order; otherwise as
 * `JSON.stringify` writes it (`toJSON` is called, fields holding
 * `undefined`, a function or a symbol are left out, and in arrays written
 * `null`; non-finite numbers are `null`).
 */
export function canonicalJson(value: unknown): string {
  const write = (value: unknown, key: string): string | undefined => {
    if (
      typeof value === "object" && value !== null || typeof value === "bigint"
    ) {
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === "function") value = toJSON.call(value, key);
    }
    if (value === null) return "null";
    switch (typeof value) {
      case "string":
      case "boolean":
        return JSON.stringify(value);
      case "number":
        return Number.isFinite(value) ? JSON.stringify(value) : "null";
      case "object":
        break;
      case "bigint":
        // As JSON.stringify does.
        throw new TypeError("Do not know how to serialize a BigInt");
      default:
        return undefined;
    }
    if (
      value instanceof Number || value instanceof String ||
      value instanceof Boolean
    ) {
      return JSON.stringify(value);
    }
    if (Array.isArray(value)) {
      const items = value.map((item, i) => write(item, String(i)) ?? "null");
      return `[${items.join(",")}]`;
    }
    const record = value as Record<string, unknown>;
    const fields: string[] = [];
    for (const name of Object.keys(record).sort()) {
      const field = write(record[name], name);
      if (field !== undefined) fields.push(`${JSON.stringify(name)}:${field}`);
    }
    return `{${fields.join(",")}}`;
  };
  return write(value, "") ?? "null";
}
