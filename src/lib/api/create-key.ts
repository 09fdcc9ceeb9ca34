import { CREATE_KEY_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { NewSecretSchema, type KeyFieldsInput } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

export interface CreateKeyRequest extends KeyFieldsInput {
  apiId: string;
  prefix?: string;
  byteLength?: number;
  name?: string;
  externalId?: string;
  meta?: Record<string, unknown>;
  expires?: number;
}

/**
 * `keys.createKey`: the new key's id and its secret, which the service shows this once. The caller shows it and
 * lets go of it; it must not go into a cache, a store or a log (the journal replaces it).
 */
export async function createKey(
  connection: Connection,
  request: CreateKeyRequest,
  options: RequestOptions = {},
): Promise<{ keyId: string; secret: string; requestId: string | null }> {
  const { data, requestId } = await callOperation(
    connection,
    CREATE_KEY_PATH,
    { ...request },
    NewSecretSchema,
    options,
  );
  return { keyId: data.keyId, secret: data.key, requestId };
}
