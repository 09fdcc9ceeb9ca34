import type { Context } from "hono";
import * as v from "valibot";
import {
  LIST_KEYS_LIMIT_DEFAULT,
  LIST_KEYS_LIMIT_MAX,
  MAX_BODY_BYTES,
  type ErrorDetailEntry,
  type Pagination,
} from "../../src/lib/contract";
import type { ApiEnv } from "../api-env";
import { authenticateRootKey, type AuthDependencies } from "../auth";
import type { KeyRow, ListKeysQuery } from "../db/key-store";
import { BASE58_PATTERN } from "../ids";
import { errorResponse, JSON_HEADERS } from "../errors";
import { mayListKeys } from "../permissions";
import { readJsonBody } from "../request-body";
import { createVersionedCache } from "../versioned-cache";

/** Rendered pages kept until the data changes: about 20 KB each at 100 keys, so at most ~10 MB. */
const CACHED_PAGES = 500;

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
// The real service's operation names its API (CONTRACT.md §3).
const ApiListKeysBody = v.strictObject({ ...BODY_FIELDS, apiId: v.pipe(v.string("apiId is required"), v.nonEmpty("apiId must not be empty")) });
type BodyField = keyof typeof BODY_FIELDS;
const FIELD_NAMES = Object.keys(BODY_FIELDS).join(", ");

const FIXES: Record<BodyField, string> = {
  apiId: "Pass the id of an API of your workspace, like api_… (keys.listKeys also takes no apiId: then it lists every API's keys).",
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

function parseBody(input: unknown, operation: ListOperation): ParsedBody {
  const schema = operation === "apis.listKeys" ? ApiListKeysBody : ListKeysBody;
  // valibot accepts an array as an object; the body must be a plain one.
  const result = v.safeParse(schema, Array.isArray(input) ? null : input, { abortPipeEarly: true });
  return result.success ? { ok: true, value: result.output } : { ok: false, errors: describeIssues(result.issues) };
}

/**
 * The two list operations: the seed's `keys.listKeys` (`data.keys`), and the real service's `apis.listKeys`
 * (`apiId` required, `data` the array itself), so the dashboard's real-service path has a real server too.
 */
export type ListOperation = "keys.listKeys" | "apis.listKeys";

/** `POST /v2/keys.listKeys` or `/v2/apis.listKeys`: checks in the contract's order, then one keyset page. */
export function listKeysHandler(deps: AuthDependencies, operation: ListOperation = "keys.listKeys") {
  // Serialising a page is most of a request's cost and the data changes rarely (only the admin CLI writes):
  // a page is rendered once per version of the data, whoever asks for it.
  const pages = createVersionedCache<string>(() => deps.store.dataVersion(), CACHED_PAGES);

  function renderPage(query: ListKeysQuery): string {
    const page = deps.store.listKeys(query);
    const lastKeyId = page.rows.at(-1)?.[0];
    const pagination: Pagination =
      page.hasMore && lastKeyId !== undefined ? { cursor: lastKeyId, hasMore: true } : { hasMore: false };
    const keys = keysJson(page.rows);
    const data = operation === "apis.listKeys" ? keys : `{"keys":${keys}}`;
    return `"data":${data},"pagination":${JSON.stringify(pagination)}`;
  }

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
    const parsed = parseBody(body.value, operation);
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

    const query: ListKeysQuery = { workspaceId: rootKey.workspaceId, apiId, externalId, after: cursor, limit };
    const page = pages.get(JSON.stringify([query.workspaceId, apiId, externalId, cursor, limit]), () => renderPage(query));
    return c.body(`{"meta":{"requestId":"${c.var.requestId}"},${page}}`, 200, JSON_HEADERS);
  };
}

/**
 * The `Key` objects of the contract as JSON text, written straight from the rows: a page of 100 keys is the
 * request's biggest cost, and this skips an object per key and a parse and stringify of every `meta`
 * (stored as JSON text, and only ever an object).
 */
function keysJson(rows: readonly KeyRow[]): string {
  let json = "";
  for (const [keyId, name, start, enabled, createdAt, expires, meta] of rows) {
    if (json !== "") json += ",";
    json += `{"keyId":${JSON.stringify(keyId)},"name":${JSON.stringify(name)},"start":${JSON.stringify(start)},"enabled":${enabled === 1},"createdAt":${createdAt}`;
    if (expires !== null) json += `,"expires":${expires}`;
    if (meta !== null) json += `,"meta":${meta}`;
    json += "}";
  }
  return `[${json}]`;
}
