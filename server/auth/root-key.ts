import { createMiddleware } from "hono/factory";
import { ERROR_KINDS } from "../../src/lib/contract";
import type { KeyStore, RootKeyRecord } from "../db/key-store";
import type { ApiEnv, OperationEnv } from "../http/api-env";
import { ApiRefusal } from "../http/api-refusal";
import { hashSecret } from "../keys/secrets";
import type { RateLimiter } from "./rate-limit";

export type Credential =
  { kind: "missing" } | { kind: "malformed"; prefixMissing: boolean } | { kind: "token"; token: string };

const PREFIX = "Bearer ";

/**
 * The header as the real service reads it (its zen.Bearer): trimmed, the case-sensitive word `Bearer` and a space,
 * then the key, trimmed too, so `Bearer   <key>   ` carries that key. A key with whitespace inside is none: two
 * Authorization headers arrive joined by a comma and a space, and are not two chances.
 */
export function parseAuthorization(header: string | undefined): Credential {
  if (header === undefined) return { kind: "missing" };
  const value = header.trim();
  if (!value.startsWith(PREFIX)) return { kind: "malformed", prefixMissing: true };
  const token = value.slice(PREFIX.length).trim();
  return token === "" || /\s/.test(token) ? { kind: "malformed", prefixMissing: false } : { kind: "token", token };
}

/**
 * A request without an Authorization header is the seed's 401 before anything else is looked at; the real service
 * finds a missing header when it validates the request too, before the body's fields (its answer is a 400).
 */
export const requireAuthorizationHeader = createMiddleware<ApiEnv>((c, next) => {
  if (c.req.header("authorization") === undefined) throw new ApiRefusal("err:svc:authentication:missing");
  return next();
});

function malformed(prefixMissing: boolean): ApiRefusal {
  // The real service's words, which its route tests look for ("valid root key"), and its reason for a missing prefix.
  const detail = ERROR_KINDS["err:svc:authentication:malformed"].detail;
  return new ApiRefusal("err:svc:authentication:malformed", {
    detail: prefixMissing ? `${detail} Your authorization header is missing the 'Bearer ' prefix.` : detail,
    errors: [
      {
        location: "header.Authorization",
        message: "The header is not the word Bearer, a space, then the key",
        fix: "Send the header as Authorization: Bearer <ROOT_KEY>.",
      },
    ],
  });
}

/**
 * Who the root key is, once per request, in hono/bearer-auth's shape: the header, the key's lookup, whether it is
 * disabled, its rate limit, in the contract's order; the handler reads the root key from `c.get("rootKey")`. It runs
 * after the body is validated, as the real service authenticates only a request that passed validation.
 */
export function rootKeyAuth(deps: { store: KeyStore; rateLimiter: RateLimiter }) {
  return createMiddleware<OperationEnv>((c, next) => {
    c.set("rootKey", authenticate(parseAuthorization(c.req.header("authorization")), deps));
    return next();
  });
}

function authenticate(credential: Credential, deps: { store: KeyStore; rateLimiter: RateLimiter }): RootKeyRecord {
  if (credential.kind === "missing") throw new ApiRefusal("err:svc:authentication:missing");
  if (credential.kind === "malformed") throw malformed(credential.prefixMissing);
  // Unknown and revoked keys get the same answer: nothing tells a caller which one it holds.
  const rootKey = deps.store.findRootKey(hashSecret(credential.token));
  if (rootKey === undefined) throw new ApiRefusal("err:svc:authentication:key_not_found");
  if (!rootKey.enabled) throw new ApiRefusal("err:svc:authorization:key_disabled");
  if (rootKey.ratelimit !== null) {
    const retryAfterSeconds = deps.rateLimiter.take(rootKey.id, rootKey.ratelimit);
    if (retryAfterSeconds !== undefined) {
      throw new ApiRefusal("err:user:too_many_requests:rate_limited", {
        headers: { "retry-after": String(retryAfterSeconds) },
      });
    }
  }
  return rootKey;
}
