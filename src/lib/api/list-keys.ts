import { InvalidConnectionError, UnexpectedResponseError } from "../api-errors";
import { listKeysPaths, type Key, type ListKeysRequest } from "../contract";
import { callOperation } from "./call-operation";
import { KeysDataSchema } from "./schemas";
import type { Connection, RequestOptions } from "./transport";

/** What the keys list asks for besides the page cursor. */
export type ListKeysParams = Omit<ListKeysRequest, "cursor">;

export interface KeysPage {
  keys: Key[];
  cursor: string | undefined;
  hasMore: boolean;
  requestId: string | null;
}

/**
 * One page of keys. `POST /v2/keys.listKeys` (the reference server) by default; with the connection's `apiId`,
 * the real service's `POST /v2/apis.listKeys`, falling back to `keys.listKeys` where that does not exist.
 * When `keys.listKeys` does not exist either and no `apiId` is known, an InvalidConnectionError asks for one.
 */
export async function listKeys(
  connection: Connection,
  request: ListKeysRequest = {},
  options: RequestOptions = {},
): Promise<KeysPage> {
  // The connection's API ID picks the real service's operation; an `apiId` in the request alone is a filter.
  const connectionApiId = connection.apiId?.trim() || undefined;
  const apiId = request.apiId ?? connectionApiId;
  const body = { ...request, apiId };
  const paths = listKeysPaths(connectionApiId);
  for (const [index, path] of paths.entries()) {
    try {
      const { data, requestId, pagination } = await callOperation(connection, path, body, KeysDataSchema, options);
      const hasMore = pagination?.hasMore ?? false;
      return { keys: data, cursor: hasMore ? pagination?.cursor : undefined, hasMore, requestId };
    } catch (error) {
      const last = index === paths.length - 1;
      if (!isMissingOperation(error) || (last && apiId !== undefined)) throw error;
    }
  }
  throw new InvalidConnectionError("api-id-required");
}

/** A 404 that is not the service's error envelope: the server has no such operation (a router's own 404). */
export function isMissingOperation(error: unknown): boolean {
  return error instanceof UnexpectedResponseError && error.status === 404;
}
