import { updateKey } from "../../../lib/api/update-key";
import type { Connection } from "../../../lib/api/transport";
import type { Key } from "../../../lib/contract";
import { isKnownAllowed, learnAllowed, learnRefusal, refusalOf } from "../refusals";

/**
 * Whether this root key may update `key`, found out before a form opens. The services say so only by refusing, so
 * this sends the smallest update they must authorize: `enabled` set to what it already is. Its cost: on the
 * reference server one write that sets the same value and `updatedAt`; on the real service (the v2 updateKey
 * handler loads the live key, checks `api.*.update_key` or `api.<apiId>.update_key`, then runs the update in a
 * transaction) the same, plus one audit-log entry "key.update" for the key and one request of the root key's rate
 * limit. The answer is remembered for the session, so it is sent at most once per root key.
 */
export async function mayUpdate(connection: Connection, key: Key): Promise<boolean> {
  if (refusalOf(connection, "update_key") !== undefined) return false;
  if (isKnownAllowed(connection, "update_key")) return true;
  try {
    await updateKey(connection, key.keyId, { enabled: key.enabled !== false });
    learnAllowed(connection, "update_key");
    return true;
  } catch (error) {
    learnRefusal(connection, "update_key", error);
    // Any other failure (offline, 5xx) leaves it unknown: the form opens and its own answer will say.
    return refusalOf(connection, "update_key") === undefined;
  }
}
