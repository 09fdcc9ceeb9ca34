import type { KeyRecord, KeyStore } from "../db/key-store";
import { isAllowed, keyRule } from "../auth/permissions";
import { creditsAt } from "./credits";
import type { KeyRateLimiter, RateLimitCheck } from "./key-rate-limiter";
import { satisfies, type PermissionQuery } from "./permission-query";

export type VerifyCode =
  | "VALID"
  | "NOT_FOUND"
  | "FORBIDDEN"
  | "INSUFFICIENT_PERMISSIONS"
  | "USAGE_EXCEEDED"
  | "RATE_LIMITED"
  | "DISABLED"
  | "EXPIRED";

export interface RequestedRateLimit {
  name: string;
  cost?: number;
  limit?: number;
  duration?: number;
}

export interface VerifyRequest {
  /** The SHA-256 of the secret asked about: the secret itself never reaches this module. */
  keyHash: string;
  tags?: readonly string[];
  permissions?: PermissionQuery;
  credits?: { cost: number };
  ratelimits?: readonly RequestedRateLimit[];
  /** The address the verify call came from (an API's IP whitelist is checked against it); unknown for `traffic`. */
  clientAddress?: string;
}

/** Whether a call from `address` may verify keys of an API with this stored whitelist (none: every address may). */
function addressAllowed(whitelist: string | null, address: string | undefined): boolean {
  if (whitelist === null) return true;
  const allowed = whitelist
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  return allowed.length === 0 || (address !== undefined && allowed.includes(address));
}

export interface VerifyContext {
  store: KeyStore;
  limiter: KeyRateLimiter;
  /** The root key asking. */
  caller: { workspaceId: string; permissions: string };
  /** Recorded as the verification's `request_id`: the verify call's `meta.requestId`. */
  requestId: string;
  now: number;
  region: string;
}

export interface StoredRateLimit {
  id: string;
  name: string;
  limit: number;
  duration: number;
  autoApply: boolean;
}

export interface VerifyRateLimitData extends StoredRateLimit {
  exceeded: boolean;
  reset: number;
  remaining: number;
}

/** The `data` of the verify answer (docs/api.md#verifying-a-key). */
export interface VerifyData {
  valid: boolean;
  code: VerifyCode;
  keyId?: string;
  name?: string;
  meta?: Record<string, unknown>;
  expires?: number;
  credits?: number;
  enabled?: boolean;
  permissions?: string[];
  roles?: string[];
  identity?: { id: string; externalId: string; meta?: Record<string, unknown>; ratelimits?: StoredRateLimit[] };
  ratelimits?: VerifyRateLimitData[];
}

export type VerifyResult =
  | { kind: "verified"; data: VerifyData }
  /**
   * `ratelimits[index]` names no rate limit of the key nor of its identity and gives no limit and duration of its
   * own: a 412 naming the key, and its identity when it has one.
   */
  | {
      kind: "unknown_ratelimit";
      index: number;
      name: string;
      keyId: string;
      identity?: { id: string; externalId: string };
    };

const DEFAULT_COST = 1;

function parseJson<T>(text: string): T {
  // Written by this server's own code and checked by the schema (json_valid / json_type): not network data.
  return JSON.parse(text) as T;
}

function storedRateLimits(json: string): StoredRateLimit[] {
  return json === "[]" ? [] : parseJson<StoredRateLimit[]>(json);
}

/**
 * The rate limits this verification checks: the auto-applied ones of the key and of its identity, then the named
 * ones asked for. A key's own limit takes precedence over its identity's of the same name, as on the real
 * service; an identity's limit is one counter (its id) shared by all the identity's keys.
 */
function rateLimitsToCheck(
  key: KeyRecord,
  requested: readonly RequestedRateLimit[],
): { checks: RateLimitCheck[]; limits: StoredRateLimit[] } | { unknown: number; name: string } {
  const known = new Map<string, StoredRateLimit>();
  for (const limit of storedRateLimits(key.identity_ratelimits)) known.set(limit.name, limit);
  for (const limit of storedRateLimits(key.ratelimits)) known.set(limit.name, limit);
  const limits: StoredRateLimit[] = [];
  const checks: RateLimitCheck[] = [];
  const costs = new Map<string, number>();
  for (const limit of known.values()) if (limit.autoApply) costs.set(limit.name, DEFAULT_COST);

  const overrides = new Map<string, RequestedRateLimit>();
  for (const [index, ask] of requested.entries()) {
    if (!known.has(ask.name) && (ask.limit === undefined || ask.duration === undefined))
      return { unknown: index, name: ask.name };
    overrides.set(ask.name, ask);
    costs.set(ask.name, ask.cost ?? DEFAULT_COST);
  }
  for (const [name, cost] of costs) {
    const own = known.get(name);
    const ask = overrides.get(name);
    const limit: StoredRateLimit = {
      id: own?.id ?? `${key.id}:${name}`,
      name,
      limit: ask?.limit ?? own?.limit ?? 0,
      duration: ask?.duration ?? own?.duration ?? 1,
      autoApply: own?.autoApply ?? false,
    };
    limits.push(limit);
    checks.push({ id: limit.id, limit: limit.limit, durationMs: limit.duration, cost });
  }
  return { checks, limits };
}

