// JSON with every object's keys sorted: a registry keeps a tool's last key
// order on purpose, so tests that compare registries compare the data.

/** `value` as JSON, every object's keys sorted. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
    const sorted = Object.create(null) as Record<string, unknown>;
    for (const k of Object.keys(v).sort()) {
      Object.defineProperty(sorted, k, {
        value: (v as Record<string, unknown>)[k],
        enumerable: true,
      });
    }
    return sorted;
  });
}
