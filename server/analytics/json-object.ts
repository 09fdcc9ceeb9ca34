/** An object of a parse tree from DuckDB's `json_serialize_sql` (not null, not an array), its fields still unknown. */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
