import { useSyncExternalStore } from "react";
import type { Connection } from "@/lib/api/transport";
import { connectionScopeId } from "@/lib/connection-scope";

/**
 * The analytics queries the Logs page sent from this tab in the last hour, per connection: what the page says it
 * spends of the workspace's quota (1,000 an hour on the real service, shared by every user and tab). In memory only.
 */
const HOUR_MS = 3_600_000;
const sent = new Map<string, number[]>();
const listeners = new Set<() => void>();
let version = 0;

function recent(scope: string, now: number): number[] {
  const times = (sent.get(scope) ?? []).filter((time) => time > now - HOUR_MS);
  sent.set(scope, times);
  return times;
}

/** Counts one query sent now. */
export function recordQuery(connection: Connection, now = Date.now()): void {
  const scope = connectionScopeId(connection);
  sent.set(scope, [...recent(scope, now), now]);
  version += 1;
  for (const listener of listeners) listener();
}

export function queriesInLastHour(connection: Connection, now = Date.now()): number {
  return recent(connectionScopeId(connection), now).length;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The count at `now` (the page's clock), read again whenever a query is sent. */
export function useQueriesInLastHour(connection: Connection, now: number): number {
  useSyncExternalStore(
    subscribe,
    () => version,
    () => version,
  );
  return queriesInLastHour(connection, now);
}
