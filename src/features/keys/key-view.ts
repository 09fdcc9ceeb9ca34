import type { Key } from "../../lib/contract";

/** How a listed key is presented: its status, which optional columns the API sent, and the filter. */

export type KeyStatus = "enabled" | "disabled" | "expired";

/** Expired wins over disabled: an expired key cannot be used whatever its flag says. Null when the API sent neither field. */
export function keyStatus(key: Key, now: number): KeyStatus | null {
  if (key.expires !== undefined && key.expires < now) return "expired";
  if (key.enabled === false) return "disabled";
  if (key.enabled === true || key.expires !== undefined) return "enabled";
  return null;
}

export type OptionalColumn = "start" | "status" | "createdAt" | "expires";

/** The optional columns worth showing: those for fields at least one loaded key carries. */
export function columnsFor(keys: readonly Key[]): OptionalColumn[] {
  const has = { start: false, status: false, createdAt: false, expires: false };
  for (const key of keys) {
    if (key.start !== undefined) has.start = true;
    if (key.enabled !== undefined || key.expires !== undefined) has.status = true;
    if (key.createdAt !== undefined) has.createdAt = true;
    if (key.expires !== undefined) has.expires = true;
    if (has.start && has.status && has.createdAt && has.expires) break;
  }
  return (["start", "status", "createdAt", "expires"] as const).filter((column) => has[column]);
}

/** Keys whose name, id or visible prefix contains the query, ignoring case. */
export function filterKeys(keys: readonly Key[], query: string): readonly Key[] {
  const needle = query.trim().toLowerCase();
  if (needle === "") return keys;
  return keys.filter(
    (key) =>
      (key.name?.toLowerCase().includes(needle) ?? false) ||
      key.keyId.toLowerCase().includes(needle) ||
      (key.start?.toLowerCase().includes(needle) ?? false),
  );
}

/** "25 keys", "3 of 25 keys match", "100 keys loaded, more available". */
export function countText(total: number, matching: number, filtering: boolean, hasMore: boolean): string {
  const keys = (count: number) => `${count.toLocaleString("en")} ${count === 1 ? "key" : "keys"}`;
  if (filtering) {
    const of = hasMore ? `${keys(total)} loaded` : keys(total);
    return `${matching.toLocaleString("en")} of ${of} match${matching === 1 ? "es" : ""}`;
  }
  return hasMore ? `${keys(total)} loaded, more available` : keys(total);
}
