import type { Context } from "hono";
import type { ApiEnv } from "../http/api-env";
import type { KeyStore, RootKeyRecord } from "../db/key-store";
import type { KeyRateLimiter } from "../keys/key-rate-limiter";
import { errorResponse } from "../http/errors";
import type { RateLimiter } from "./rate-limit";
import { hashSecret } from "../keys/secrets";

export type Credential = { kind: "missing" } | { kind: "malformed" } | { kind: "token"; token: string };

// Case-sensitive `Bearer`, exactly one space, a token without whitespace. (HTTP itself strips
// whitespace around a header value, so a trailing space never reaches this.)
const BEARER = /^Bearer (\S+)$/;

export function parseAuthorization(header: string | undefined): Credential {
  if (header === undefined) return { kind: "missing" };
  const match = BEARER.exec(header);
  return match?.[1] === undefined ? { kind: "malformed" } : { kind: "token", token: match[1] };
}

export interface AuthDependencies {
  store: KeyStore;
  /** The root keys' own rate limits. */
  rateLimiter: RateLimiter;
  /** The verified keys' rate limits; a fresh one per app when not given. */
  keyRateLimiter?: KeyRateLimiter;
  /** Recorded as each verification's `region` (default {@link DEFAULT_REGION}). */
  region?: string;
  /** When a verification happens (default the wall clock): tests move it, as the real service's route tests move theirs. */
  clock?: () => number;
}

export const DEFAULT_REGION = "local";

/**
 * The checks every operation starts with, in the contract's order: header, key lookup, disabled, rate limit.
 * Returns the root key, or the error response to send.
 */
export function authenticateRootKey(c: Context<ApiEnv>, deps: AuthDependencies): RootKeyRecord | Response {
  const credential = parseAuthorization(c.req.header("authorization"));
  if (credential.kind === "missing") return errorResponse(c, "err:svc:authentication:missing");
  if (credential.kind === "malformed") {
    return errorResponse(c, "err:svc:authentication:malformed", {
      errors: [
        {
          location: "header.Authorization",
          message: "The header is not the word Bearer, one space, then the key",
          fix: "Send the header as Authorization: Bearer <ROOT_KEY>.",
        },
      ],
    });
  }

  // Unknown and revoked keys get the same answer: nothing tells a caller which one it holds.
  const rootKey = deps.store.findRootKey(hashSecret(credential.token));
  if (rootKey === undefined) return errorResponse(c, "err:svc:authentication:key_not_found");
  if (!rootKey.enabled) return errorResponse(c, "err:svc:authorization:key_disabled");

  if (rootKey.ratelimit !== null) {
    const retryAfterSeconds = deps.rateLimiter.take(rootKey.id, rootKey.ratelimit);
    if (retryAfterSeconds !== undefined) {
      return errorResponse(c, "err:user:too_many_requests:rate_limited", {
        headers: { "retry-after": String(retryAfterSeconds) },
      });
    }
  }
  return rootKey;
}
