import type { Key } from "../../lib/contract";

/** The fields a change may carry to the other tabs: the ones a bulk run changes (never a secret). */
export type KeyFieldsPatch = Required<Pick<Key, "enabled">>;

/**
 * How a change reaches what the page shows: the app implements it over the queries of the keys list and the key's
 * page (features do not know each other's query keys). Never given a secret.
 */
export interface KeyCache {
  /** Shows a change at once; returns how to undo it when the service refuses. */
  patchKey: (keyId: string, patch: Partial<Key>) => () => void;
  /**
   * Changes the service confirmed, field by field (a bulk enable or disable): shown here and in the other tabs as
   * they are, with no request; each key is reloaded where it is next shown.
   */
  keysPatched: (keyIds: readonly string[], patch: KeyFieldsPatch) => void;
  /** After a change, reloads what the service says now (the key, and the lists that show it). */
  refreshKey: (keyId: string) => Promise<void>;
  /**
   * A new key: fetched and put at the top of the lists it belongs to (this connection, its API, no externalId
   * filter); other lists reload. `apiId`: the key's API when it may not be the connection's.
   */
  keyCreated: (keyId: string, apiId?: string) => Promise<void>;
  /** A deleted key: out of every list at once. */
  keyDeleted: (keyId: string) => void;
}
