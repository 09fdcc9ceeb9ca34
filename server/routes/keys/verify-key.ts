import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import * as v from "valibot";
import { migrateOnVerification } from "../../db/key-migrations";
import { dataAnswer } from "../../http/answers";
import { DEFAULT_REGION, type ApiDependencies } from "../../http/api-env";
import { ApiRefusal } from "../../http/api-refusal";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { createKeyRateLimiter } from "../../keys/key-rate-limiter";
import { parsePermissionQuery, PERMISSION_QUERY_MAX_LENGTH } from "../../keys/permission-query";
import { verifyKey as verifyKeyNow, type VerifyRequest } from "../../keys/verify-key";
import { hashSecret } from "../../keys/secrets";
import { secretField } from "./key-fields";

const MAX_TAGS = 20;
const MAX_TAG_LENGTH = 128;
const MAX_RATELIMITS = 20;
const MAX_COST = 1_000_000_000;
const MAX_MIGRATION_ID_LENGTH = 256;
const whole = (field: string, min: number) =>
  v.pipe(
    v.number(`${field} must be a number`),
    v.integer(`${field} must be a whole number`),
    v.minValue(min, `${field} must be at least ${min}`),
    v.maxValue(MAX_COST, `${field} must be at most ${MAX_COST}`),
  );

interface VerifyKeyBody {
  key: string;
  tags?: string[];
  permissions?: string;
  credits?: { cost: number };
  ratelimits?: { name: string; cost?: number; limit?: number; duration?: number }[];
  migrationId?: string;
}

const VERIFY_KEY: BodySpec<v.GenericSchema<unknown, VerifyKeyBody>> = {
  schema: v.strictObject({
    key: secretField,
    tags: v.optional(
      v.pipe(
        v.array(
          v.pipe(
            v.string("each tag must be a string"),
            v.nonEmpty("a tag must not be empty"),
            v.maxLength(MAX_TAG_LENGTH, `a tag must be at most ${MAX_TAG_LENGTH} characters`),
          ),
          "tags must be an array of strings",
        ),
        v.maxLength(MAX_TAGS, `at most ${MAX_TAGS} tags`),
      ),
    ),
    permissions: v.optional(
      v.pipe(
        v.string("permissions must be a query string"),
        v.nonEmpty("permissions must not be empty"),
        v.maxLength(
          PERMISSION_QUERY_MAX_LENGTH,
          `permissions must be at most ${PERMISSION_QUERY_MAX_LENGTH} characters`,
        ),
      ),
    ),
    credits: v.optional(
      v.strictObject({ cost: whole("credits.cost", 0) }, 'credits must be an object like {"cost": 1}'),
    ),
    ratelimits: v.optional(
      v.pipe(
        v.array(
          v.strictObject(
            {
              name: v.pipe(
                v.string("a rate limit's name must be a string"),
                v.nonEmpty("a rate limit's name must not be empty"),
                v.maxLength(128),
              ),
              cost: v.optional(whole("cost", 0)),
              limit: v.optional(whole("limit", 1)),
              duration: v.optional(whole("duration", 1)),
            },
            'each rate limit must be an object like {"name": "requests"}',
          ),
          "ratelimits must be an array",
        ),
        v.maxLength(MAX_RATELIMITS, `at most ${MAX_RATELIMITS} rate limits`),
      ),
    ),
    migrationId: v.optional(
      v.pipe(
        v.string("migrationId must be a string"),
        v.maxLength(MAX_MIGRATION_ID_LENGTH, `migrationId must be at most ${MAX_MIGRATION_ID_LENGTH} characters`),
      ),
    ),
  }),
  fixes: {
    key: "Pass the secret your user sent, exactly as it is (prefix included).",
    tags: `Pass up to ${MAX_TAGS} strings like "path=/api/users", or leave tags out.`,
    permissions: 'Pass a query like "documents.read AND (users.view OR users.admin)", or leave permissions out.',
    credits: 'Pass {"cost": N} with a whole number N ≥ 0, or leave credits out to spend 1.',
    ratelimits:
      'Pass [{"name": "requests"}] naming the key\'s rate limits, with cost, limit and duration (ms) as whole numbers; a name the key lacks needs limit and duration.',
    migrationId: "Pass the id of the key migration the key was imported under (keys.migrateKeys), or leave it out.",
  },
  example: '{"key": "sk_live_…"}',
};

