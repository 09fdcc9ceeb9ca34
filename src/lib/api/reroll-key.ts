import { REROLL_KEY_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { NewSecretSchema } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

/**
 * `keys.rerollKey`: a new key with the old one's settings; the old one keeps working for `expirationMs` (0: stops
 * at once). The new secret is shown this once, like createKey's.
 */
export async function rerollKey(
  connection: Connection,
  keyId: string,
  expirationMs: number,
  options: RequestOptions = {},
): Promise<{ keyId: string; secret: string; requestId: string | null }> {
  const { data, requestId } = await callOperation(
    connection,
    REROLL_KEY_PATH,
    { keyId, expiration: expirationMs },
    NewSecretSchema,
    options,
  );
  return { keyId: data.keyId, secret: data.key, requestId };
}
