import type { Key } from "@/lib/contract";
import { formatCount, formatCountOf } from "@/lib/format-number";

/** Keys whose name, id or visible prefix contains the query, ignoring case. */
export function filterKeys<TKey extends Key>(keys: readonly TKey[], query: string): readonly TKey[] {
  const needle = query.trim().toLowerCase();
  if (needle === "") return keys;
  return keys.filter(
    (key) =>
      (key.name?.toLowerCase().includes(needle) ?? false) ||
      key.keyId.toLowerCase().includes(needle) ||
      (key.start?.toLowerCase().includes(needle) ?? false),
  );
}

/** An exact key id, which the API can look up directly instead of paging through every key. */
export function exactKeyId(query: string): string | null {
  const trimmed = query.trim();
  return /^key_[A-Za-z0-9]{4,}$/.test(trimmed) ? trimmed : null;
}

/** "25 keys", "3 of 25 keys shown", "100 keys loaded, more available", "3 of 100 loaded keys shown, more available". */
export function countText(loaded: number, shown: number, narrowed: boolean, hasMore: boolean): string {
  if (narrowed) {
    return hasMore
      ? `${formatCount(shown)} of ${formatCountOf(loaded, "loaded key")} shown, more not loaded yet`
      : `${formatCount(shown)} of ${formatCountOf(loaded, "key")} shown`;
  }
  return hasMore ? `${formatCountOf(loaded, "key")} loaded, more available` : formatCountOf(loaded, "key");
}

/** The count while the filter is a key id found with `keys.getKey`: that key is not one of the loaded ones. */
export const FOUND_BY_ID_COUNT = "1 key, found by its id";

/** The count while the filter found keys of an identity with the server, not only among the loaded ones. */
export function identityCount(shown: number): string {
  return `${formatCountOf(shown, "key")}, found by external id`;
}

/** Which keys the status counts count: all loaded, or those the text filter matches (#28.12), and whether more exist. */
export function statusCountScope(counted: number, loaded: number, filter: string, hasMore: boolean): string {
  if (filter !== "") {
    const matching = `${formatCount(counted)} ${counted === 1 ? "key that matches" : "keys that match"} “${filter}”`;
    return hasMore
      ? `Counted among the ${matching}, of the ${formatCount(loaded)} looked at so far; more are not loaded.`
      : `Counted among the ${matching}, of ${formatCount(loaded)}.`;
  }
  return hasMore
    ? `Counted among the ${formatCount(loaded)} keys looked at so far; more are not loaded.`
    : `Counted among all ${formatCount(loaded)} keys.`;
}
