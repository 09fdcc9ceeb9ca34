import { listKeys } from "@/lib/api/list-keys";
import type { CreateKeyRequest } from "@/lib/api/create-key";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import { NetworkError, TimeoutError } from "@/lib/api-errors";

/** The service's clock and this browser's may differ: a key made this long before the request started still counts. */
export const CLOCK_MARGIN_MS = 10 * 60_000;
/** Keys are listed by id, not by age: at most this many pages are looked through (an externalId filter needs one). */
const MAX_PAGES = 10;
const PAGE_SIZE = 100;

/**
 * Whether a createKey that failed this way may have made the key anyway: the request left and no answer came back
 * (a timeout, a connection cut). Offline or refused by the browser (CORS), it never reached the service.
 */
export function mayHaveCreated(error: unknown): boolean {
  if (error instanceof TimeoutError) return true;
  return error instanceof NetworkError && error.failure !== "offline" && error.failure !== "cors";
}

/**
 * The keys of the request's API created since shortly before `since` with its name and external id: what a
 * createKey that got no answer may have made. `complete`: every key of the API was looked at.
 */
export async function findCreatedKeys(
  connection: Connection,
  request: CreateKeyRequest,
  since: number,
  signal?: AbortSignal,
): Promise<{ keys: Key[]; complete: boolean }> {
  const scoped: Connection = { ...connection, apiId: request.apiId };
  const matches = (key: Key) =>
    (key.createdAt ?? Number.POSITIVE_INFINITY) >= since - CLOCK_MARGIN_MS &&
    (key.name ?? "") === (request.name ?? "") &&
    (key.identity?.externalId ?? "") === (request.externalId ?? "");
  const found: Key[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = await listKeys(
      scoped,
      {
        limit: PAGE_SIZE,
        ...(request.externalId !== undefined && { externalId: request.externalId }),
        ...(cursor !== undefined && { cursor }),
      },
      signal === undefined ? {} : { signal },
    );
    found.push(...listed.keys.filter(matches));
    if (!listed.hasMore || listed.cursor === undefined) return { keys: found, complete: true };
    cursor = listed.cursor;
  }
  return { keys: found, complete: false };
}
