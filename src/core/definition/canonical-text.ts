/**
 * One text for a value, the same whatever order its object keys were written in and in every process:
 * what a template's content version hashes. Functions count by their source (a `where` or a derived
 * slot decides messages as much as a text does), Maps and Sets by their sorted entries, and a value
 * seen again on the way down (a cycle) as a marker, so encoding never loops.
 */
export function canonicalText(value: unknown): string {
  return encode(value, new Set());
}

function encode(value: unknown, path: Set<object>): string {
  if (value === undefined) return "u";
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : `n:${String(value)}`;
  if (typeof value === "bigint") return `b:${value}`;
  if (typeof value === "symbol") return `s:${value.description ?? ""}`;
  if (typeof value === "function") return `f:${JSON.stringify(Function.prototype.toString.call(value))}`;
  const object = value as object;
  if (path.has(object)) return "cycle";
  path.add(object);
  try {
    if (value instanceof Date) return `d:${value.getTime()}`;
    if (value instanceof RegExp) return `r:${JSON.stringify(String(value))}`;
    if (Array.isArray(value)) return `[${value.map((item) => encode(item, path)).join(",")}]`;
    if (value instanceof Map) {
      const entries = [...value].map(([key, item]) => `${encode(key, path)}:${encode(item, path)}`);
      return `M{${entries.sort().join(",")}}`;
    }
    if (value instanceof Set)
      return `S{${[...value]
        .map((item) => encode(item, path))
        .sort()
        .join(",")}}`;
    const keys = Object.keys(object).sort();
    const entries = keys
      .filter((key) => (object as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${encode((object as Record<string, unknown>)[key], path)}`);
    return `{${entries.join(",")}}`;
  } finally {
    path.delete(object);
  }
}
