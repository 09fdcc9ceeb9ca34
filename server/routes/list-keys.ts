import type { Context } from "hono";
import * as v from "valibot";
import {
  LIST_KEYS_LIMIT_DEFAULT,
  LIST_KEYS_LIMIT_MAX,
  MAX_BODY_BYTES,
  type ErrorDetailEntry,
  type ListKeysEnvelope,
} from "../../src/lib/contract";
import type { ApiEnv } from "../api-env";
import { authenticateRootKey, type AuthDependencies } from "../auth";
import { BASE58_PATTERN } from "../ids";
import { errorResponse, JSON_HEADERS } from "../errors";
import { mayListKeys } from "../permissions";
import { readJsonBody } from "../request-body";

const CURSOR = new RegExp(`^key_${BASE58_PATTERN}{1,64}$`);

const BODY_FIELDS = {
  apiId: v.optional(v.pipe(v.string("apiId must be a string"), v.nonEmpty("apiId must not be empty"))),
  limit: v.optional(
    v.pipe(
      v.number("limit must be a number"),
      v.integer("limit must be a whole number"),
      v.minValue(1, "limit must be at least 1"),
      v.maxValue(LIST_KEYS_LIMIT_MAX, `limit must be at most ${LIST_KEYS_LIMIT_MAX}`),
    ),
  ),
  cursor: v.optional(
    v.pipe(v.string("cursor must be a string"), v.regex(CURSOR, "cursor is not one this server handed out")),
  ),
  externalId: v.optional(
    v.pipe(v.string("externalId must be a string"), v.nonEmpty("externalId must not be empty"), v.maxLength(256)),
  ),
};

const ListKeysBody = v.strictObject(BODY_FIELDS);
type ListKeysBody = v.InferOutput<typeof ListKeysBody>;
type BodyField = keyof typeof BODY_FIELDS;
const FIELD_NAMES = Object.keys(BODY_FIELDS).join(", ");

const FIXES: Record<BodyField, string> = {
  apiId: "Pass the id of an API of your workspace, like api_…, or leave apiId out to list every API's keys.",
  limit: `Pass a whole number from 1 to ${LIST_KEYS_LIMIT_MAX}, or leave limit out for ${LIST_KEYS_LIMIT_DEFAULT}.`,
  cursor: "Pass pagination.cursor from the previous page unchanged, or leave cursor out to start at the first page.",
  externalId: "Pass the external id as a non-empty string, or leave externalId out.",
};

function isBodyField(name: string): name is BodyField {
  return Object.hasOwn(BODY_FIELDS, name);
}

function describeIssues(issues: readonly v.BaseIssue<unknown>[]): ErrorDetailEntry[] {
  return issues.map((issue) => {
    const field = issue.path?.map((item) => String(item.key)).join(".");
    if (field === undefined) {
      return {
        location: "body",
        message: "The body must be a JSON object",
        fix: `Send an object such as {"limit": 10}; its fields are ${FIELD_NAMES}.`,
      };
    }
    if (!isBodyField(field)) {
      return {
        location: `body.${field}`,
        message: `Unknown field "${field}"`,
        fix: `Remove it: the body accepts only ${FIELD_NAMES}.`,
      };
    }
    return { location: `body.${field}`, message: issue.message, fix: FIXES[field] };
  });
}

type ParsedBody = { ok: true; value: ListKeysBody } | { ok: false; errors: ErrorDetailEntry[] };

function parseBody(input: unknown): ParsedBody {
  // valibot accepts an array as an object; the body must be a plain one.
  const result = v.safeParse(ListKeysBody, Array.isArray(input) ? null : input, { abortPipeEarly: true });
  return result.success ? { ok: true, value: result.output } : { ok: false, errors: describeIssues(result.issues) };
}

/** `POST /v2/keys.listKeys`: checks in the contract's order, then one keyset page. */
export function listKeysHandler(deps: AuthDependencies) {
  return async (c: Context<ApiEnv>): Promise<Response> => {
    const rootKey = authenticateRootKey(c, deps);
    if (rootKey instanceof Response) return rootKey;

    const body = await readJsonBody(c.req.raw, MAX_BODY_BYTES);
    if (body.kind === "too_large") {
      return errorResponse(c, "err:user:bad_request:request_body_too_large", { headers: { connection: "close" } });
    }
    if (body.kind === "invalid_json") {
      return errorResponse(c, "err:svc:application:invalid_input", {
        detail: "The request body is not valid JSON",
        errors: [{ location: "body", message: body.message, fix: 'Send a JSON object such as {"limit": 10}.' }],
      });
    }
    const parsed = parseBody(body.value);
    if (!parsed.ok) return errorResponse(c, "err:svc:application:invalid_input", { errors: parsed.errors });
    const { apiId, externalId, cursor, limit = LIST_KEYS_LIMIT_DEFAULT } = parsed.value;

    if (!mayListKeys(rootKey.permissions, apiId)) {
      return errorResponse(c, "err:svc:authorization:insufficient_permissions", {
        detail:
          apiId === undefined
            ? "Listing the keys of every API needs the permission api.*.read_key"
            : `Listing the keys of ${apiId} needs the permission api.*.read_key or api.${apiId}.read_key`,
      });
    }
    if (apiId !== undefined && !deps.store.apiBelongsTo(apiId, rootKey.workspaceId)) {
      return errorResponse(c, "err:svc:data:api_not_found");
    }

    const page = deps.store.listKeys({ workspaceId: rootKey.workspaceId, apiId, externalId, after: cursor, limit });
    const lastKey = page.keys.at(-1);
    const envelope: ListKeysEnvelope = {
      meta: { requestId: c.var.requestId },
      data: { keys: page.keys },
      pagination: page.hasMore && lastKey !== undefined ? { cursor: lastKey.keyId, hasMore: true } : { hasMore: false },
    };
    return c.body(JSON.stringify(envelope), 200, JSON_HEADERS);
  };
}
