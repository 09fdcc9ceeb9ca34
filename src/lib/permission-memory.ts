/**
 * What a root key was refused, and seen allowed, per action where it applies, for this session (memory only: gone
 * with the tab). The services tell a root key's permissions only by refusing, and may grant an action on one API or
 * namespace alone, so each answer is remembered for its `slot` (the action and what it acts on, as its feature words
 * it), under the connection's scope: the first refusal of an action there is said before anyone fills its form again.
 *
 * A probe is the smallest request the service must authorize that changes nothing: `probePermission` sends it unless
 * the answer is known, and remembers what it learns. The key actions and the rate-limit pages each keep a memory.
 */
import { ApiError, isApiErrorOf } from "./api-errors";
import type { Connection } from "./api/transport";
import { connectionScopeId } from "./connection-scope";

/** Whether `error` is the service refusing the root key a permission (a 403 insufficient_permissions). */
export function isPermissionRefusal(error: unknown): error is ApiError {
  return isApiErrorOf(error, "authorization:insufficient_permissions") && error.status === 403;
}

export interface PermissionMemory<R> {
  refuse: (connection: Connection, slot: string, refusal: R) => void;
  /** The action went through (or a probe proved it): allowed there, and a refusal remembered before is gone. */
  allow: (connection: Connection, slot: string) => void;
  /** The user says it was granted since: what was learnt there is forgotten, to be found out again. */
  forget: (connection: Connection, slot: string) => void;
  refusalOf: (connection: Connection, slot: string) => R | undefined;
  isAllowed: (connection: Connection, slot: string) => boolean;
  subscribe: (listener: () => void) => () => void;
  /** Tells the subscribers that something the feature derives from its answers changed. */
  changed: () => void;
  /** For tests. */
  clear: () => void;
}

export function createPermissionMemory<R>(): PermissionMemory<R> {
  const refusals = new Map<string, R>();
  const allowed = new Set<string>();
  const listeners = new Set<() => void>();
  const at = (connection: Connection, slot: string) => `${connectionScopeId(connection)}|${slot}`;
  const changed = () => {
    for (const listener of listeners) listener();
  };
  return {
    refuse(connection, slot, refusal) {
      refusals.set(at(connection, slot), refusal);
      changed();
    },
    allow(connection, slot) {
      const where = at(connection, slot);
      const news = !allowed.has(where);
      allowed.add(where);
      if (refusals.delete(where) || news) changed();
    },
    forget(connection, slot) {
      const where = at(connection, slot);
      refusals.delete(where);
      allowed.delete(where);
      changed();
    },
    refusalOf: (connection, slot) => refusals.get(at(connection, slot)),
    isAllowed: (connection, slot) => allowed.has(at(connection, slot)),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    changed,
    clear() {
      refusals.clear();
      allowed.clear();
      changed();
    },
  };
}

/**
 * `allowed` and `refused` are the service's answer; `unknown`: no honest probe, or it failed (offline, 5xx), so the
 * form opens and its own answer will say; `not-found`: the thing acted on is not there (or, where a service masks a
 * refusal as not found, possibly not allowed).
 */
export type ProbeAnswer = "allowed" | "refused" | "unknown" | "not-found";

export interface Probe {
  /** What is known without asking, if anything. */
  known: () => ProbeAnswer | undefined;
  request: () => Promise<unknown>;
  /** A refusal that still proves the permission: the request was refused after the check, for a reason that writes nothing. */
  isAllowedAnswer: (error: ApiError) => boolean;
  allow: () => void;
  /** Learns from a failure; answers whether it was the permission's refusal. */
  learn: (error: unknown) => boolean;
}

/** Runs a probe unless its answer is known, and remembers what it finds. */
export async function probePermission(probe: Probe): Promise<ProbeAnswer> {
  const known = probe.known();
  if (known !== undefined) return known;
  try {
    await probe.request();
    probe.allow();
    return "allowed";
  } catch (error) {
    if (error instanceof ApiError && probe.isAllowedAnswer(error)) {
      probe.allow();
      return "allowed";
    }
    return probe.learn(error) ? "refused" : "unknown";
  }
}
