/**
 * Whether this root key may create, change or delete identities, found out before their forms (src/lib/access-probe.ts
 * runs them and remembers the answer for the session). The services check `identity.*.<action>` (or its URN form)
 * for the whole workspace, so one answer per action holds for every identity.
 */
import { useQuery } from "@tanstack/react-query";
import { knownOrUnknown, runProbe, type ProbeAnswer } from "@/lib/access-probe";
import { isApiErrorOf, type ApiError } from "@/lib/api-errors";
import { createIdentity, type IdentityRatelimitInput } from "@/lib/api/create-identity";
import { deleteIdentity } from "@/lib/api/delete-identity";
import type { Connection } from "@/lib/api/transport";
import { updateIdentity } from "@/lib/api/update-identity";
import { identityPermission, type IdentityAction } from "@/lib/contract";
import { queryKeys } from "@/lib/query-keys";

/** The session memory's slot of an action on identities. */
export function identitySlot(action: IdentityAction) {
  return { action, on: "identities" };
}

/** The permission an action on identities needs (its URN form aside, which a dashboard's user rarely holds). */
export function neededFor(action: IdentityAction): string[] {
  return [identityPermission(action)];
}

/** One rate limit named twice: both services refuse it (400) after the permission check, before anything is read. */
const TWICE: IdentityRatelimitInput[] = [1, 2].map(() => ({
  name: "keyscope_permission_check",
  limit: 1,
  duration: 1000,
  autoApply: false,
}));

const isNamedTwice = (error: ApiError) => error.status === 400 && /already defined in the request/.test(error.detail);

/**
 * updateIdentity with a rate limit named twice: refused after the permission check and before the identity is even
 * looked up (both services). Cost on the real service: the body read and the root key checked; nothing read or written.
 */
export function probeUpdate(connection: Connection, identityId: string): Promise<ProbeAnswer> {
  return runProbe(connection, identitySlot("update_identity"), {
    request: () => updateIdentity(connection, identityId, { ratelimits: TWICE }),
    isAllowedAnswer: isNamedTwice,
  });
}

/**
 * deleteIdentity of an identity no workspace has: 404 after the permission check. Cost on the real service: one
 * lookup by id or external id; nothing written.
 */
export function probeDelete(connection: Connection): Promise<ProbeAnswer> {
  const absent = `keyscope_permission_check_${Array.from(crypto.getRandomValues(new Uint32Array(3)), (part) => part.toString(36)).join("")}`;
  return runProbe(connection, identitySlot("delete_identity"), {
    request: () => deleteIdentity(connection, absent),
    isAllowedAnswer: (error) => error.status === 404 && isApiErrorOf(error, "data:identity_not_found"),
  });
}

/**
 * createIdentity of an external id the workspace has, with a rate limit named twice: the real service refuses it as a
 * conflict (409), inside a transaction it rolls back; the reference server for the name given twice (400), before it
 * writes. Both after the permission check. Cost on the real service: a transaction opened and rolled back (the
 * workspace's default project ensured: created only if it never was); no identity, no audit-log entry. Were the
 * identity deleted meanwhile, the names given twice fail its rate limits' unique index and nothing is kept either.
 * Without an identity known to exist, unknown until tried.
 */
export function probeCreate(connection: Connection, existingExternalId: string | undefined): Promise<ProbeAnswer> {
  const slot = identitySlot("create_identity");
  if (existingExternalId === undefined) return Promise.resolve(knownOrUnknown(connection, slot));
  return runProbe(connection, slot, {
    request: () => createIdentity(connection, { externalId: existingExternalId, ratelimits: TWICE }),
    isAllowedAnswer: (error) =>
      (error.status === 409 && isApiErrorOf(error, "data:identity_already_exists")) || isNamedTwice(error),
  });
}

/**
 * The probe's answer as a query, asked when a form is about to open (`enabled`): the form waits for it, and says a
 * refusal before anything is typed.
 */
export function useProbe(
  connection: Connection,
  action: IdentityAction,
  enabled: boolean,
  probe: () => Promise<ProbeAnswer>,
) {
  return useQuery({
    queryKey: queryKeys.identities.may(connection, action),
    queryFn: probe,
    enabled,
    retry: false,
    // The memory keeps the answer; "Check again" forgets it there and asks this again.
    staleTime: 0,
    gcTime: 0,
  });
}
