/**
 * Whether this root key may take an action, found out before its form opens. The services say so only by
 * refusing, so each probe sends the smallest request the service must authorize that changes nothing: it passes
 * the schema, reaches the permission check (which the real service runs after finding the key or the API), and is
 * then refused for a reason that writes nothing. Where no such request exists (deleteKey: after the check there
 * is only the delete), there is no probe; the dialog says the permission is unknown until tried.
 *
 * An answer is remembered per action and API for the session (see refusals.ts), so a probe is sent at most once
 * per root key and API (per key, when the key's API is unknown).
 */
import { type ApiError, isApiErrorOf } from "@/lib/api-errors";
import { changeKeyPermissions } from "@/lib/api/key-permissions";
import { changeKeyRoles } from "@/lib/api/key-roles";
import type { Connection } from "@/lib/api/transport";
import { callOperation } from "@/lib/api/call-operation";
import { EmptyDataSchema, NewSecretSchema } from "@/lib/api/key-changes";
import { CREATE_KEY_PATH, UPDATE_KEY_PATH, type Key } from "@/lib/contract";
import { rememberApi } from "@/lib/known-apis";
import { runProbe, type ProbeAnswer as SessionProbeAnswer } from "@/lib/access-probe";
import {
  apiOf,
  keyActionSlot,
  isAmbiguousCreateNotFound,
  isKnownAllowed,
  learnAllowed,
  learnCreateRefusedAsNotFound,
  learnRefusal,
  refusalOf,
  type ActionTarget,
  type KeyAction,
} from "../refusals";

/**
 * `allowed` and `refused` are the service's answer; `unknown`: no honest probe, or it failed (offline, 5xx), so
 * the form opens and its own answer will say; `not-found`: createKey's 404, which is a missing API or, as the real
 * service masks it, a missing create_key.
 */
export type ProbeAnswer = Exclude<SessionProbeAnswer, "missing">;

/** Runs `request` unless the answer is known; `isAllowedAnswer` reads a refusal that still proves the permission. */
function probe(
  connection: Connection,
  action: KeyAction,
  target: ActionTarget,
  request: () => Promise<unknown>,
  isAllowedAnswer: (error: ApiError) => boolean,
): Promise<ProbeAnswer> {
  return runProbe(connection, keyActionSlot(connection, action, target), {
    request,
    isAllowedAnswer,
    // A key action's refusal may name the key's API, which is learnt with it.
    learn: {
      allowed: () => learnAllowed(connection, action, target),
      failed: (error) => {
        learnRefusal(connection, action, error, target);
        return refusalOf(connection, action, target) === undefined ? "unknown" : "refused";
      },
    },
  }).then((answer) => (answer === "missing" ? "unknown" : answer));
}

const never = () => false;

/** The answer updateKey gives a monthly refill without its day, which both services check after update_key. */
function isMonthlyRefillWithoutDay(error: ApiError): boolean {
  return error.status === 400 && /refillDay.*must be provided when/.test(error.detail);
}

/**
 * updateKey of a monthly refill without `refillDay`, which the schema lets through and the handler refuses inside
 * its transaction, after finding the key and checking update_key, before it writes. Cost on the real service: the
 * key read, the workspace's default project ensured, a transaction opened and rolled back; no write, no audit-log
 * entry; one request of the root key's rate limit. Were a service to accept it, the key's refill would change: the
 * reference server and the real one refuse it (test/server/key-changes/permission-probes.test.ts).
 */
export function probeUpdate(connection: Connection, key: Key): Promise<ProbeAnswer> {
  return probe(
    connection,
    "update_key",
    { keyId: key.keyId },
    () =>
      callOperation(
        connection,
        UPDATE_KEY_PATH,
        { keyId: key.keyId, credits: { refill: { interval: "monthly", amount: 1 } } },
        EmptyDataSchema,
      ),
    isMonthlyRefillWithoutDay,
  );
}

/** The answer createKey gives a refill without `credits.remaining`, which both services check after create_key. */
function isRefillWithoutRemaining(error: ApiError): boolean {
  return error.status === 400 && /credits\.remaining.*must be provided when/.test(error.detail);
}

/**
 * createKey with a refill but `credits.remaining: null`, which the schema lets through and the handler refuses
 * after the API lookup and the create_key check. Cost on the real service: the API and its keyspace read, a secret
 * generated and hashed in memory, the workspace's default project ensured (created only if it never was), a
 * transaction opened and rolled back; no key, no audit-log entry; one request of the root key's rate limit. Were
 * a service to accept it anyway, the key would be disabled and named for what it is.
 *
 * `knownToExist`: the API is the connection's or was found; then a 404 is the masked refusal, else it is either.
 */
