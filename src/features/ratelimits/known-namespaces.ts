/**
 * The rate-limit namespaces this browser knows, per connection: no v2 operation lists them, so each is typed once
 * (its name or its id), checked with the service, and remembered here, in localStorage, for the connection's scope
 * (the base URL and a fingerprint of the root key: another root key may be another workspace's). Only names and
 * namespace ids are written, never a key. A namespace's id, which its history needs (analytics names namespaces by
 * id), is kept beside its name once learnt.
 */
import { useSyncExternalStore } from "react";
import * as v from "valibot";
import type { Connection } from "@/lib/api/transport";
import { connectionScopeId } from "@/lib/connection-scope";
import { useLocalStore } from "@/lib/hooks/use-local-store";
import { createLocalStore } from "@/lib/local-store";
import { isNamespaceId } from "@/lib/ratelimit-sql";

export interface KnownNamespace {
  /** As typed: its name, or its id when that is what was typed. */
  name: string;
  /** Its id (`rlns_…`), once known. */
  id?: string | undefined;
}

export const NAMESPACES_ITEM = "keyscope.ratelimit-namespaces";
/** The service's bound on a namespace's name. */
export const NAMESPACE_MAX_LENGTH = 512;
/** How many one connection keeps: the list is a person's, not a catalogue. */
export const KNOWN_NAMESPACES_MAX = 200;

const Name = v.pipe(v.string(), v.minLength(1), v.maxLength(NAMESPACE_MAX_LENGTH));
const Stored = v.object({
  byConnection: v.record(
    v.string(),
    v.array(v.object({ name: Name, id: v.optional(v.pipe(v.string(), v.check(isNamespaceId))) })),
  ),
});
type StoredNamespaces = v.InferOutput<typeof Stored>;

const EMPTY: StoredNamespaces = { byConnection: {} };
const NONE: readonly KnownNamespace[] = [];

const store = createLocalStore(
  NAMESPACES_ITEM,
  (stored) => {
    const parsed = v.safeParse(Stored, stored);
    return parsed.success ? parsed.output : null;
  },
  EMPTY,
);

/** What the page names the namespace by, and asks the service with: its name, or the id typed. */
export function namespaceKey(name: string): string {
  return name.trim();
}

function listOf(connection: Connection): readonly KnownNamespace[] {
  return store.read().byConnection[connectionScopeId(connection)] ?? NONE;
}

/** Field by field, so that nothing but a name and an id reaches storage. */
function save(connection: Connection, namespaces: readonly KnownNamespace[]): void {
  const all = store.read().byConnection;
  const list = namespaces.map(({ name, id }) => (id === undefined ? { name } : { name, id }));
  store.write({ byConnection: { ...all, [connectionScopeId(connection)]: list } });
}

/** Ids learnt in this tab, also for a namespace that is not remembered (or that storage refused to keep). */
const learntIds = new Map<string, string>();
const idListeners = new Set<() => void>();

export function useKnownNamespaces(connection: Connection): readonly KnownNamespace[] {
  const stored = useLocalStore(store);
  return stored.byConnection[connectionScopeId(connection)] ?? NONE;
}

export function findKnownNamespace(connection: Connection, name: string): KnownNamespace | undefined {
  return listOf(connection).find((namespace) => namespace.name === namespaceKey(name));
}

/**
 * Remembers a namespace the service said exists (and its id, when told or typed). Throws when the browser refuses
 * storage; the caller says so. The newest first; past the bound, the oldest is let go.
 */
export function rememberNamespace(connection: Connection, name: string, id?: string): void {
  const key = namespaceKey(name);
  const before = findKnownNamespace(connection, key);
  const knownId =
    id ??
    before?.id ??
    learntIds.get(`${connectionScopeId(connection)}|${key}`) ??
    (isNamespaceId(key) ? key : undefined);
  if (before !== undefined && before.id === knownId) return;
  const others = listOf(connection).filter((namespace) => namespace.name !== key);
  save(connection, [{ name: key, id: knownId }, ...others].slice(0, KNOWN_NAMESPACES_MAX));
}

/**
 * A namespace's id, learnt after it was typed (from a refusal's words, an analytics lookup, or typed): kept for the
 * tab, and with the namespace when it is remembered (a browser that refuses storage keeps it for the tab only).
 */
export function learnNamespaceId(connection: Connection, name: string, id: string): void {
  if (!isNamespaceId(id)) return;
  const key = namespaceKey(name);
  const slot = `${connectionScopeId(connection)}|${key}`;
  if (learntIds.get(slot) !== id) {
    learntIds.set(slot, id);
    for (const listener of idListeners) listener();
  }
  const list = listOf(connection);
  if (!list.some((namespace) => namespace.name === key && namespace.id !== id)) return;
  try {
    save(
      connection,
      list.map((namespace) => (namespace.name === key ? { ...namespace, id } : namespace)),
    );
  } catch {
    // Kept for the tab above; nothing to tell: the history shows either way.
  }
}

function subscribeToIds(listener: () => void): () => void {
  idListeners.add(listener);
  return () => idListeners.delete(listener);
}

/** The namespace's id, when known: typed as one, remembered with it, or learnt in this tab. */
export function useNamespaceId(connection: Connection, name: string): string | undefined {
  const key = namespaceKey(name);
  const remembered = useKnownNamespaces(connection).find((namespace) => namespace.name === key)?.id;
  const learnt = useSyncExternalStore(subscribeToIds, () => learntIds.get(`${connectionScopeId(connection)}|${key}`));
  return isNamespaceId(key) ? key : (remembered ?? learnt);
}

/** Namespaces the browser refused to store (site data blocked, storage full), by connection and name, for the tab. */
const unstored = new Set<string>();

/**
 * Remembers a namespace the service confirmed, opened however it was (typed, or a link); a browser that refuses
 * storage is noted, for the page to say (useUnstored), instead of thrown.
 */
export function rememberConfirmed(connection: Connection, name: string, id: string | undefined): void {
  if (findKnownNamespace(connection, name) !== undefined) return;
  try {
    rememberNamespace(connection, name, id);
  } catch {
    unstored.add(`${connectionScopeId(connection)}|${namespaceKey(name)}`);
    for (const listener of idListeners) listener();
  }
}

/** Whether the browser refused to remember the namespace in this tab. */
export function useUnstored(connection: Connection, name: string): boolean {
  return useSyncExternalStore(subscribeToIds, () =>
    unstored.has(`${connectionScopeId(connection)}|${namespaceKey(name)}`),
  );
}

/** For tests. */
export function forgetLearntIds(): void {
  learntIds.clear();
  unstored.clear();
  for (const listener of idListeners) listener();
}

/** Throws when the browser refuses storage; the caller says so. */
export function forgetNamespace(connection: Connection, name: string): void {
  const key = namespaceKey(name);
  save(
    connection,
    listOf(connection).filter((namespace) => namespace.name !== key),
  );
}

/** What the browser says when it refuses storage. */
export const STORAGE_REFUSED =
  "This browser refused to save it (site data is blocked or storage is full): the namespace works for now, but will not be remembered.";

/** What the browser says when it refuses to forget (it cannot write the list without it). */
export const FORGET_REFUSED =
  "This browser refused to change its storage (site data is blocked): nothing was forgotten.";