/** The real service's words, which name the key and, when it has one, its identity and external id. */
function unknownRateLimitDetail({
  name,
  keyId,
  identity,
}: {
  name: string;
  keyId: string;
  identity?: { id: string; externalId: string };
}): string {
  const start = `ratelimit '${name}' was requested but does not exist for key '${keyId}'`;
  return identity === undefined
    ? `${start} and there is no identity connected.`
    : `${start} nor identity: '${identity.id}' external ID: '${identity.externalId}'`;
}

/** `1.2.3.4:80` and `[::1]:80` without their port, as Go's net.SplitHostPort reads them; anything else as it is. */
function withoutPort(address: string): string {
  return /^\[(.+)\](?::\d+)?$/.exec(address)?.[1] ?? /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(address)?.[1] ?? address;
}

/**
 * The address a verify call came from, as the real service reads it for an API's IP whitelist: the first address of
 * `X-Forwarded-For`, else the connection's (an IPv4 one without its IPv6 form). As there, the header says what the
 * caller or a proxy put in it: a whitelist holds against callers that can only reach the API through a proxy that
 * sets it.
 */
function clientAddress(c: Context): string | undefined {
  const forwarded = c.req
    .header("x-forwarded-for")
    ?.split(",")
    .map((part) => part.trim())
    .find((part) => part !== "");
  if (forwarded !== undefined) return withoutPort(forwarded);
  try {
    return getConnInfo(c).remote.address?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  } catch {
    // Not a Node connection (a request made in-process): no address.
    return undefined;
  }
}

/** `POST /v2/keys.verifyKey`: 200 with the key's fate whatever it is; errors only for the call itself. */
export function verifyKey(deps: ApiDependencies) {
  const limiter = deps.keyRateLimiter ?? createKeyRateLimiter();
  const region = deps.region ?? DEFAULT_REGION;
  const clock = deps.clock ?? Date.now;

  return operation(deps, { body: VERIFY_KEY }, async (c) => {
    const { key, tags, permissions, credits, ratelimits, migrationId } = c.req.valid("json");

    const request: VerifyRequest = { keyHash: hashSecret(key) };
    const address = clientAddress(c);
    if (address !== undefined) request.clientAddress = address;
    if (tags !== undefined) request.tags = tags;
    if (credits !== undefined) request.credits = credits;
    if (ratelimits !== undefined) request.ratelimits = ratelimits;
    if (permissions !== undefined) {
      const parsed = parsePermissionQuery(permissions);
      if (!parsed.ok) {
        throw new ApiRefusal("err:user:bad_request:permissions_query_syntax_error", {
          detail: parsed.message,
          errors: [{ location: "body.permissions", message: parsed.message, fix: VERIFY_KEY.fixes.permissions }],
        });
      }
      request.permissions = parsed.query;
    }

    const context = {
      store: deps.store,
      limiter,
      caller: c.get("rootKey"),
      requestId: c.get("requestId"),
      now: clock(),
      region,
    };
    // Answered once the verification is committed, together with the others of this turn of the event loop.
    const result = await deps.store.inGroupCommit(() => {
      const found = verifyKeyNow(request, context);
      if (migrationId === undefined || found.kind !== "verified" || found.data.code !== "NOT_FOUND") return found;
      // A key imported by keys.migrateKeys, verified for the first time: re-hashed, then verified as any other.
      const migrated = deps.store.writeInGroup((db) =>
        migrateOnVerification(db, context.caller.workspaceId, migrationId, key, context.now),
      );
      if (migrated === "malformed") return { kind: "malformed" } as const;
      return migrated === "migrated" ? verifyKeyNow(request, context) : found;
    });
    // Refused once the group has committed, as every answer is: the connection holds the write lock until then.
    if (result.kind === "malformed") {
      throw new ApiRefusal("err:svc:authentication:malformed", { detail: "Invalid key format" });
    }
    if (result.kind === "unknown_ratelimit") {
      throw new ApiRefusal("err:svc:application:precondition_failed", { detail: unknownRateLimitDetail(result) });
    }
    return dataAnswer(c, result.data);
  });
}
