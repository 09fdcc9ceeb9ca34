import { ApiError, InvalidConnectionError, UnexpectedResponseError } from "../api-errors";
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

/**
 * The server has no such operation: a 404 that is not the service's error envelope (a router's own, as the real
 * service's answers an unknown path), or the reference server's own 404 for a path it serves nothing at.
 */
export function isMissingOperation(error: unknown): boolean {
  if (error instanceof UnexpectedResponseError) return error.status === 404;
  return error instanceof ApiError && error.status === 404 && error.kind === "routing:not_found";
}
