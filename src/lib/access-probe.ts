/**
 * Whether the root key may take an action, found out before its form opens. The services say so only by refusing,
 * so a probe sends the smallest request the service must authorize that changes nothing: it passes the schema,
 * reaches the permission check, and is then refused for a reason that writes nothing (each probe says which, and
 * what it costs on the real service). The answer is remembered for the session (./access-memory.ts), so a probe is
 * sent at most once per root key and slot.
 */
import { ApiError, isApiErrorOf } from "./api-errors";
import { isMissingOperation } from "./api/list-keys";
import type { Connection } from "./api/transport";
import {
  isAllowedAt,
  learnAllowed,
  learnMissingOperation,
  learnRefused,
  refusalAt,
  type AccessSlot,
} from "./access-memory";

/**
 * `allowed` and `refused` are the service's answer; `unknown`: no honest probe, or it failed (offline, 5xx), so the
 * form opens and its own answer will say; `not-found`: an answer that is a missing thing or, as the real service
 * masks some refusals, a missing permission (the caller's `isNotFound` says which answers are); `missing`: the
 * service has no such operation.
 */
export type ProbeAnswer = "allowed" | "refused" | "unknown" | "not-found" | "missing";

/** Whether `error` is the service refusing the root key a permission (a 403 insufficient_permissions). */
export function isPermissionRefusal(error: unknown): error is ApiError {
  return isApiErrorOf(error, "authorization:insufficient_permissions") && error.status === 403;
}

export interface Probe {
  /** The answer already known, if any (the memory's, by default). */
  known?: () => ProbeAnswer | undefined;
  /** The request; its success proves the permission too. */
  request: () => Promise<unknown>;
  /** A refusal that comes after the permission check, so proves it. */
  isAllowedAnswer: (error: ApiError) => boolean;
  /** A refusal that may be the permission masked as "not found". */
  isNotFound?: (error: ApiError) => boolean;
  /** Remembers the answer (the memory's slot, by default). */
  learn?: { allowed: () => void; failed: (error: unknown) => ProbeAnswer };
}

/** The memory's answer for `slot`, if it has one. */
export function knownAt(connection: Connection, slot: AccessSlot): ProbeAnswer | undefined {
  if (refusalAt(connection, slot) !== undefined) return "refused";
  return isAllowedAt(connection, slot) ? "allowed" : undefined;
}

/** The memory's answer for `slot`, or unknown: for an action no request finds out without acting. */
export function knownOrUnknown(connection: Connection, slot: AccessSlot): ProbeAnswer {
  return knownAt(connection, slot) ?? "unknown";
}

/** Runs `probe.request` unless the answer is known, and remembers what it says. */
export async function runProbe(connection: Connection, slot: AccessSlot, probe: Probe): Promise<ProbeAnswer> {
  const known = probe.known?.() ?? knownAt(connection, slot);
  if (known !== undefined) return known;
  const learn = probe.learn ?? {
    allowed: () => learnAllowed(connection, slot),
    failed: (error: unknown) => {
      if (isMissingOperation(error)) {
        learnMissingOperation(connection, slotPath(error));
        return "missing";
      }
      if (!isPermissionRefusal(error)) return "unknown";
      learnRefused(connection, slot, error.detail);
      return "refused";
    },
  };
  try {
    await probe.request();
    learn.allowed();
    return "allowed";
  } catch (error) {
    if (error instanceof ApiError && probe.isAllowedAnswer(error)) {
      learn.allowed();
      return "allowed";
    }
    if (error instanceof ApiError && probe.isNotFound?.(error) === true) return "not-found";
    return learn.failed(error);
  }
}

/** The operation a missing-operation error was the answer of (its URL's path). */
function slotPath(error: unknown): string {
  const url = typeof error === "object" && error !== null && "url" in error ? error.url : undefined;
  if (typeof url !== "string") return "";
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
