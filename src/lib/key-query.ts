import { queryOptions } from "@tanstack/react-query";
import { getKey } from "./api/get-key";
import type { Connection } from "./api/transport";
import { queryKeys } from "./query-keys";

/**
 * One key by its id (`keys.getKey`), under one query key wherever it is shown: the key's page, the keys list's
 * lookup of an exact id, and the key actions' cache all read and change the same entry. The key is in it only as
 * a fingerprint; the connection's API is not (getKey does not send it).
 */
export function keyQueryOptions(connection: Connection, keyId: string) {
  return queryOptions({
    queryKey: queryKeys.keys.detail(connection, keyId),
    queryFn: async ({ signal }) => (await getKey(connection, keyId, { signal })).key,
  });
}
