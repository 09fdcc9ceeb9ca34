/** A plain object read back from storage or a message (not null, not an array), whose fields are still unknown. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
