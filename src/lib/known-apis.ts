/**
 * The APIs of the workspace this dashboard has come to know in the session (memory only): the v2 API has no
 * operation that lists them, so they are gathered from what the service said: an API found by `apis.getApi` (with
 * its name), one a key was created in, one a refusal named.
 */
import { useSyncExternalStore } from "react";
import type { Connection } from "./api/transport";
import { connectionScopeId as scopeOf } from "./connection-scope";

export interface KnownApi {
  apiId: string;
  /** Its name, when `apis.getApi` told it. */
  name?: string | undefined;
}

const known = new Map<string, ReadonlyMap<string, KnownApi>>();
const listeners = new Set<() => void>();
const NONE: ReadonlyMap<string, KnownApi> = new Map();

/** Remembers that `apiId` exists (a name, once told, is kept). */
export function rememberApi(connection: Connection, apiId: string, name?: string): void {
  const scope = scopeOf(connection);
  const apis = known.get(scope) ?? NONE;
  const before = apis.get(apiId);
  const nextName = name ?? before?.name;
  if (before !== undefined && before.name === nextName) return;
  // A new map, so that a snapshot read before stays what it was.
  known.set(scope, new Map(apis).set(apiId, { apiId, name: nextName }));
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useKnownApis(connection: Connection): ReadonlyMap<string, KnownApi> {
  return useSyncExternalStore(subscribe, () => known.get(scopeOf(connection)) ?? NONE);
}

/** For tests. */
export function forgetKnownApis(): void {
  known.clear();
  for (const listener of listeners) listener();
}