export async function probeCreate(connection: Connection, apiId: string, knownToExist: boolean): Promise<ProbeAnswer> {
  const target = { apiId };
  const seen: { notFound?: ApiError } = {};
  const answer = await probe(
    connection,
    "create_key",
    target,
    () =>
      // Not through createKey, whose request type takes valid credits only: this body is refused by design.
      callOperation(
        connection,
        CREATE_KEY_PATH,
        {
          apiId,
          name: "Keyscope permission check (refused by design; safe to delete)",
          enabled: false,
          credits: { remaining: null, refill: { interval: "daily", amount: 1 } },
        },
        NewSecretSchema,
      ),
    (error) => {
      if (isAmbiguousCreateNotFound(error)) seen.notFound = error;
      return isRefillWithoutRemaining(error);
    },
  );
  // Refused for the refill rule, or let through: either way the service found the API.
  if (answer === "allowed") rememberApi(connection, apiId);
  if (seen.notFound === undefined) return answer;
  if (!knownToExist) return "not-found";
  learnCreateRefusedAsNotFound(connection, apiId, seen.notFound);
  return "refused";
}

/** Rerolling makes a key: the real service asks create_key on the key's API, so the createKey probe there answers it. */
export function probeReroll(connection: Connection, key: Key): Promise<ProbeAnswer> {
  const apiId = apiOf(connection, { keyId: key.keyId });
  if (apiId === undefined)
    return Promise.resolve(
      refusalOf(connection, "create_key", { keyId: key.keyId }) === undefined ? "unknown" : "refused",
    );
  return probeCreate(connection, apiId, true);
}

/** A permission or role name no workspace holds: a probe asking for it is refused as not found, after the permission check. */
function absentName(): string {
  const random = crypto.getRandomValues(new Uint32Array(4));
  return `keyscope.probe.${Array.from(random, (part) => part.toString(36)).join("")}`;
}

const notFoundOf = (kind: "data:permission_not_found" | "data:role_not_found") => (error: ApiError) =>
  error.status === 404 && isApiErrorOf(error, kind);

/**
 * addPermissions of a permission the key already holds directly: nothing to add. Honest only when all of the key's
 * permissions are its own (it has no roles: the Key object merges a role's permissions into `permissions`, and
 * adding one of those would make it direct). Cost on the real service: the key and its permissions read, the
 * default project ensured, a transaction that locks the key row and inserts nothing, the key's verification
 * cache entry dropped; no audit-log entry. Otherwise unknown until tried.
 */
export function probeAddPermission(connection: Connection, key: Key): Promise<ProbeAnswer> {
  const held = key.permissions?.[0];
  const target = { keyId: key.keyId };
  if (held === undefined || (key.roles?.length ?? 0) > 0)
    return Promise.resolve(knownOrUnknown(connection, "add_permission_to_key", target));
  return probe(
    connection,
    "add_permission_to_key",
    target,
    () => changeKeyPermissions(connection, key.keyId, "add", [held]),
    never,
  );
}

/** removePermissions of a permission no workspace has: 404 after the check. Cost on the real service: three reads. */
export function probeRemovePermission(connection: Connection, key: Key): Promise<ProbeAnswer> {
  return probe(
    connection,
    "remove_permission_from_key",
    { keyId: key.keyId },
    () => changeKeyPermissions(connection, key.keyId, "remove", [absentName()]),
    notFoundOf("data:permission_not_found"),
  );
}

/** addRoles of a role no workspace has: 404 after the check. Cost on the real service: three reads. */
export function probeAddRole(connection: Connection, key: Key): Promise<ProbeAnswer> {
  return probe(
    connection,
    "add_role_to_key",
    { keyId: key.keyId },
    () => changeKeyRoles(connection, key.keyId, "add", [absentName()]),
    notFoundOf("data:role_not_found"),
  );
}

/**
 * Before the Permissions and roles dialog: update_key (every change there needs it), then the rbac actions it may
 * send, at once; each refusal is said in the dialog before its form. Answers update_key's refusal (no dialog), else
 * whether adding a permission stays unknown (said in the dialog); a refused one still opens it, as removing may be allowed.
 */
export async function probeAccess(connection: Connection, key: Key): Promise<ProbeAnswer> {
  if ((await probeUpdate(connection, key)) === "refused") return "refused";
  const [addPermission] = await Promise.all([
    probeAddPermission(connection, key),
    probeRemovePermission(connection, key),
    probeAddRole(connection, key),
  ]);
  return addPermission === "refused" ? "allowed" : addPermission;
}

/** What is known without a probe: a remembered refusal or success, else unknown. */
export function knownOrUnknown(connection: Connection, action: KeyAction, target: ActionTarget): ProbeAnswer {
  if (refusalOf(connection, action, target) !== undefined) return "refused";
  return isKnownAllowed(connection, action, target) ? "allowed" : "unknown";
}