function keyFacts(key: KeyRecord, credits: number | null): VerifyData {
  const data: VerifyData = { valid: false, code: "VALID", keyId: key.id, enabled: key.enabled === 1 };
  if (key.name !== "") data.name = key.name;
  if (key.meta !== null) data.meta = parseJson<Record<string, unknown>>(key.meta);
  if (key.expires !== null) data.expires = key.expires;
  if (credits !== null) data.credits = credits;
  if (key.identity_id !== null && key.external_id !== null) {
    data.identity = { id: key.identity_id, externalId: key.external_id };
    if (key.identity_meta !== null) data.identity.meta = parseJson<Record<string, unknown>>(key.identity_meta);
    if (key.identity_ratelimits !== "[]") data.identity.ratelimits = storedRateLimits(key.identity_ratelimits);
  }
  return data;
}

/**
 * `keys.verifyKey`'s semantics, atomically (an immediate transaction of its own, or a savepoint inside the one open:
 * the route's group commit, traffic's batch): find the key by its hash, decide its fate in the real service's order
 * (disabled, expired, IP whitelist, permissions, rate limits, credits), spend credits, set `last_used_at`, and record the
 * verification for analytics. The admin CLI's `traffic` runs this same code.
 */
export function verifyKey(request: VerifyRequest, context: VerifyContext): VerifyResult {
  const { store, caller, now } = context;
  return store.transaction((): VerifyResult => {
    const found = store.findKeyToVerify(request.keyHash);
    const key = found?.key.workspace_id === caller.workspaceId ? found.key : undefined;

    // Another workspace's key, or one of an API the root key may not verify, is not found (and not recorded), as on
    // the real service: nothing tells the caller it exists.
    if (
      key === undefined ||
      !isAllowed(
        caller.permissions,
        keyRule("verify_key", { workspaceId: caller.workspaceId, apiId: key.api_id, keyId: key.id }),
      )
    ) {
      return { kind: "verified", data: { valid: false, code: "NOT_FOUND" } };
    }

    const credits = creditsAt(key, now);
    const data = keyFacts(key, credits.remaining);
    let spent = 0;
    let code: VerifyCode;
    if (key.enabled !== 1) {
      code = "DISABLED";
    } else if (key.expires !== null && key.expires <= now) {
      code = "EXPIRED";
    } else if (!addressAllowed(found?.ipWhitelist ?? null, request.clientAddress)) {
      // As the real service: a call from an address the key's API does not list, checked before permissions.
      code = "FORBIDDEN";
    } else if (
      // The key's effective permissions: its own and its roles'.
      request.permissions !== undefined &&
      !satisfies(request.permissions, new Set(parseJson<string[]>(key.permissions)))
    ) {
      code = "INSUFFICIENT_PERMISSIONS";
    } else {
      const planned = rateLimitsToCheck(key, request.ratelimits ?? []);
      if ("unknown" in planned) {
        const identity =
          key.identity_id !== null ? { id: key.identity_id, externalId: key.external_id ?? "" } : undefined;
        return {
          kind: "unknown_ratelimit",
          index: planned.unknown,
          name: planned.name,
          keyId: key.id,
          ...(identity !== undefined && { identity }),
        };
      }
      const outcomes = context.limiter.take(planned.checks, now);
      if (planned.limits.length > 0) {
        data.ratelimits = planned.limits.map((limit, index) => {
          const outcome = outcomes[index] ?? { exceeded: false, remaining: limit.limit, reset: now };
          return { ...limit, ...outcome };
        });
      }
      const cost = request.credits?.cost ?? DEFAULT_COST;
      if (outcomes.some((outcome) => outcome.exceeded)) {
        code = "RATE_LIMITED";
      } else if (credits.remaining !== null && credits.remaining < cost) {
        code = "USAGE_EXCEEDED";
      } else {
        code = "VALID";
        if (credits.remaining !== null) {
          credits.remaining -= cost;
          spent = cost;
          data.credits = credits.remaining;
        }
      }
    }
    data.code = code;
    data.valid = code === "VALID";
    // As the real service: the key's permissions and roles, whether or not the request asked about permissions.
    data.permissions = parseJson<string[]>(key.permissions);
    data.roles = parseJson<string[]>(key.roles);

    store.writeVerification({
      keyId: key.id,
      lastUsedAt: now,
      creditsRemaining: credits.remaining,
      lastRefillAt: credits.lastRefillAt,
      record: {
        requestId: context.requestId,
        time: now,
        workspaceId: key.workspace_id,
        keySpaceId: key.api_id,
        keyId: key.id,
        externalId: key.external_id ?? "",
        // The verify codes of a found key are the analytics outcomes of the same name.
        outcome: code,
        region: context.region,
        tags: JSON.stringify(request.tags ?? []),
        spentCredits: spent,
      },
    });
    return { kind: "verified", data };
  });
}
