import type { Connection } from "./api/transport";
import { fingerprint } from "./fingerprint";

/**
 * Which connection a cached answer, a remembered fact or a message between tabs belongs to: the base URL and the
 * root key's fingerprint, never the key itself. The connection's API is not part of it: only what reads the API
 * (the keys list) adds it where it is read.
 */
export interface ConnectionScope {
  baseUrl: string;
  keyFingerprint: string;
}

export function connectionScope(connection: Connection): ConnectionScope {
  return { baseUrl: connection.baseUrl, keyFingerprint: fingerprint(connection.apiKey) };
}

/** The scope as one string: a key of a Map, or what a message to the other tabs says it is about. */
export function connectionScopeId(connection: Connection): string {
  const { baseUrl, keyFingerprint } = connectionScope(connection);
  return `${baseUrl}|${keyFingerprint}`;
}

/** Whether `scope` (read back from a query key or a message) is this connection's. */
export function isScopeOf(scope: ConnectionScope, connection: Connection): boolean {
  const own = connectionScope(connection);
  return scope.baseUrl === own.baseUrl && scope.keyFingerprint === own.keyFingerprint;
}
